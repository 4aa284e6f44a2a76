import Foundation
import Testing

@testable import ASNMigrateKit

/// "Safety net", through the built binary: each defect, as a user would meet it.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct SafetyNetEndToEndTests {
    /// `count` good V1 bodies on one line each, with distinct transactions.
    static func goodLines(_ count: Int, from first: Int = 0) -> [String] {
        InputDamageEndToEndTests.goodV1Lines(count, from: first)
    }

    /// The summary counts of a migrate run.
    static func counts(_ run: BinaryRun) throws -> (read: Int, migrated: Int, unmapped: Int, rejected: Int) {
        try InputDamageEndToEndTests.counts(run)
    }

    /// The rows of a rejects CSV (without its header).
    static func rejectRows(_ path: String) throws -> [[String]] {
        try CSVReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path).records.map(\.fields)
    }

    // MARK: - 1. An output flag never destroys an input

    @Test func anOutputFlagNamingAnInputIsAUsageErrorAndTheInputIsKept() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let a1 = try tmp.write("a1.jsonl", Self.goodLines(3).joined(separator: "\n") + "\n")
        let a2 = try tmp.write("a2.jsonl", try PackagePaths.read("Tests/Fixtures/sample/v2/01-notifications.jsonl"))
        let original1 = try tmp.read("a1.jsonl")
        let original2 = try tmp.read("a2.jsonl")
        try FileManager.default.linkItem(atPath: a1, toPath: tmp.path + "/hard-link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/soft-link.jsonl", withDestinationPath: a2)
        let cases: [([String], String)] = [
            (
                ["reconcile", "--v1", a1, "--v2", a2, "--summary-json", a1, "--out", tmp.path + "/r"],
                "--summary-json '\(a1)' is the input '\(a1)'"
            ),
            (
                ["reconcile", "--v1", a1, "--v2", a2, "--summary-json", a2, "--out", tmp.path + "/r"],
                "--summary-json '\(a2)' is the input '\(a2)'"
            ),
            (
                [
                    "reconcile", "--v1", a1, "--v2", a2, "--summary-json", tmp.path + "/soft-link.jsonl", "--out",
                    tmp.path + "/r"
                ], "is the input '\(a2)'"
            ),
            (["migrate", a1, "--summary-json", a1], "--summary-json '\(a1)' is the input '\(a1)'"),
            (
                ["migrate", a1, "--out", tmp.path + "/o.jsonl", "--summary-json", tmp.path + "/hard-link.jsonl"],
                "is the input '\(a1)'"
            )
        ]
        for (arguments, message) in cases {
            let run = try BinaryRun.run(arguments)
            #expect(run.status == ExitStatus.usage.rawValue, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(
                try tmp.read("a1.jsonl") == original1 && tmp.read("a2.jsonl") == original2,
                "\(arguments) changed an input")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/o.jsonl"))
    }

    @Test func anOutputInsideAnInputFolderIsAUsageErrorNamingBoth() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.write("in/v1/a1.jsonl", Self.goodLines(3).joined(separator: "\n") + "\n")
        try tmp.write("in/v2/a2.jsonl", try PackagePaths.read("Tests/Fixtures/sample/v2/01-notifications.jsonl"))
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/alias", withDestinationPath: tmp.path + "/in/v1")
        let v1 = tmp.path + "/in/v1"
        let v2 = tmp.path + "/in/v2"
        let cases: [([String], String)] = [
            (
                [
                    "nightly", "--v1", v1, "--v2", v2, "--state", tmp.path + "/state/s.sqlite", "--reports",
                    tmp.path + "/reports",
                    "--metrics-file", v1 + "/metrics.prom", "--run-date", "2023-03-01"
                ], "--metrics-file '\(v1)/metrics.prom' is inside the input folder '\(v1)' (--v1)"
            ),
            (
                [
                    "nightly", "--v1", v1, "--v2", v2, "--state", v2 + "/s.sqlite", "--reports", tmp.path + "/reports",
                    "--run-date", "2023-03-01"
                ],
                "--state '\(v2)/s.sqlite' is inside the input folder '\(v2)' (--v2)"
            ),
            (
                ["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/alias/report"],
                "--out '\(tmp.path)/alias/report' is inside the input folder '\(v1)'"
            ),
            (
                ["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/r", "--summary-json", v2 + "/s.json"],
                "is inside the input folder '\(v2)'"
            ),
            (["migrate", v1, "--out", tmp.path + "/alias/out.jsonl"], "is inside the input folder '\(v1)'"),
            (
                ["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/in"],
                "--out '\(tmp.path)/in' holds the input '\(v1)'"
            )
        ]
        for (arguments, message) in cases {
            let run = try BinaryRun.run(arguments)
            #expect(run.status == ExitStatus.usage.rawValue, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let left = try FileManager.default.subpathsOfDirectory(atPath: tmp.path + "/in").sorted()
        #expect(left == ["v1", "v1/a1.jsonl", "v2", "v2/a2.jsonl"], "nothing was written into the inputs: \(left)")
        #expect(
            !FileManager.default.fileExists(atPath: tmp.path + "/state"),
            "a refused nightly run writes no state or metrics")
    }

    @Test func outputsThatAreTheSameFileOrADanglingLinkWithoutAFolderAreRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let a1 = try tmp.write("a1.jsonl", Self.goodLines(2).joined(separator: "\n") + "\n")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/to-out", withDestinationPath: tmp.path + "/out.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/nowhere", withDestinationPath: tmp.path + "/missing/s.json")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/dangling", withDestinationPath: tmp.path + "/s.json")
        let same = try BinaryRun.run([
            "migrate", a1, "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/r.csv", "--summary-json",
            tmp.path + "/to-out"
        ])
        #expect(same.status == ExitStatus.usage.rawValue, "\(same.stderr)")
        let dangling = try BinaryRun.run([
            "migrate", a1, "--out", tmp.path + "/out.jsonl", "--summary-json", tmp.path + "/nowhere"
        ])
        #expect(dangling.status == ExitStatus.usage.rawValue, "\(dangling.stderr)")
        #expect(
            dangling.stderr.contains("is a symbolic link to '\(tmp.path)/missing/s.json', which does not exist"),
            "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/out.jsonl"))
        // A dangling link whose folder exists is written through, as before; devices are written, never replaced.
        let fine = try BinaryRun.run([
            "migrate", a1, "--out", "/dev/stdout", "--rejects", "/dev/null", "--summary-json", tmp.path + "/dangling"
        ])
        #expect(fine.status == ExitStatus.success.rawValue, "\(fine.stderr)")
        #expect(MigrateEndToEndTests.lines(fine.stdout).count == 2)
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/s.json"))
    }

    // MARK: - 2. Damaged gzip data is never output

    /// About 2 MB of distinct V1 records, more than one read of the gzip reader, so records of the member reach the
    /// pipeline before its checksum is checked.
    static func bigArchive() -> [UInt8] {
        Array((Self.goodLines(2_400).joined(separator: "\n") + "\n").utf8)
    }

    @Test func aGzipMemberFailingItsChecksumYieldsNoRecordAsData() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let archive = Self.bigArchive()
        let path = tmp.path + "/archive.jsonl.gz"
        try GzipWriter.write(archive, to: path, level: 0)
        let bytes = try tmp.read("archive.jsonl.gz")
        let clean = try BinaryRun.run(["migrate", path])
        let good = Set(MigrateEndToEndTests.lines(clean.stdout))
        #expect(good.count == 2_400)
        // A flipped bit in an ID of the first record (a stored block inflates it as is), then one in the CRC trailer.
        let at = try #require(Self.find(Array("\"transaction_id\":\"2000000000\"".utf8), in: bytes)) + 20
        for position in [at, bytes.count - 6] {
            var damaged = bytes
            damaged[position] ^= 0x01
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let run = try BinaryRun.run(["migrate", path, "--rejects", tmp.path + "/rejects.csv"])
            let output = MigrateEndToEndTests.lines(run.stdout)
            #expect(
                output.isEmpty,
                "no record of the failed member is output (\(output.count) were; \(output.filter { !good.contains($0) }.count) of them damaged)"
            )
            let rows = try Self.rejectRows(tmp.path + "/rejects.csv")
            #expect(
                rows.count == 1 && rows[0][3].hasPrefix("unreadable_input:")
                    && rows[0][3].contains("starting at byte offset 0"), "\(rows)")
            #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        }
    }

    /// The first index of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count)
        where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    // MARK: - 3. How a line counts never depends on the lines before it

    @Test func anUnterminatedLineBeforeALineOfTwoObjectsCostsOneRejectEach() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let good = Self.goodLines(4)
        let cases: [(lines: [String], migrated: Int)] = [
            (["{\"notification_type\":\"DID_RENEW\"", good[0] + good[1], good[2]], 1),
            ([good[0] + good[1], good[2]], 1),
            (["{\"notification_type\":\"DID_RENEW\"", "this line does not start with a brace", good[0], good[1]], 2),
            ([good[0], "{\"notification_type\":", "  \"x\": 1}", good[1], good[2], "{"], 3)
        ]
        for (lines, migrated) in cases {
            let path = try tmp.write("feed.jsonl", lines.joined(separator: "\n") + "\n")
            let run = try BinaryRun.run(["migrate", path, "--out", tmp.path + "/out.jsonl"])
            let c = try Self.counts(run)
            #expect(
                c.read == lines.count && c.migrated == migrated && c.rejected == lines.count - migrated,
                "\(lines): \(run.stderr)")
        }
    }

    // MARK: - 4. Log injection

    @Test func anUnmappedTypeReachesTheConsoleEscapedAndCutButTheRejectsFileWhole() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let evil = "EVIL\\u001b[2J\\u001b]0;pwned\\u0007\\nasn-migrate migrate: all good\\u0000"
        // 1 MB rather than the 8.7 MB keeps this test fast on a debug build; the cut does not depend on the size.
        let huge = String(repeating: "A", count: 1_000_000)
        let tx = V1Fixture.tx(id: "2000000001", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let lines = [V1Fixture.body(type: evil, transactions: [tx]), V1Fixture.body(type: huge, transactions: [tx])]
        let path = try tmp.write("feed.jsonl", lines.joined(separator: "\n") + "\n")
        for withRejects in [false, true] {
            let run = try BinaryRun.run(
                ["migrate", path, "--out", tmp.path + "/out.jsonl"]
                    + (withRejects ? ["--rejects", tmp.path + "/rejects.csv"] : []))
            #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr.prefix(2_000))")
            #expect(
                !run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" },
                "no control character reaches standard error")
            #expect(
                !run.stderr.contains("\nasn-migrate migrate: all good"), "a newline in a value cannot forge a log line")
            #expect(
                run.stderr.utf8.count < 20_000, "the 1 MB type is not printed whole: \(run.stderr.utf8.count) bytes")
            #expect(run.stderr.contains("… (1,000,000 characters)"), "\(run.stderr.prefix(3_000))")
            #expect(run.stderr.contains("EVIL\\u{1B}[2J"), "\(run.stderr.prefix(3_000))")
        }
        let rows = try Self.rejectRows(tmp.path + "/rejects.csv")
        #expect(rows.count == 2)
        #expect(
            rows.contains { $0[3].contains("EVIL\u{1B}[2J\u{1B}]0;pwned\u{07}\nasn-migrate migrate: all good\\u0000") },
            "the rejects file keeps the value whole, NUL as \\u0000")
        #expect(rows.contains { $0[3].contains(huge) })
        #expect(!(try tmp.read("rejects.csv")).contains(0), "no NUL byte in the rejects file")
    }

    // MARK: - 5. IDs are digit strings

    @Test func anIDThatIsNotDigitsIsABadIdRejectOnBothSides() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let ids = ["\"abc\"", "\"1e400\"", "\"-5\"", "-0", "\" 1000000001\"", "\"123456789012345678901\"", "1.5"]
        let lines = ids.map { id in
            V1Fixture.body(
                type: "DID_RENEW",
                transactions: [
                    V1Fixture.tx(id: "2000000001", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
                ]
            ).replacingOccurrences(
                of: "\"original_transaction_id\":\"1000000001\"", with: "\"original_transaction_id\":" + id)
        }
        let path = try tmp.write("ids.jsonl", lines.joined(separator: "\n") + "\n")
        let run = try BinaryRun.run([
            "migrate", path, "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/rejects.csv"
        ])
        let c = try Self.counts(run)
        #expect(c.read == ids.count && c.migrated == 0 && c.rejected == ids.count, "\(run.stderr)")
        for row in try Self.rejectRows(tmp.path + "/rejects.csv") {
            #expect(
                row[3].hasPrefix("bad_id: 'unified_receipt.latest_receipt_info[0].original_transaction_id'"), "\(row)")
        }
        // The same rule on the V2 side: the migrated output of a good record, its IDs damaged, read back as V2.
        let good = try tmp.write("good.jsonl", Self.goodLines(1)[0] + "\n")
        let migrated = try BinaryRun.run(["migrate", good])
        let payload = String(decoding: migrated.stdout, as: UTF8.self)
        let v2 = [
            payload.replacingOccurrences(of: "\"transactionId\":\"2000000000\"", with: "\"transactionId\":\"abc\""),
            payload.replacingOccurrences(
                of: "\"originalTransactionId\":\"1000000000\"", with: "\"originalTransactionId\":\"-5\"")
        ]
        #expect(v2.allSatisfy { $0 != payload })
        let v2Path = try tmp.write("v2.jsonl", v2.joined())
        let reconcile = try BinaryRun.run(["reconcile", "--v1", good, "--v2", v2Path, "--out", tmp.path + "/report"])
        let rejected = try Self.rejectRows(tmp.path + "/report/rejected.csv").filter { $0[0] == "v2" }
        #expect(rejected.count == 2, "\(reconcile.stderr)")
        #expect(rejected.allSatisfy { $0[3].hasPrefix("bad_id: 'data.transactionInfo.") }, "\(rejected)")
    }
}
