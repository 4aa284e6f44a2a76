import Foundation
import Testing

@testable import ASNMigrateKit

/// Through the built binary: nightly gives the same answer however and whenever the files arrive —
/// another spelling of a path, a rename, a copy, a file that grows, a file still being written.
@Suite(.serialized) struct NightlyArrivalEndToEndTests {
    /// Six simulated subscribers over a month: small and deterministic.
    static let simulation = ["--subscribers", "6", "--seed", "2", "--months", "1"]

    private func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    /// The figures of a night that read nothing new.
    private func expectNothingRead(
        _ s: [String: String], _ note: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for key in [
            "files_ingested", "v1_records_read", "v2_records_read", "v1_records_stored", "v2_records_stored",
            "differences_new"
        ] {
            #expect(s[key] == "0", "\(note): \(key) = \(s[key] ?? "nil")", sourceLocation: sourceLocation)
        }
    }

    @Test func relativeAbsoluteAndSymlinkedSpellingsAreOneFile() throws {
        let data = try SimulatedLines(Self.simulation)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        try FileManager.default.createSymbolicLink(
            atPath: w.tmp.path + "/link", withDestinationPath: w.tmp.path + "/in")
        let fixed = ["--state", w.state, "--reports", w.reports] + NightlyWorkspace.timeless
        // Night 1: relative roots, from the workspace folder (one crontab).
        let relative = try BinaryRun.run(
            ["nightly", "--v1", "in/v1", "--v2", "./in/v2", "--run-date", "2021-03-01"] + fixed,
            in: URL(fileURLWithPath: w.tmp.path))
        #expect([0, 1].contains(relative.status), "\(relative.stderr)")
        let first = try w.summary("2021-03-01")
        #expect(first["files_ingested"] == "2")
        // Night 2: absolute roots (another crontab); night 3: through a symlinked folder and a `..`.
        let absolute = try w.run("2021-03-02")
        #expect(absolute.status == 0, "\(absolute.stderr)")
        expectNothingRead(try w.summary("2021-03-02"), "absolute spelling")
        let linked = try BinaryRun.run(
            [
                "nightly", "--v1", w.tmp.path + "/link/v1", "--v2", w.tmp.path + "/link/v1/../v2", "--run-date",
                "2021-03-03"
            ] + fixed)
        #expect(linked.status == 0, "\(linked.stderr)")
        let third = try w.summary("2021-03-03")
        expectNothingRead(third, "symlinked spelling")
        #expect(third["files_vanished"] == "0" && third["files_renamed"] == "0", "the same real path: \(third)")
        #expect(
            third["differences_open"] == first["differences_open"]
                && third["v2_records_in_state"] == first["v2_records_in_state"])
        #expect(try w.rows("2021-03-03", "open.csv").allSatisfy { !$0[0].hasPrefix("conflicting_duplicate") })
        #expect(try w.query("SELECT COUNT(*) FROM files") == "2")
        #expect(try w.query("SELECT COUNT(*) FROM conflicts") == "0")

        // A state whose ledger holds a spelled path (as states written before file identity do): the same content is
        // found under its real path and the entry moves there, nothing read.
        let db = try SQLiteDatabase(path: w.state, create: false)
        try db.execute("UPDATE files SET path = 'in/v2/a.jsonl' WHERE side = 'v2'")
        db.close()
        let old = try w.run("2021-03-04")
        #expect(old.status == 0, "\(old.stderr)")
        let fourth = try w.summary("2021-03-04")
        expectNothingRead(fourth, "an old ledger spelling")
        #expect(fourth["files_renamed"] == "1" && fourth["files_vanished"] == "0", "\(fourth)")
    }

    @Test func aRenamedOrCopiedFileIsNotReadAgain() throws {
        let data = try SimulatedLines(Self.simulation)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        _ = try w.run("2021-03-01")
        let before = try w.summary("2021-03-01")
        try w.tmp.makeDirectory("in/v2/archive")
        try FileManager.default.moveItem(atPath: w.v2 + "/a.jsonl", toPath: w.v2 + "/archive/2021-01.jsonl")
        try FileManager.default.copyItem(atPath: w.v1 + "/a.jsonl", toPath: w.v1 + "/a-copy.jsonl")
        let run = try w.run("2021-03-02")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("renamed or moved") && run.stderr.contains("same content"), "\(run.stderr)")
        let after = try w.summary("2021-03-02")
        expectNothingRead(after, "a rename and a copy")
        #expect(
            after["files_renamed"] == "1" && after["files_same_content"] == "1" && after["files_vanished"] == "0",
            "\(after)")
        #expect(
            after["v1_duplicates"] == "0" && after["v2_duplicates"] == "0",
            "nothing read, so nothing counted as a duplicate either")
        #expect(
            after["v2_records_in_state"] == before["v2_records_in_state"]
                && after["differences_open"] == before["differences_open"])
    }

    @Test func anAppendedFileGivesOnlyItsNewLinesAndAChangedOneIsReported() throws {
        let data = try SimulatedLines(Self.simulation)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        let half = data.v2.count / 2
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.prefix(half).map(\.text))
        _ = try w.run("2021-03-01")
        #expect(try w.summary("2021-03-01")["v2_records_stored"] == String(half))

        // The exporter appends the rest, and a broken line.
        let rest = data.v2.dropFirst(half).map(\.text)
        try w.append("v2/a.jsonl", lines(rest + ["42"]))
        let metrics = w.tmp.path + "/asn.prom"
        let grown = try w.run("2021-03-02", ["--metrics-file", metrics, "--max-reject-rate", "100%"])
        #expect(grown.status == 1, "a reject: exit 1. \(grown.stderr)")
        let s = try w.summary("2021-03-02")
        #expect(
            s["files_appended"] == "1" && s["v2_records_read"] == String(rest.count + 1),
            "only the new lines are read: \(s)")
        #expect(!grown.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        #expect(
            s["v2_records_stored"] == String(rest.count) && s["v2_duplicates"] == "0" && s["records_replaced"] == "0",
            "\(s)")
        #expect(s["v2_records_in_state"] == String(data.v2.count))
        let real = try #require(FileIdentity.realPath(w.v2 + "/a.jsonl"))
        let rejected = try w.rows("2021-03-02", "rejected.csv")
        #expect(
            rejected.map { Array($0.prefix(3)) } == [["v2", real, String(data.v2.count + 1)]],
            "source,line as reconcile writes them, counted in the whole file: \(rejected)")
        #expect(try w.query("SELECT file_path FROM records WHERE side = 'v2' ORDER BY id DESC LIMIT 1") == real)
        let newest = try #require(
            try w.query(
                "SELECT environment || ' ' || original_transaction_id FROM records WHERE side = 'v2' ORDER BY id DESC LIMIT 1"
            )
        ).split(separator: " ").map(String.init)
        let store = try NightlyStore(path: w.state)
        let stored = try store.facts.records(
            of: SubscriptionKey(environment: newest[0], originalTransactionId: newest[1])
        )
        .last
        #expect(
            stored?.facts.location == SourceLocation(path: real, line: data.v2.count),
            "the appended record keeps its line in the whole file")
        #expect(try w.metric("asn.prom", "asn_migrate_nightly_run_files{kind=\"appended\"}") == "1")
        #expect(try w.query("SELECT rejects FROM files WHERE side = 'v2'") == "1")

        // The file is rewritten with its first line gone: a warning, a summary row, a metric; nothing counted twice.
        try w.arrive("v2/a.jsonl", data.v2.dropFirst().map(\.text))
        let changed = try w.run("2021-03-03", ["--metrics-file", metrics])
        #expect(
            changed.stderr.contains("warning: ") && changed.stderr.contains("changed in the part already read"),
            "\(changed.stderr)")
        let c = try w.summary("2021-03-03")
        #expect(c["files_changed"] == "1" && c["records_replaced"] == String(data.v2.count), "\(c)")
        #expect(c["v2_records_in_state"] == String(data.v2.count - 1), "each record once: \(c)")
        #expect(
            try w.query("SELECT COUNT(*) FROM records WHERE side = 'v2'") == String(data.v2.count - 1),
            "the kept count is the state's")
        #expect(try w.metric("asn.prom", "asn_migrate_nightly_run_files{kind=\"changed\"}") == "1")
        #expect(try w.rows("2021-03-03", "rejected.csv").isEmpty, "the appended night's reject belongs to that night")
    }

    @Test func filesStillBeingWrittenWaitForALaterNight() throws {
        let data = try SimulatedLines(Self.simulation)
        var w = try NightlyWorkspace()
        defer { w.remove() }
        w.timelessFlags = ["--max-lag", "36500d", "--min-file-age", "10m"]
        let split = data.v2.count - 4
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.prefix(split).map(\.text))
        try w.arrive("v2/b.jsonl", [data.v2[split].text])
        try w.arrive("v2/c.jsonl.part", [data.v2[split + 1].text])
        for name in ["v1/a.jsonl", "v2/a.jsonl", "v2/c.jsonl.part"] { try w.age(name, secondsAgo: 3600) }
        try w.age("v2/b.jsonl", secondsAgo: 60)

        // Night 1: b is a minute old, c has a temporary name: both wait.
        let night1 = try w.run("2021-03-01")
        #expect([0, 1].contains(night1.status), "\(night1.stderr)")
        let s1 = try w.summary("2021-03-01")
        #expect(s1["files_deferred"] == "2" && s1["v2_records_stored"] == String(split), "\(s1)")
        #expect(night1.stderr.contains("left for a later night"), "\(night1.stderr)")

        // Night 2: b is old now, c renamed into place; a grows by a line and half a line, just now.
        try w.age("v2/b.jsonl", secondsAgo: 3600)
        try FileManager.default.moveItem(atPath: w.v2 + "/c.jsonl.part", toPath: w.v2 + "/c.jsonl")
        let partial = data.v2[split + 3].text
        let cut = partial.index(partial.startIndex, offsetBy: partial.count / 2)
        try w.append("v2/a.jsonl", data.v2[split + 2].text + "\n" + partial[..<cut])
        let night2 = try w.run("2021-03-02")
        #expect([0, 1].contains(night2.status), "\(night2.stderr)")
        let s2 = try w.summary("2021-03-02")
        #expect(s2["files_deferred"] == "0" && s2["lines_deferred"] == "1" && s2["files_appended"] == "1", "\(s2)")
        #expect(
            s2["v2_records_read"] == "3" && s2["v2_rejected"] == "0",
            "b, c and a's complete new line; never half a line: \(s2)")

        // Night 3: the line is finished.
        try w.append("v2/a.jsonl", String(partial[cut...]) + "\n")
        try w.age("v2/a.jsonl", secondsAgo: 3600)
        let night3 = try w.run("2021-03-03")
        #expect([0, 1].contains(night3.status), "\(night3.stderr)")
        let s3 = try w.summary("2021-03-03")
        #expect(s3["v2_records_read"] == "1" && s3["v2_records_stored"] == "1" && s3["lines_deferred"] == "0", "\(s3)")
        #expect(s3["v2_records_in_state"] == String(data.v2.count))
    }

    @Test func anOldFileWhoseLastLineHasNoNewlineIsReadWhole() throws {
        let data = try SimulatedLines(Self.simulation)
        var w = try NightlyWorkspace()
        defer { w.remove() }
        w.timelessFlags = ["--max-lag", "36500d", "--min-file-age", "10m"]
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.tmp.write("in/v2/a.jsonl", data.v2.map(\.text).joined(separator: "\n"))
        for name in ["v1/a.jsonl", "v2/a.jsonl"] { try w.age(name, secondsAgo: 3600) }
        let run = try w.run("2021-03-01")
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        let s = try w.summary("2021-03-01")
        #expect(
            s["v2_records_stored"] == String(data.v2.count) && s["lines_deferred"] == "0", "the writer is done: \(s)")
    }

    @Test func anEmptyFileThatFillsLaterIsReadAsNewNotAsAChange() throws {
        let data = try SimulatedLines(Self.simulation)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        let half = data.v2.count / 2
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.prefix(half).map(\.text))
        _ = try w.tmp.write("in/v2/b.jsonl", "")
        _ = try w.tmp.write("in/v2/c.jsonl", "")
        _ = try w.run("2021-03-01")
        #expect(
            try w.summary("2021-03-01")["files_same_content"] == "0", "two empty files are not copies of each other")
        try w.arrive("v2/b.jsonl", data.v2.dropFirst(half).map(\.text))
        let run = try w.run("2021-03-02")
        #expect(!run.stderr.contains("warning:"), "\(run.stderr)")
        let s = try w.summary("2021-03-02")
        #expect(
            s["files_changed"] == "0" && s["files_ingested"] == "1"
                && s["v2_records_read"] == String(data.v2.count - half), "\(s)")
    }
}
