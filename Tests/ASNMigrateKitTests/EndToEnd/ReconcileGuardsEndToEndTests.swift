import Foundation
import Testing

@testable import ASNMigrateKit

/// The guard rails through the built binary: swapped sides, a CSV without its column map, conflicting
/// duplicates judged by the period, reject causes in `--summary-json`, Apple's API view on the console, and the
/// README's first command.
@Suite(.serialized) struct ReconcileGuardsEndToEndTests {
    private func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    @Test func swappedSidesAreAUsageErrorUnlessForced() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let swapped = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v2", "--v2", "Tests/Fixtures/sample/v1", "--out",
            tmp.path + "/r"
        ])
        #expect(swapped.status == 64, "\(swapped.stderr)")
        #expect(
            swapped.stderr.contains("the --v1 files hold V2 notifications")
                && swapped.stderr.contains("swap the paths given to --v1 and --v2"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r"))
        // One side alone given the other's records: V1 bodies on the V2 side.
        let v1Twice = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v1/01-live-feed.jsonl",
            "--out", tmp.path + "/r"
        ])
        #expect(v1Twice.status == 64 && v1Twice.stderr.contains("the --v2 files hold V1 bodies"), "\(v1Twice.stderr)")
        let forced = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v2", "--v2", "Tests/Fixtures/sample/v1", "--out",
            tmp.path + "/r", "--force"
        ])
        #expect(forced.status != 64, "--force runs anyway: \(forced.stderr)")
    }

    @Test func aCSVWithoutColumnMapIsAUsageErrorNamingTheMap() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let csv = tmp.path + "/migrated.csv"
        let migrate = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1/01-live-feed.jsonl", "--format", "csv", "--out", csv
        ])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let run = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1/01-live-feed.jsonl", "--v2", csv, "--out", tmp.path + "/r"
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("--v2-columns Mappings/v2-columns.migrate-csv.map")
                && run.stderr.contains("Mappings/v2-columns.example.map"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r"))
    }

    @Test func conflictingDuplicatesOutsideThePeriodAreNotReported() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = ReconcileEndToEndTests.cleanSample
        let migrated = tmp.path + "/v2.jsonl"
        let migrate = try BinaryRun.run(["migrate"] + v1 + ["--out", migrated])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        // The earliest V2 record again, same notificationUUID, other content: a conflicting duplicate dated by its signedDate.
        let lines = try read(migrated).split(separator: "\n").map(String.init)
        let parsed = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let earliest = try #require(
            parsed.indices.min {
                (parsed[$0]["signedDate"] as? Int64 ?? .max) < (parsed[$1]["signedDate"] as? Int64 ?? .max)
            })
        var conflict = parsed[earliest]
        conflict["version"] = "conflict"
        let extra = String(decoding: try JSONSerialization.data(withJSONObject: conflict), as: UTF8.self)
        try (lines + [extra]).joined(separator: "\n").appending("\n").write(
            toFile: migrated, atomically: true, encoding: .utf8)
        let signed = try #require(parsed[earliest]["signedDate"] as? Int64)
        let args = ["reconcile"] + v1.flatMap { ["--v1", $0] } + ["--v2", migrated]

        let whole = try BinaryRun.run(args + ["--out", tmp.path + "/whole"])
        #expect(
            try read(tmp.path + "/whole/differences.csv").contains("conflicting_duplicate_v2,"),
            "in the period it is reported: \(whole.stderr)")
        let from = Timestamp.day(ms: signed + 2 * Timestamp.millisecondsPerDay)
        let later = try BinaryRun.run(args + ["--out", tmp.path + "/later", "--from", from])
        #expect(
            !(try read(tmp.path + "/later/differences.csv")).contains("conflicting_duplicate_v2"),
            "outside --from it is not: \(later.stderr)")
        #expect(try ReportFiles.summary(tmp.path + "/later")["conflicting_duplicate_v2"] == "0")
    }

    @Test func summaryJSONKeepsVersionNamesInRejectCauses() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let json = tmp.path + "/summary.json"
        _ = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
            tmp.path + "/r", "--summary-json", json
        ])
        let text = try read(json)
        #expect(!text.contains("V#"), "V1 is a name, not a number")
        #expect(text.contains("each record must be one V1 notification body"))
    }

    @Test func apiViewConsoleHasNoZeroNotificationBlockAndCountsAPIRecordsRead() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try ReconcileAPIViewEndToEndTests.writeScenario(tmp)
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", report, "--max-reject-rate", "20%"])
        #expect(!run.stderr.contains("matched 0, type_mismatch 0"), "no all-zero notification block: \(run.stderr)")
        #expect(run.stderr.contains("no V2 notifications, so notifications were not compared"))
        let s = try ReportFiles.summary(report)
        let apiRecords = (Int(s["v2_transactions_read"] ?? "") ?? -1) + (Int(s["statuses_read"] ?? "") ?? -1)
        let rejected = Int(s["v2_rejected"] ?? "") ?? -1
        #expect(
            apiRecords > 0 && rejected > 0 && s["v2_records_read"] == String(apiRecords + rejected),
            "v2_records_read counts the API records read: \(s)")
    }

    @Test func theReadmesFirstCommandEndsWithZeroOrOneAndSaysWhereTheReportIs() throws {
        let readme = try read(PackagePaths.root.path + "/README.md")
        let line = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("swift run asn-migrate reconcile ") })
        var words = line.split(separator: " ").map(String.init).dropFirst(3).map { $0 }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let out = try #require(words.firstIndex(of: "--out"))
        words[out + 1] = tmp.path + "/report"
        let run = try BinaryRun.run(words)
        #expect(run.status == 0 || run.status == 1, "the first command a newcomer runs: \(run.stderr)")
        #expect(
            run.stderr.contains("report: \(tmp.path)/report (open \(tmp.path)/report/report.html first)"),
            "\(run.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: tmp.path + "/report/report.html"),
            "the first command gives the page to open")
        #expect(run.stderr.split(separator: "\n").count <= 25, "one screen")
    }
}
