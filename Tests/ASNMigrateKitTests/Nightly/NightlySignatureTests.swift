import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// `nightly` verifies V2 signatures as `reconcile --verify-signatures` does (its `verify-signatures` key),
/// on `simulate --sign` data: with the test root every record verifies; with Apple's root alone every one is a reject.
@Suite(.serialized) struct NightlySignatureTests {
    @Test func signedSimulationVerifiesThroughNightlyAndAppleRootAloneRejectsEveryRecord() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "10", "--seed", "4", "--months", "1", "--sign", "--out", tmp.path + "/sim"
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        func summary(_ reports: String) throws -> [String: String] {
            let rows = try CSVReader.read(try tmp.read(reports + "/2021-03-01/summary.csv"), path: "summary.csv")
                .records
            return Dictionary(rows.map { ($0.fields[0], $0.fields[1]) }, uniquingKeysWith: { a, _ in a })
        }

        // Flags: the test root given, the app checked too.
        let verified = try BinaryRun.run(
            [
                "nightly", "--v1", tmp.path + "/sim/v1", "--v2", tmp.path + "/sim/v2", "--state",
                tmp.path + "/a/state.sqlite",
                "--reports", tmp.path + "/a", "--run-date", "2021-03-01", "--verify-signatures",
                "--root-certificate", tmp.path + "/sim/test-root.der", "--bundle-id", SimulatedProduct.bundleId,
                "--app-apple-id", String(SimulatedProduct.appAppleId)
            ] + NightlyWorkspace.timeless)
        #expect([0, 1].contains(verified.status), "\(verified.stderr)")
        let a = try summary("a")
        #expect(a["v2_rejected"] == "0" && Int(a["v2_records_stored"] ?? "") ?? 0 > 10, "\(a)")
        #expect(verified.stderr.contains("0 V2 record(s) given decoded could not be verified"), "\(verified.stderr)")

        // The config file: verify-signatures = yes without the test root: every V2 record is a named signature reject.
        try tmp.write(
            "conf/nightly.conf",
            """
            v1 = ../sim/v1
            v2 = ../sim/v2
            state = ../b/state.sqlite
            reports = ../b
            run-date = 2021-03-01
            max-lag = 36500d
            min-file-age = 0
            verify-signatures = yes
            """)
        let apple = try BinaryRun.run(["nightly", "--config", tmp.path + "/conf/nightly.conf"])
        #expect(apple.status == 3, "every V2 record rejected fails the reject-rate check: \(apple.stderr)")
        let b = try summary("b")
        #expect(b["v2_rejected"] == b["v2_records_read"] && b["v2_records_stored"] == "0", "\(b)")
        #expect(b["v2_records_read"] == a["v2_records_read"])
        let rejected = try CSVReader.read(try tmp.read("b/2021-03-01/rejected.csv"), path: "rejected.csv").records
            .filter { $0.fields[0] == "v2" }
        #expect(
            rejected.count == Int(b["v2_rejected"] ?? "")
                && rejected.allSatisfy { $0.fields[3].hasPrefix("signature: root: ") })

        // The same config with the root given relative to it: a fresh state verifies everything.
        try tmp.write(
            "conf/nightly2.conf",
            """
            v1 = ../sim/v1
            v2 = ../sim/v2
            state = ../c/state.sqlite
            reports = ../c
            run-date = 2021-03-01
            max-lag = 36500d
            min-file-age = 0
            verify-signatures = yes
            root-certificate = ../sim/test-root.der
            """)
        let relative = try BinaryRun.run(["nightly", "--config", tmp.path + "/conf/nightly2.conf"])
        #expect(relative.status == verified.status, "\(relative.stderr)")
        #expect(try summary("c")["v2_rejected"] == "0")
    }

    @Test func signatureKeysWithoutVerifySignaturesAndBadBooleansAreUsageErrors() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let base = [
            "nightly", "--v1", tmp.path, "--v2", tmp.path, "--state", tmp.path + "/s.sqlite", "--reports",
            tmp.path + "/r"
        ]
        for extra in [
            ["--require-signatures"], ["--bundle-id", "x"], ["--app-apple-id", "1"], ["--root-certificate", "x.der"]
        ] {
            let run = try BinaryRun.run(base + extra)
            #expect(run.status == 64, "\(extra): \(run.stderr)")
            #expect(run.stderr.contains("needs --verify-signatures"), "\(run.stderr)")
        }
        try tmp.write("n.conf", "v1 = a\nv2 = b\nverify-signatures = maybe\n")
        let bad = try BinaryRun.run(["nightly", "--config", tmp.path + "/n.conf"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("line 3") && bad.stderr.contains("verify-signatures"), "\(bad.stderr)")
        let unreadable = try BinaryRun.run(
            base + ["--verify-signatures", "--root-certificate", tmp.path + "/missing.der"])
        #expect(unreadable.status == 64 && unreadable.stderr.contains("missing.der"), "\(unreadable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/s.sqlite"), "a usage error touches no state")
    }
}
