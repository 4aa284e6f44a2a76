import Foundation
import Testing

@testable import ASNMigrateKit

/// Runs the built binary's `reconcile` as a cron job would: round trip, exit codes, atomic reports, determinism.
@Suite(.serialized) struct ReconcileEndToEndTests {
    /// The sample files in which every record migrates (06 holds the unmapped and rejected ones).
    static let cleanSample = [
        "01-live-feed.jsonl", "02-interactive-and-pref.json", "03-status-off-big-ids.json",
        "04-envelopes.jsonl", "05-archive-2021-q4.jsonl.gz"
    ].map { "Tests/Fixtures/sample/v1/" + $0 }

    private func v1Arguments(_ files: [String]) -> [String] { files.flatMap { ["--v1", $0] } }

    private func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    private func migrateCleanSample(into directory: String) throws -> (path: String, lines: Int) {
        let out = directory + "/migrated.jsonl"
        let run = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--out", out])
        #expect(run.status == 0, "the clean sample migrates without rejects: \(run.stderr)")
        let lines = try read(out).split(separator: "\n").count
        return (out, lines)
    }

    @Test func roundTripOfTheSampleHasZeroDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = try migrateCleanSample(into: tmp.path)
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(
            ["reconcile"] + v1Arguments(Self.cleanSample) + ["--v2", migrated.path, "--out", report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try read(report + "/differences.csv") == Discrepancy.columns.joined(separator: ",") + "\n")
        #expect(try read(report + "/rejected.csv") == "side,source,line,reason\n")
        let m = try ReportFiles.summary(report)
        let matched = Int(m["matched"] ?? "") ?? -1
        let duplicates = Int(m["v1_duplicates"] ?? "") ?? -1
        #expect(matched + duplicates == migrated.lines)
        #expect(duplicates == 1, "the sample holds one retried V1 delivery")
        #expect(m["v2_duplicates"] == "1")
        #expect(run.stderr.contains("0 difference row(s)"))
        for name in ReconciliationReport.fileNames {
            #expect(FileManager.default.fileExists(atPath: report + "/" + name), "\(name) is written")
        }
    }

    @Test func roundTripThroughCSVWithAColumnMapHasZeroDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let csv = tmp.path + "/migrated.csv"
        let migrate = try BinaryRun.run(["migrate"] + Self.cleanSample + ["--format", "csv", "--out", csv])
        #expect(migrate.status == 0)
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(
            ["reconcile"] + v1Arguments(Self.cleanSample)
                + ["--v2", csv, "--v2-columns", "Mappings/v2-columns.migrate-csv.map", "--out", report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try read(report + "/differences.csv") == Discrepancy.columns.joined(separator: ",") + "\n")
        #expect(try ReportFiles.summary(report)["v2_rejected"] == "0")
        #expect(try ReportFiles.summary(report)["matched"] == "34")
    }

    @Test func aCSVWithoutItsColumnMapIsRejectedClearly() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let csv = tmp.path + "/migrated.csv"
        _ = try BinaryRun.run(["migrate", Self.cleanSample[0], "--format", "csv", "--out", csv])
        let run = try BinaryRun.run(["reconcile", "--v1", Self.cleanSample[0], "--v2", csv, "--out", tmp.path + "/r"])
        // A usage error before anything is read, naming the column map that reads migrate's CSV.
        #expect(run.status == ExitStatus.usage.rawValue)
        #expect(run.stderr.contains("--v2-columns Mappings/v2-columns.migrate-csv.map"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/r"))
    }

    @Test func sameInputsAndRunDateGiveByteIdenticalReports() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = try migrateCleanSample(into: tmp.path)
        let args =
            ["reconcile"] + v1Arguments(Self.cleanSample + ["Tests/Fixtures/sample/v1/06-rejects-and-unmapped.jsonl"])
            + ["--v2", migrated.path]
        _ = try BinaryRun.run(args + ["--out", tmp.path + "/a"])
        _ = try BinaryRun.run(args + ["--out", tmp.path + "/b"])
        for name in ReconciliationReport.fileNames {
            #expect(
                try read(tmp.path + "/a/" + name) == (try read(tmp.path + "/b/" + name)), "\(name) differs between runs"
            )
        }
    }

    @Test func differencesAndRejectsExitOneWithGuardedCells() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = try migrateCleanSample(into: tmp.path)
        var lines = try read(migrated.path).split(separator: "\n").map(String.init)
        // Tamper with one V2 record's product and add an unreadable record.
        let target = try #require(lines.firstIndex { $0.contains("\"productId\":\"") && $0.contains("DID_RENEW") })
        let product = try #require(lines[target].range(of: #""productId":"[^"]*""#, options: .regularExpression))
        lines[target].replaceSubrange(product, with: #""productId":"=HYPERLINK(\"http://x\")""#)
        lines.append("{\"signedPayload\":\"not-a-jws\"}")
        let v2 = tmp.path + "/v2.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: v2, atomically: true, encoding: .utf8)
        let report = tmp.path + "/report"
        // One reject in ~36 V2 records is above the default 1% (exit 3); a looser rate leaves exit 1 for the findings.
        let run = try BinaryRun.run(
            ["reconcile"] + v1Arguments(Self.cleanSample) + ["--v2", v2, "--out", report, "--max-reject-rate", "5%"])
        #expect(run.status == 1, "\(run.stderr)")
        let differences = try read(report + "/differences.csv")
        #expect(differences.contains(#",productId,"#))
        #expect(differences.contains(#""'=HYPERLINK(""http://x"")""#), "formula guarded and quoted: \(differences)")
        let rejected = try read(report + "/rejected.csv")
        #expect(rejected.contains("v2,\(v2),\(lines.count),\"malformed_jws"))
        #expect(try ReportFiles.summary(report)["v2_rejected"] == "1")
    }

    @Test func defaultReportFolderIsNamedByTheRunDateAndReplacedWhole() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = try migrateCleanSample(into: tmp.path)
        let sample = Self.cleanSample.map { PackagePaths.root.path + "/" + $0 }
        let folder = tmp.path + "/Reports/2021-03-01"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "stale".write(toFile: folder + "/differences.csv", atomically: true, encoding: .utf8)
        let run = try BinaryRun.run(
            ["reconcile"] + v1Arguments(sample) + ["--v2", migrated.path, "--run-date", "2021-03-01"],
            in: URL(fileURLWithPath: tmp.path))
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ReconciliationReport.fileNames.sorted(), "the old report is replaced whole")
        #expect(try read(folder + "/differences.csv") != "stale")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/Reports").sorted()
        #expect(
            siblings == [".2021-03-01.lock", "2021-03-01"],
            "no temporary folders are left, only the run lock beside the folder: \(siblings)")
    }

    @Test func aFailedRunExitsTwoAndKeepsThePreviousReport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let report = tmp.path + "/report"
        try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
        try "previous".write(toFile: report + "/summary.csv", atomically: true, encoding: .utf8)
        let run = try BinaryRun.run([
            "reconcile", "--v1", Self.cleanSample[0], "--v2", tmp.path + "/does-not-exist", "--out", report
        ])
        #expect(run.status == 2)
        #expect(run.stderr.contains("does-not-exist"))
        #expect(run.stderr.contains("no report written"))
        #expect(try read(report + "/summary.csv") == "previous")
    }

    @Test(arguments: [
        (["--v1", "x"], "missing --v2"),
        (["--v2", "x"], "missing --v1"),
        (["--v1", "x", "--v2", "y", "--window", "soon"], "--window"),
        (["--v1", "x", "--v2", "y", "--ignore-field", "colour"], "unknown field 'colour'"),
        (["--v1", "x", "--v2", "y", "--from", "2021-03-02", "--to", "2021-03-01"], "--from is after --to"),
        (["--v1", "x", "--v2", "y", "--run-date", "yesterday"], "--run-date")
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let run = try BinaryRun.run(["reconcile"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func secretsNeverReachTheReports() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let all = Self.cleanSample + ["Tests/Fixtures/sample/v1/06-rejects-and-unmapped.jsonl"]
        let run = try BinaryRun.run(
            ["reconcile"] + v1Arguments(all) + [
                "--v2", "Tests/Fixtures/sample/expected/migrate.jsonl", "--out", tmp.path + "/r"
            ])
        #expect(
            run.status == ExitStatus.sanityCheckFailed.rawValue,
            "06 rejects 7 of 43 V1 records, above 1%: \(run.stderr)")
        for name in ReconciliationReport.fileNames {
            let text = try read(tmp.path + "/r/" + name)
            #expect(
                !text.contains("sample-shared-secret-do-not-log") && !text.contains("sample-latest-receipt-do-not-log"))
        }
        #expect(!run.stderr.contains("do-not-log"))
    }
}

/// The whole `reconcile` report on the sample data, compared byte for byte with golden files.
@Suite struct ReconcileGoldenTests {
    static let golden = "Tests/Fixtures/sample/expected/reconcile"

    @Test func sampleReportMatchesTheGoldenFiles() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
            tmp.path + "/r",
            "--run-date", "2021-06-01"
        ])
        // The sample's deliberate rejects (7 of 43 V1 records) are above the default --max-reject-rate of 1%.
        #expect(
            run.status == ExitStatus.sanityCheckFailed.rawValue,
            "the sample has deliberate differences and rejects: \(run.stderr)")
        #expect(
            run.stderr.contains(
                "sanity check failed: V1 rejected 7 of 43 records read (16.28%), above --max-reject-rate 1%"),
            "\(run.stderr)")
        let record = ProcessInfo.processInfo.environment["ASN_MIGRATE_RECORD_GOLDEN"] == "1"
        for name in ReconciliationReport.fileNames {
            let produced = try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/r/" + name))
            let goldenURL = PackagePaths.root.appendingPathComponent(Self.golden + "/" + name)
            if record {
                try FileManager.default.createDirectory(
                    at: goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                try produced.write(to: goldenURL)
            }
            #expect(
                produced == (try Data(contentsOf: goldenURL)),
                "\(name) differs from \(Self.golden)/\(name); re-record with ASN_MIGRATE_RECORD_GOLDEN=1 after checking the change"
            )
        }
        #expect(run.stderr.contains("7 difference row(s)"))
    }
}

/// An empty input directory is said, and never passes for a clean run: a job pointed at an empty or unmounted folder
/// exits 3.
@Suite struct EmptyInputTests {
    @Test func emptyDirectoriesWarnAndExitThree() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/empty", withIntermediateDirectories: true)
        let migrate = try BinaryRun.run(["migrate", tmp.path + "/empty"])
        #expect(migrate.status == ExitStatus.sanityCheckFailed.rawValue)
        #expect(migrate.stderr.contains("warning: no input files found"))
        let reconcile = try BinaryRun.run([
            "reconcile", "--v1", tmp.path + "/empty", "--v2", tmp.path + "/empty", "--out", tmp.path + "/r"
        ])
        #expect(reconcile.status == ExitStatus.sanityCheckFailed.rawValue)
        #expect(reconcile.stderr.contains("no input files found under --v1"))
        #expect(reconcile.stderr.contains("no input files found under --v2"))
    }
}
