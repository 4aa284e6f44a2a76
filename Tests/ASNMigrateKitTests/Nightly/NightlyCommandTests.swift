import Foundation
import Testing

@testable import ASNMigrateKit

/// The `nightly` command's contract as cron sees it: config file, exit codes, rejects, vanished files, metrics,
/// retention, and the state queried with the real `sqlite3` shell.
@Suite(.serialized) struct NightlyCommandTests {
    private func workspace() throws -> NightlyWorkspace {
        let data = try SimulatedLines(["--subscribers", "6", "--seed", "2", "--months", "1"])
        let w = try NightlyWorkspace()
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        return w
    }

    @Test func configFileWithRelativePathsRunsFromAnyDirectory() throws {
        let w = try workspace()
        defer { w.remove() }
        try w.tmp.write(
            "conf/nightly.conf",
            """
            # paths are relative to this file's folder
            v1 = ../in/v1
            v2 = ../in/v2
            state = ../state/state.sqlite
            reports = ../Reports
            settle = 72h
            run-date = 2021-03-01
            max-lag = 36500d
            min-file-age = 0
            """)
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let run = try BinaryRun.run(
            ["nightly", "--config", w.tmp.path + "/conf/nightly.conf"], in: URL(fileURLWithPath: elsewhere.path))
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: w.reports + "/2021-03-01/open.csv"))
        #expect(FileManager.default.fileExists(atPath: w.state))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty,
            "nothing written in the working directory")
        for line in run.stderr.split(separator: "\n") {
            #expect(
                line.hasPrefix("20") && line.contains("Z asn-migrate nightly: "),
                "one UTC-stamped line per step: \(line)")
        }
    }

    @Test func usageErrorsExit64() throws {
        let w = try workspace()
        defer { w.remove() }
        try w.tmp.write("bad.conf", "v1 = in/v1\nhorizon = forever\n")
        let bad = try BinaryRun.run(["nightly", "--config", w.tmp.path + "/bad.conf"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("bad.conf' line 2: key 'horizon'"), "\(bad.stderr)")
        #expect(try BinaryRun.run(["nightly", "--window", "soon", "--v1", w.v1]).status == 64)
        #expect(try w.run("2021-03-02").status != 64)
        let back = try w.run("2021-03-01")
        #expect(back.status == 64, "run dates must not go back: \(back.stderr)")
    }

    @Test func aNewerStateIsRefusedWithExit2() throws {
        let w = try workspace()
        defer { w.remove() }
        _ = try w.run("2021-03-01")
        let db = try SQLiteDatabase(path: w.state, create: false)
        try db.execute("PRAGMA user_version = 99")
        db.close()
        let run = try w.run("2021-03-02")
        #expect(run.status == 2)
        #expect(run.stderr.contains("schema version 99") && run.stderr.contains("supports up to"), "\(run.stderr)")
    }

    @Test func aBrokenFileIsRejectedOnceAndNotReadAgain() throws {
        let w = try workspace()
        defer { w.remove() }
        try w.arrive("v1/broken.jsonl", ["42", "\"not an object\""])
        let first = try w.run("2021-03-01", ["--max-reject-rate", "100%"])
        #expect(first.status == 1, "rejects: exit 1. \(first.stderr)")
        #expect(try w.rows("2021-03-01", "rejected.csv").count == 2)
        let second = try w.run("2021-03-02")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try w.rows("2021-03-02", "rejected.csv").isEmpty)
        #expect(try w.summary("2021-03-02")["v1_records_read"] == "0", "an unchanged broken file is not read again")
        // A sanity check: more than 1% of V1 records rejected is exit 3.
        try w.arrive("v1/broken2.jsonl", ["{", "}"])
        let third = try w.run("2021-03-03")
        #expect(third.status == 3, "\(third.stderr)")
        #expect(third.stderr.contains("sanity check failed"))
    }

    @Test func aVanishedFileIsNotedAndItsRecordsKept() throws {
        let w = try workspace()
        defer { w.remove() }
        _ = try w.run("2021-03-01")
        let before = try w.summary("2021-03-01")
        try FileManager.default.removeItem(atPath: w.v2 + "/a.jsonl")
        let run = try w.run("2021-03-02")
        #expect(run.stderr.contains("no longer under the v2 roots"), "\(run.stderr)")
        let after = try w.summary("2021-03-02")
        #expect(after["files_vanished"] == "1")
        #expect(after["v2_records_in_state"] == before["v2_records_in_state"], "records are kept")
        #expect(after["differences_new"] == "0")
    }

    @Test func metricsFileAndRetention() throws {
        let w = try workspace()
        defer { w.remove() }
        let metrics = w.tmp.path + "/metrics/asn.prom"
        try w.tmp.makeDirectory("Reports/2020-01-01")
        try w.tmp.makeDirectory("Reports/notes")
        for date in ["2021-03-01", "2021-03-02", "2021-03-20"] {
            let run = try w.run(date, ["--metrics-file", metrics, "--retention-days", "7"])
            #expect([0, 1].contains(run.status), "\(run.stderr)")
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: w.reports))
        #expect(names.contains("2021-03-20"))
        #expect(
            !names.contains("2021-03-01") && !names.contains("2021-03-02"),
            "folders older than the retention are removed: \(names)")
        #expect(names.contains("2020-01-01") && names.contains("notes"), "folders the tool did not make are kept")
        let text = String(decoding: try w.tmp.read("metrics/asn.prom"), as: UTF8.self)
        let open = try w.summary("2021-03-20")["differences_open"] ?? "?"
        #expect(text.contains("asn_migrate_nightly_backlog{kind=\"open\"} \(open)\n"), "\(text)")
        #expect(
            text.contains(
                "# TYPE asn_migrate_nightly_last_run_exit_code gauge\nasn_migrate_nightly_last_run_exit_code "))
        #expect(text.contains("asn_migrate_nightly_run_duration_seconds "))
        #expect(text.contains("asn_migrate_nightly_last_success_timestamp_seconds "))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(
                line.hasPrefix("asn_migrate_nightly_") && Double(line.split(separator: " ").last ?? "") != nil,
                "a sample line: \(line)")
        }
    }

    @Test(.enabled(if: MachineTools.sqlite3Shell, "needs the sqlite3 shell"))
    func theStateAnswersTheReadmesQueriesInTheSqlite3Shell() throws {
        let shell = "/usr/bin/sqlite3"
        let data = try SimulatedLines(["--subscribers", "10", "--seed", "4", "--months", "1", "--inject", "0.2"])
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        _ = try w.run("2021-03-01", ["--max-reject-rate", "100%"])
        let open = try w.rows("2021-03-01", "open.csv").count
        #expect(open > 0)
        func query(_ sql: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = ["-readonly", w.state, sql]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try query("SELECT COUNT(*) FROM differences WHERE resolved IS NULL") == String(open))
        #expect(try query("PRAGMA user_version") == String(StateSchema.currentVersion))
        #expect(try query("SELECT COUNT(*) FROM files WHERE side = 'v1'") == "1")
        #expect(try query("SELECT run_date, exit_status FROM runs") == "2021-03-01|1")
        let kinds = try query(
            "SELECT kind, COUNT(*) FROM differences WHERE resolved IS NULL GROUP BY kind ORDER BY kind")
        #expect(!kinds.isEmpty)
    }

    @Test func settledSubscriptionsBeyondTheHorizonAreForgottenButTheirRetriesStayDuplicates() throws {
        let data = try SimulatedLines(["--subscribers", "6", "--seed", "2", "--months", "1"])
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        _ = try w.run("2021-03-01")
        let before = try w.summary("2021-03-01")
        #expect(before["records_pruned"] == "0", "without a horizon (the default) nothing is forgotten")
        _ = try w.run("2021-09-01", ["--horizon", "30d"])
        let after = try w.summary("2021-09-01")
        let pruned = Int(after["records_pruned"] ?? "") ?? 0
        #expect(pruned > 0, "\(after)")
        let inState = { (s: [String: String]) in
            (Int(s["v1_records_in_state"] ?? "") ?? 0) + (Int(s["v2_records_in_state"] ?? "") ?? 0)
        }
        #expect(inState(after) == inState(before) - pruned)
        #expect(
            after["period_start"] == before["period_start"] && after["period_end"] == before["period_end"],
            "the period survives pruning")
        #expect(after["differences_open"] == before["differences_open"] && after["differences_resolved"] == "0")
        // A very late V1 retry of a forgotten record is still a duplicate.
        try w.arrive("v1/retry.jsonl", [data.v1[0].text])
        let retry = try w.run("2021-09-02", ["--horizon", "30d"])
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(try w.summary("2021-09-02")["v1_duplicates"] == "1")
    }

    @Test func theEnvironmentFilterCountsWhatItLeavesOut() throws {
        let w = try workspace()
        defer { w.remove() }
        let run = try w.run("2021-03-01", ["--environment", "Sandbox"])
        #expect(run.status == 0, "\(run.stderr)")
        let s = try w.summary("2021-03-01")
        for side in ["v1", "v2"] {
            #expect(Int(s["\(side)_other_environment"] ?? "") ?? 0 > 0, "the simulated data is mostly Production: \(s)")
            #expect(s["\(side)_records_in_state"] == s["\(side)_records_stored"])
        }
        let db = try SQLiteDatabase(path: w.state, create: false)
        defer { db.close() }
        let others = try db.prepare("SELECT COUNT(*) FROM records WHERE environment != 'Sandbox'")
        #expect(try others.step())
        #expect(others.int64(0) == 0, "only Sandbox records are stored")
    }
}
