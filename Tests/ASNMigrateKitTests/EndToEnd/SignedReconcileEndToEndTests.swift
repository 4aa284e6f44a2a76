import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// Signatures end to end, through the built binary: `simulate --sign` writes signed V2 data and its test root;
/// `reconcile --verify-signatures --root-certificate` verifies every record and reports exactly the differences of an
/// unverified run; without the test root every V2 record is a `signature: root` reject.
@Suite(.serialized) struct SignedReconcileEndToEndTests {
    @Test func simulatedSignedDataVerifiesCompletelyWithTheSameDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "80", "--seed", "11", "--months", "3", "--inject", "0.05",
            "--receipt-history", "3", "--sign", "--out", data
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(FileManager.default.fileExists(atPath: data + "/test-root.der"))

        let plain = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", tmp.path + "/plain"
        ])
        let verified = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", tmp.path + "/verified",
            "--verify-signatures", "--root-certificate", data + "/test-root.der",
            "--bundle-id", SimulatedProduct.bundleId, "--app-apple-id", String(SimulatedProduct.appAppleId)
        ])
        #expect(plain.status == verified.status, "\(verified.stderr)")
        for name in ["differences.csv", "rejected.csv", "subscriptions.csv", "mapping-coverage.csv"] {
            #expect(
                try tmp.read("plain/" + name) == tmp.read("verified/" + name),
                "\(name) must not change when every signature verifies")
        }
        let summary = String(decoding: try tmp.read("verified/summary.csv"), as: UTF8.self)
        #expect(summary.contains("\nv2_unverified,0\n"))
        #expect(!String(decoding: try tmp.read("plain/summary.csv"), as: UTF8.self).contains("v2_unverified"))
        #expect(!String(decoding: try tmp.read("verified/rejected.csv"), as: UTF8.self).contains("signature:"))
        #expect(verified.stderr.contains("v2_unverified 0"))

        // Against Apple's root only, every simulated V2 record is a named reject, and nothing else changes count.
        let apple = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", tmp.path + "/apple", "--verify-signatures"
        ])
        // Every V2 record rejected is far above the default --max-reject-rate of 1%: the report is written, exit 3.
        #expect(apple.status == ExitStatus.sanityCheckFailed.rawValue, "\(apple.stderr)")
        let rejected = try CSVReader.read(try tmp.read("apple/rejected.csv"), path: "rejected.csv").records
        let signatureRejects = rejected.filter { $0.fields[3].hasPrefix("signature: root: ") }
        let metrics = try CSVReader.read(try tmp.read("apple/summary.csv"), path: "summary.csv").records
        let read = metrics.first { $0.fields[0] == "v2_records_read" }?.fields[1]
        let rejectedCount = metrics.first { $0.fields[0] == "v2_rejected" }?.fields[1]
        let otherRejects = rejected.filter { $0.fields[0] == "v2" && !$0.fields[3].hasPrefix("signature:") }.count
        #expect(read != nil && read == rejectedCount, "every V2 record is rejected")
        #expect(signatureRejects.count + otherRejects == Int(rejectedCount ?? "") ?? -1)
        #expect(signatureRejects.count > 100)
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func applesTestNotificationNeedsApplesTestCAGivenAsRootCertificate() throws {
        let directory = try #require(V2CorpusTests.directory)
        let fixture = directory.appendingPathComponent("apple-lib-mock-testNotification.jws").path
        let text = try String(contentsOfFile: fixture, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let testRoot = try #require(JWSVerifierCorpusTests.lastCertificate(text))
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let rootFile = try tmp.write("apple-test-ca.der", testRoot)
        let base = ["reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", fixture, "--verify-signatures"]
        _ = try BinaryRun.run(base + ["--out", tmp.path + "/apple"])
        #expect(String(decoding: try tmp.read("apple/rejected.csv"), as: UTF8.self).contains("signature: root: "))
        let given = try BinaryRun.run(base + ["--out", tmp.path + "/given", "--root-certificate", rootFile])
        #expect(!String(decoding: try tmp.read("given/rejected.csv"), as: UTF8.self).contains("v2,"), "\(given.stderr)")
        #expect(String(decoding: try tmp.read("given/summary.csv"), as: UTF8.self).contains("\nv2_records_read,1\n"))
    }

    @Test func signedSimulationsAreByteIdenticalForTheSameSeed() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        for name in ["a", "b"] {
            let run = try BinaryRun.run([
                "simulate", "--subscribers", "40", "--seed", "3", "--months", "2", "--sign", "--out",
                tmp.path + "/" + name
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let files =
            try FileManager.default.subpathsOfDirectory(atPath: tmp.path + "/a").filter {
                $0.hasPrefix("v2/") && $0.hasSuffix(".jsonl")
            } + ["test-root.der"]
        #expect(files.count > 1)
        for file in files {
            #expect(try tmp.read("a/" + file) == tmp.read("b/" + file), "\(file)")
        }
    }

    @Test func signatureOptionsWithoutVerifySignaturesAreUsageErrors() throws {
        for extra in [
            ["--require-signatures"], ["--bundle-id", "x"], ["--app-apple-id", "1"], ["--root-certificate", "x.der"]
        ] {
            let run = try BinaryRun.run(
                [
                    "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
                    "/nonexistent/never"
                ] + extra)
            #expect(run.status == 64, "\(extra): \(run.stderr)")
            #expect(run.stderr.contains("needs --verify-signatures"))
        }
        let badRoot = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
            "/nonexistent/never",
            "--verify-signatures", "--root-certificate", "README.md"
        ])
        #expect(badRoot.status == 64)
        #expect(badRoot.stderr.contains("README.md"))
    }

    @Test func theSampleDataIsDecodedSoItCountsAsUnverifiedOrRejected() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // migrate output is decoded JSON: it cannot be verified.
        let base = [
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/expected/migrate.jsonl",
            "--from", "2020-01-01", "--to", "2030-01-01"
        ]
        let counted = try BinaryRun.run(base + ["--out", tmp.path + "/counted", "--verify-signatures"])
        let summary = try CSVReader.read(try tmp.read("counted/summary.csv"), path: "summary.csv").records
        let unverified = Int(summary.first { $0.fields[0] == "v2_unverified" }?.fields[1] ?? "") ?? 0
        #expect(unverified > 0, "\(counted.stderr)")
        let required = try BinaryRun.run(
            base + ["--out", tmp.path + "/required", "--verify-signatures", "--require-signatures"])
        let rejected = String(decoding: try tmp.read("required/rejected.csv"), as: UTF8.self)
        #expect(rejected.components(separatedBy: "signature: unsigned: ").count - 1 == unverified, "\(required.stderr)")
    }
}
