import Foundation
import Testing

@testable import ASNMigrateKit

/// Reports as a data team loads them: summary rows and `--summary-json`, one rejects format, `stdin` in sources, and
/// `Reports/schema.sql` loading the sample's reports into SQLite (and PostgreSQL when a server can start) with every
/// digit of IDs above 2^53 and 2^64 kept and empty dates loaded as NULL.
@Suite struct ReportLoadingEndToEndTests {
    static let sqlitePresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    /// `summary.csv` as (metric, value) rows in file order.
    private func summaryRows(_ path: String) throws -> [(String, String)] {
        try CSVReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path).records
            .map { ($0.fields[0], $0.fields[1]) }
    }

    private func jsonObject(_ path: String) throws -> JSONObject {
        try #require(
            try JSONParser().parse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
                .objectValue)
    }

    /// Reconciles the whole sample (with its rejects) into `directory/r`, run date fixed.
    private func reconcileSample(_ tmp: TemporaryDirectory, extra: [String] = []) throws -> BinaryRun {
        try BinaryRun.run(
            [
                "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
                tmp.path + "/r",
                "--run-date", "2021-06-01"
            ] + extra)
    }

    // MARK: - Summary

    @Test func summaryCSVEndsWithRunFactsAndRejectsByCauseAndTheJSONCarriesTheSameFigures() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try reconcileSample(tmp, extra: ["--summary-json", tmp.path + "/summary.json"])
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        let rows = try summaryRows(tmp.path + "/r/summary.csv")
        let names = rows.map(\.0)
        // Existing rows first and unchanged in order; the new ones appended.
        #expect(Array(names.prefix(3)) == ["v1_records_read", "v1_rejected", "v1_duplicates"])
        let windowAt = try #require(names.firstIndex(of: "window_ms"))
        #expect(
            Array(names[(windowAt + 1)...(windowAt + 6)]) == [
                "time_tolerance_ms", "time_precision_rows", "run_date", "tool_version", "v1_input", "v2_input"
            ])
        let value = { (name: String) in rows.first { $0.0 == name }?.1 }
        #expect(value("run_date") == "2021-06-01")
        #expect(value("tool_version") == BuildInfo.versionNumber)
        #expect(value("v1_input") == "Tests/Fixtures/sample/v1" && value("v2_input") == "Tests/Fixtures/sample/v2")

        // One rejects_by_cause row per distinct cause, counts adding up to the rejects.
        let causes = rows.filter { $0.0 == "rejects_by_cause" }.map(\.1)
        #expect(causes.count == 7, "the sample has one V1 reject per cause: \(causes)")
        #expect(
            causes.allSatisfy {
                $0.hasPrefix("v1 ")
                    && $0.contains(" rejected, first at Tests/Fixtures/sample/v1/06-rejects-and-unmapped.jsonl:")
            })
        #expect(
            causes.contains {
                $0.contains(
                    "wrong_field_type: 'notification_type' should be a non-empty string but is the number 7: 1 rejected, first at Tests/Fixtures/sample/v1/06-rejects-and-unmapped.jsonl:2; fix or remove the field in the archive"
                )
            })
        #expect(run.stderr.contains("rejects by cause (7 distinct):"), "\(run.stderr)")
        for cause in causes { #expect(run.stderr.contains("    " + cause)) }

        // The JSON: the same figures, counts as numbers, dates and paths as strings.
        let json = try jsonObject(tmp.path + "/summary.json")
        for (name, text) in rows where name != "rejects_by_cause" && !SummaryJSON.listMetrics.contains(name) {
            switch json[name] {
            case .number(let n)?: #expect(n == text && Int(text) != nil, "\(name)")
            case .string(let s)?: #expect(s == text && Int(text) == nil, "\(name)")
            default: Issue.record("\(name) missing or of another type in the JSON")
            }
        }
        #expect(json["matched"] == .number("32"))
        #expect(json["period_start"] == .string("2019-08-01T12:00:00.000Z"))
        #expect(json["run_date"] == .string("2021-06-01"))
        #expect(json["v1_input"] == .array([.string("Tests/Fixtures/sample/v1")]))
        let jsonCauses = try #require(json["rejects_by_cause"]?.arrayValue)
        #expect(
            jsonCauses.compactMap { $0.objectValue?["count"] }.compactMap {
                if case .number(let n) = $0 { Int(n) } else { nil }
            }.reduce(0, +) == 7)
        #expect(jsonCauses.compactMap { $0.objectValue?["line"]?.stringValue } == causes)
        #expect(json["differences_by_kind"]?.objectValue?["missing_in_v1"] == .number("1"))
    }

    @Test func theSummaryJSONIsByteIdenticalAcrossRunsAndNeverSharesAnOutput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try reconcileSample(tmp, extra: ["--summary-json", tmp.path + "/a.json"])
        _ = try reconcileSample(tmp, extra: ["--summary-json", tmp.path + "/b.json"])
        #expect(try tmp.read("a.json") == tmp.read("b.json"))
        #expect(try tmp.read("a.json").last == 0x0A)
        let clash = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1", "--out", tmp.path + "/o.jsonl", "--summary-json",
            tmp.path + "/o.jsonl"
        ])
        #expect(clash.status == ExitStatus.usage.rawValue, "\(clash.stderr)")
        #expect(clash.stderr.contains("--summary-json names the same output as --out or --rejects"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/o.jsonl"))
        // A summary JSON path that names a directory is refused before anything is written (exit 2).
        let blocked = try tmp.makeDirectory("blocked.json")
        let failed = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2",
            "--out", tmp.path + "/never", "--summary-json", blocked
        ])
        #expect(failed.status == ExitStatus.failure.rawValue, "\(failed.stderr)")
        #expect(failed.stderr.contains("no report written"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/never"))
    }

    @Test func migrateWritesItsSummaryJSONAndGroupsRejectsOnTheConsole() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1", "--out", tmp.path + "/out.jsonl", "--summary-json",
            tmp.path + "/s.json",
            "--run-date", "2021-06-01"
        ])
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        let json = try jsonObject(tmp.path + "/s.json")
        #expect(
            json["read"] == .number("43") && json["migrated"] == .number("35") && json["unmapped"] == .number("1")
                && json["rejected"] == .number("7"))
        #expect(json["run_date"] == .string("2021-06-01") && json["tool_version"] == .string(BuildInfo.versionNumber))
        #expect(json["v1_input"] == .array([.string("Tests/Fixtures/sample/v1")]))
        let causes = try #require(json["rejects_by_cause"]?.arrayValue)
        #expect(causes.count == 7)
        #expect(json["unmapped_types"]?.objectValue?["TEST"] == .number("1"))
        #expect(run.stderr.contains("rejects by cause (7 distinct):"), "\(run.stderr)")
        #expect(run.stderr.contains("malformed_json: "))
    }

    // MARK: - Rejects

    @Test func migrateAndReconcileRejectsShareColumnsAndStandardInputIsStdin() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let bad = Array(
            try Data(
                contentsOf: PackagePaths.root.appendingPathComponent(
                    "Tests/Fixtures/sample/v1/06-rejects-and-unmapped.jsonl")))
        let migrate = try BinaryRun.run(
            ["migrate", "-", "--out", tmp.path + "/o.jsonl", "--rejects", tmp.path + "/rejects.csv"], stdin: bad)
        #expect(migrate.status == ExitStatus.findings.rawValue, "\(migrate.stderr)")
        let rejects = String(decoding: try tmp.read("rejects.csv"), as: UTF8.self)
        #expect(rejects.hasPrefix("side,source,line,reason\nv1,stdin,1,unmapped: "), "\(rejects)")
        #expect(rejects.contains("\nv1,stdin,2,wrong_field_type: "))
        #expect(!rejects.contains("'-"), "no formula-guarded '-' source")

        let reconcile = try BinaryRun.run(
            [
                "reconcile", "--v1", "-", "--v2", "Tests/Fixtures/sample/v2", "--out", tmp.path + "/r",
                "--max-reject-rate", "100%"
            ], stdin: bad)
        #expect(reconcile.status == ExitStatus.findings.rawValue, "\(reconcile.stderr)")
        let rejected = String(decoding: try tmp.read("r/rejected.csv"), as: UTF8.self)
        #expect(rejected.hasPrefix("side,source,line,reason\nv1,stdin,2,wrong_field_type: "), "\(rejected)")
        // The same reject renders the same row in both files (migrate also lists unmapped records).
        let migrateRows = Set(rejects.split(separator: "\n").dropFirst().filter { !$0.contains(",unmapped: ") })
        #expect(Set(rejected.split(separator: "\n").dropFirst()) == migrateRows)
        #expect(try summaryRows(tmp.path + "/r/summary.csv").contains { $0 == ("v1_input", "stdin") })
    }

    // MARK: - schema.sql

    @Test func schemaColumnsAreTheReportsColumns() throws {
        let tables = try SchemaFile.tables()
        #expect(tables["differences"] == Discrepancy.columns)
        #expect(tables["pending"] == Discrepancy.columns)
        #expect(tables["summary"] == ["metric", "value"])
        #expect(tables["rejected"] == RejectRow.columns)
        #expect(
            tables["mapping_coverage"] == [
                "v1_notification_type", "v2_notification_type", "v2_subtype", "rule", "count"
            ])
        #expect(tables["subscriptions"] == ReconciliationReport.subscriptionColumns)
        #expect(tables["migrate_csv"] == MigrationOutput.csvColumns(.snake))
    }

    /// Writes the sample's reconcile report and snake-case migrate CSV into `tmp`; the loads below read them.
    private func sampleReports(_ tmp: TemporaryDirectory) throws {
        _ = try reconcileSample(tmp)
        let migrate = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1", "--format", "csv", "--csv-names", "snake",
            "--out", tmp.path + "/r/migrate.csv", "--rejects", tmp.path + "/r/rejects.csv"
        ])
        #expect(migrate.status == ExitStatus.findings.rawValue, "\(migrate.stderr)")
    }

    private static let loads = [
        ("differences.csv", "differences"), ("pending.csv", "pending"), ("summary.csv", "summary"),
        ("rejected.csv", "rejected"), ("rejects.csv", "rejected"), ("mapping-coverage.csv", "mapping_coverage"),
        ("subscriptions.csv", "subscriptions"), ("migrate.csv", "migrate_csv")
    ]

    /// Data rows of a CSV report (records, not lines: a reason may hold a quoted newline).
    private func rowCount(_ path: String) throws -> Int {
        try CSVReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path).records.count
    }

    /// The queries both databases answer the same way on the sample.
    private static let checks: [(sql: String, expected: String)] = [
        (
            "select original_transaction_id from subscriptions where original_transaction_id like '90071992547409%'",
            "9007199254740993"
        ),
        (
            "select count(*) from migrate_csv where data_transaction_info_web_order_line_item_id = '18446744073709551623'",
            "1"
        ),
        ("select count(*) from differences where event_date is null", "1"),
        ("select count(*) from differences where v2_signed_date is null", "4"),
        ("select count(*) from rejected where line is null", "0"),
        ("select product_id from differences where kind = 'missing_in_v1'", "com.example.sampleapp.pro.monthly")
    ]

    @Test(.enabled(if: sqlitePresent, "needs the sqlite3 shell"))
    func sampleReportsLoadIntoSQLiteWithEveryDigitAndNullDates() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try sampleReports(tmp)
        let root = PackagePaths.root.path
        var script = ".bail on\n.read '\(root)/Reports/schema.sql'\n"
        for (file, table) in Self.loads { script += ".import --csv --skip 1 \(file) \(table)\n" }
        script += ".read '\(root)/Reports/sqlite-empty-to-null.sql'\n"
        _ = try tmp.write("load.sqlite", script)
        let load = Shell.run("sqlite3 reports.db < ../load.sqlite", in: tmp.path + "/r")
        #expect(load.status == 0, "\(load.stderr)")
        for table in Set(Self.loads.map(\.1)) {
            let files = Self.loads.filter { $0.1 == table }.map { tmp.path + "/r/" + $0.0 }
            let expected = try files.reduce(0) { $0 + (try rowCount($1)) }
            #expect(try sqlite(tmp, "select count(*) from \(table)") == String(expected), "\(table)")
        }
        for check in Self.checks { #expect(try sqlite(tmp, check.sql) == check.expected, "\(check.sql)") }
        #expect(try sqlite(tmp, "select typeof(original_transaction_id) from subscriptions limit 1") == "text")
    }

    /// The first fenced block of `Reports/README.md` whose first line starts with `prefix`, continuation lines joined.
    private func readmeExample(startingWith prefix: String) throws -> String? {
        let text = String(decoding: try PackagePaths.read("Reports/README.md"), as: UTF8.self)
        var inBlock = false
        var block: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if inBlock, block.first?.hasPrefix(prefix) == true { return block.joined(separator: "\n") }
                inBlock.toggle()
                block = []
            } else if inBlock {
                block.append(line)
            }
        }
        return nil
    }

    /// The sample's report in `tmp/Reports/2021-06-01/`, beside copies of `schema.sql` and `sqlite-empty-to-null.sql`,
    /// as a run from the package root lays it out.
    private func reportsFolder(_ tmp: TemporaryDirectory) throws -> String {
        let folder = tmp.path + "/Reports/2021-06-01"
        let run = try BinaryRun.run([
            "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out", folder,
            "--run-date", "2021-06-01"
        ])
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        for name in ["schema.sql", "sqlite-empty-to-null.sql"] {
            _ = try tmp.write("Reports/" + name, try PackagePaths.read("Reports/" + name))
        }
        return folder
    }

    // The README's SQLite session itself runs in DocsTests (theSQLiteRecipeRunsAsWrittenOnTheSetUpsReport).

    static let pandasPresent = Shell.run("python3 -c 'import pandas' 2>/dev/null", in: "/").status == 0

    @Test(.enabled(if: pandasPresent, "needs python3 with pandas"))
    func theReadmePandasExampleKeepsEveryDigit() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try reportsFolder(tmp)
        let example = try #require(try readmeExample(startingWith: "import pandas as pd"))
        let check =
            example + "\nassert (differences['original_transaction_id'] == '170000812345606').any()\n"
            + "s = pd.read_csv('subscriptions.csv', dtype=str, keep_default_na=False)\nassert (s['original_transaction_id'] == '9007199254740993').any()\n"
        _ = try tmp.write("example.py", check)
        let run = Shell.run("python3 ../../example.py > /dev/null", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
    }

    private func sqlite(_ tmp: TemporaryDirectory, _ sql: String) throws -> String {
        let status = Shell.run("sqlite3 reports.db \"\(sql)\" > answer.txt", in: tmp.path + "/r")
        #expect(status.status == 0, "\(status.stderr)")
        return String(decoding: try tmp.read("r/answer.txt"), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: DatabaseExportRecipeTests.serverBinariesPresent, "needs a PostgreSQL server on the machine"))
    func sampleReportsLoadIntoPostgreSQLWithTheSameSchema() throws {
        let server = try #require(PostgresServer(), "the PostgreSQL server did not start")
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try sampleReports(tmp)
        var script = "\\i '\(PackagePaths.root.path)/Reports/schema.sql'\n"
        for (file, table) in Self.loads { script += "\\copy \(table) from '\(file)' with (format csv, header)\n" }
        _ = try tmp.write("load.psql", script)
        let load = Shell.run("psql \(server.psqlOptions) -q -v ON_ERROR_STOP=1 -f ../load.psql", in: tmp.path + "/r")
        #expect(load.status == 0, "\(load.stderr)")
        for check in Self.checks {
            let run = Shell.run("psql \(server.psqlOptions) -At -c \"\(check.sql)\" > answer.txt", in: tmp.path + "/r")
            #expect(run.status == 0, "\(run.stderr)")
            let answer = String(decoding: try tmp.read("r/answer.txt"), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(answer == check.expected, "\(check.sql)")
        }
    }
}
