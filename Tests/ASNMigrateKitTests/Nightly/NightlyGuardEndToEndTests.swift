import Foundation
import Testing

@testable import ASNMigrateKit

/// Nightly's guards through the built binary: a stalled side, a run date in the future, a state file that is not
/// a state, and a state or reports folder inside an input root.
@Suite(.serialized) struct NightlyGuardEndToEndTests {
    private func workspace() throws -> (NightlyWorkspace, SimulatedLines) {
        let data = try SimulatedLines(["--subscribers", "6", "--seed", "2", "--months", "1"])
        let w = try NightlyWorkspace()
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        return (w, data)
    }

    @Test func aStalledSideExits3WithItsNewestRecordInTheMetrics() throws {
        var (w, data) = try workspace()
        defer { w.remove() }
        w.timelessFlags = ["--min-file-age", "0"]
        // V2 stopped ten days before V1's last record; the night runs the day after V1's last record.
        let v1Last = try #require(data.v1.map(\.time).max())
        let v2Sent = data.v2.filter { $0.time < v1Last - 10 * Timestamp.millisecondsPerDay }
        try w.arrive("v2/a.jsonl", v2Sent.map(\.text))
        let date = Timestamp.day(ms: v1Last + Timestamp.millisecondsPerDay)
        let metrics = w.tmp.path + "/asn.prom"
        let run = try w.run(date, ["--metrics-file", metrics])
        #expect(run.status == 3, "a stale side: exit 3. \(run.stderr)")
        #expect(
            run.stderr.contains("stale: the V2 side is late") && !run.stderr.contains("the V1 side is late"),
            "\(run.stderr)")
        let s = try w.summary(date)
        #expect(
            s["v2_stale"] == "1" && s["v1_stale"] == "0" && s["v2_max_lag_ms"] == "172800000",
            "the default max-lag is 2d: \(s)")
        let v2Newest = try #require(v2Sent.map(\.time).max())
        #expect(
            try w.metric("asn.prom", "asn_migrate_nightly_side_newest_record_timestamp_seconds{side=\"v2\"}")
                == String(v2Newest / 1000))
        #expect(try w.metric("asn.prom", "asn_migrate_nightly_side_stale{side=\"v2\"}") == "1")
        #expect(try w.metric("asn.prom", "asn_migrate_nightly_last_run_exit_code") == "3")
        // A wider lag for V2 alone: fresh again.
        let wider = try w.run(date, ["--max-lag", "v2=30d"])
        #expect([0, 1].contains(wider.status), "\(wider.stderr)")
        #expect(try w.summary(date)["v2_stale"] == "0")
        #expect(try w.run(date, ["--max-lag", "v3=1d"]).status == 64)
    }

    @Test func aRunDateBeyondTomorrowIsRefusedUnlessAllowed() throws {
        let (w, data) = try workspace()
        defer { w.remove() }
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let future = Timestamp.day(ms: now + 3 * Timestamp.millisecondsPerDay)
        let refused = try w.run(future)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("more than a day after the machine's clock")
                && refused.stderr.contains("--allow-future-run-date"), "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix("20") && refused.stderr.contains("Z asn-migrate nightly: "),
            "usage lines carry the UTC stamp too")
        #expect(!FileManager.default.fileExists(atPath: w.state), "nothing written")
        let tomorrow = try w.run(Timestamp.day(ms: now + Timestamp.millisecondsPerDay))
        #expect(
            [0, 1].contains(tomorrow.status), "a time zone ahead of UTC may run tomorrow's night: \(tomorrow.stderr)")
        let allowed = try w.run(future, ["--allow-future-run-date"])
        #expect([0, 1].contains(allowed.status), "\(allowed.stderr)")
    }

    @Test func anEmptyOrForeignStateFileIsRefusedAndTheLastSuccessKept() throws {
        let (w, data) = try workspace()
        defer { w.remove() }
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let metrics = w.tmp.path + "/asn.prom"
        let good = try w.run("2021-03-01", ["--metrics-file", metrics])
        #expect([0, 1].contains(good.status), "\(good.stderr)")
        let lastSuccess = try #require(try w.metric("asn.prom", "asn_migrate_nightly_last_success_timestamp_seconds"))

        // The state file is truncated (a full disk, a bad copy): refused, not taken as a new state.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: w.state + suffix) }
        _ = try w.tmp.write("state/state.sqlite", "")
        let empty = try w.run("2021-03-02", ["--metrics-file", metrics])
        #expect(empty.status == 2, "\(empty.stderr)")
        #expect(empty.stderr.contains("is empty (0 bytes)") && empty.stderr.contains("restore it"), "\(empty.stderr)")
        #expect(try w.tmp.read("state/state.sqlite").isEmpty, "the empty file is left as it was")
        #expect(!FileManager.default.fileExists(atPath: w.reports + "/2021-03-02"))
        #expect(try w.metric("asn.prom", "asn_migrate_nightly_last_run_exit_code") == "2")
        #expect(
            try w.metric("asn.prom", "asn_migrate_nightly_last_success_timestamp_seconds") == lastSuccess,
            "a failed run leaves the last success as it was")

        _ = try w.tmp.write("state/state.sqlite", "v1,v2\nnot a database\n")
        let foreign = try w.run("2021-03-02")
        #expect(foreign.status == 2 && foreign.stderr.contains("is not an SQLite database"), "\(foreign.stderr)")
    }

    @Test func stateOrReportsInsideAnInputRootAreUsageErrors() throws {
        let (w, data) = try workspace()
        defer { w.remove() }
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let base = ["nightly", "--v1", w.v1, "--v2", w.v2, "--run-date", "2021-03-01"] + NightlyWorkspace.timeless
        for (option, path) in [
            ("--state", w.v1 + "/state/state.sqlite"), ("--reports", w.v2 + "/Reports"), ("--reports", w.v2),
            ("--state", w.tmp.path + "/in/v1/../v2/s.sqlite")
        ] {
            let other = option == "--state" ? ["--reports", w.reports] : ["--state", w.state]
            let run = try BinaryRun.run(base + [option, path] + other)
            #expect(run.status == 64, "\(option) \(path): \(run.stderr)")
            // One place (OutputPlan) checks every output against every input, naming both.
            #expect(
                run.stderr.contains("\(option)") && run.stderr.contains("is inside the input folder '\(w.v2)' (--v2)")
                    || run.stderr.contains("is inside the input folder '\(w.v1)' (--v1)"), "names both: \(run.stderr)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: w.v1 + "/state")
                && !FileManager.default.fileExists(atPath: w.v2 + "/Reports"))
        #expect(!FileManager.default.fileExists(atPath: w.state), "nothing written")
    }

    @Test func aNightIsRolledBackByRestoringTheStateBackupMadeBeforeIt() throws {
        let (w, data) = try workspace()
        defer { w.remove() }
        let backups = w.tmp.path + "/backups"
        let half = data.v2.count / 2
        try w.arrive("v2/a.jsonl", data.v2.prefix(half).map(\.text))
        #expect([0, 1].contains(try w.run("2021-03-01", ["--state-backup", backups]).status))
        try w.arrive("v2/b.jsonl", data.v2.dropFirst(half).map(\.text))
        let night2 = try w.run("2021-03-02", ["--state-backup", backups])
        #expect([0, 1].contains(night2.status), "\(night2.stderr)")
        #expect(night2.stderr.contains("copied to \(backups)/before-2021-03-02.sqlite"), "\(night2.stderr)")
        let reports = try w.reportBytes("2021-03-02")
        let state = try w.stateDump()

        // Roll night 2 back: the README's procedure (no run holds the lock): the copy replaces the state and its WAL.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: w.state + suffix) }
        try FileManager.default.copyItem(atPath: backups + "/before-2021-03-02.sqlite", toPath: w.state)
        #expect(try w.query("SELECT MAX(run_date) FROM runs") == "2021-03-01", "the state is as night 1 left it")
        let again = try w.run("2021-03-02", ["--state-backup", backups])
        #expect(again.status == night2.status, "\(again.stderr)")
        #expect(
            try w.reportBytes("2021-03-02") == reports,
            "the night re-run from the restored state gives the same reports")
        #expect(try w.stateDump() == state)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: backups).sorted() == [
                "before-2021-03-01.sqlite", "before-2021-03-02.sqlite"
            ])
    }
}
