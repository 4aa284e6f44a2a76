import Foundation
import Testing

@testable import ASNMigrateKit

/// What a night says and keeps about itself, through the built binary: files left for a later night and then read by
/// a re-run, the order of the file-age hint and a stale side, a NUL in a V1 value, a run stopped after its commit.
@Suite(.serialized) struct NightlyLogTests {
    /// A workspace of freshly written simulated files, whose runs keep the default `--min-file-age`.
    static func freshFiles(maxLag: String) throws -> (NightlyWorkspace, SimulatedLines) {
        let data = try SimulatedLines(NightlyArrivalEndToEndTests.simulation)
        var w = try NightlyWorkspace()
        w.timelessFlags = ["--max-lag", maxLag]
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        return (w, data)
    }

    @Test func aReRunThatReadsTheFilesAnEarlierRunLeftNoLongerReportsThemWaiting() throws {
        let (w, _) = try Self.freshFiles(maxLag: "36500d")
        defer { w.remove() }
        let first = try w.run("2021-03-01")
        #expect(first.stderr.contains("2 file(s) wait for a later night"), "\(first.stderr)")
        #expect(try w.summary("2021-03-01")["files_deferred"] == "2")
        let again = try w.run("2021-03-01", ["--min-file-age", "0"])
        #expect([0, 1].contains(again.status), "\(again.stderr)")
        #expect(try w.summary("2021-03-01")["files_ingested"] == "2")
        #expect(!again.stderr.contains("still being written"), "nothing waits any more: \(again.stderr)")
        #expect(!again.stderr.contains("wait for a later night"), "\(again.stderr)")
        #expect(try w.summary("2021-03-01")["files_deferred"] == "0", "the date's last run's, not a sum")
    }

    @Test func theMinFileAgeHintComesBeforeAStaleSide() throws {
        let (w, _) = try Self.freshFiles(maxLag: "1d")
        defer { w.remove() }
        let run = try w.run("2021-03-01")
        #expect(run.status == 3, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        let hint = try #require(lines.firstIndex { $0.contains("--min-file-age 0") }, "\(run.stderr)")
        let stale = try #require(lines.firstIndex { $0.contains("stale:") }, "\(run.stderr)")
        #expect(hint < stale, "\(run.stderr)")
        #expect(lines[hint].contains("the stale line below"), "\(lines[hint])")
    }

    @Test func aNULInAV1ValueIsEscapedInEveryReport() throws {
        let data = try SimulatedLines(NightlyArrivalEndToEndTests.simulation)
        let w = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        defer { w.remove() }
        var v1 = data.v1.map(\.text)
        let index = try #require(v1.firstIndex { $0.contains(#""product_id":"com.example"#) })
        v1[index] = v1[index].replacingOccurrences(
            of: #""product_id":"com.example"#, with: #""product_id":"com.\u0000example"#)
        try w.arrive("v1/a.jsonl", v1)
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let run = try w.run("2021-03-01")
        #expect([1, 3].contains(run.status), "\(run.stderr)")
        var escaped = false
        for name in NightlyReport.fileNames where name.hasSuffix(".csv") {
            let bytes = try w.tmp.read("Reports/2021-03-01/" + name)
            #expect(!bytes.contains(0), "\(name) holds a raw NUL")
            if String(decoding: bytes, as: UTF8.self).contains("com.\\u0000example") { escaped = true }
        }
        #expect(escaped, "the value is in a report, its NUL written \\u0000")
    }

    @Test func aRunStoppedAfterItsCommitGetsItsStatusOnTheNextRun() throws {
        let data = try SimulatedLines(NightlyArrivalEndToEndTests.simulation)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        #expect(try NightlyKill.killAt("committed", w.arguments("2021-03-01")))
        #expect(try w.query("SELECT COUNT(*) FROM runs WHERE exit_status IS NULL") == "1", "killed after its commit")
        let again = try w.run("2021-03-01")
        #expect(again.stderr.contains("was stopped after its commit: its status is recorded as"), "\(again.stderr)")
        #expect(try w.query("SELECT COUNT(*) FROM runs WHERE exit_status IS NULL") == "0")
        #expect(
            try w.query("SELECT COUNT(DISTINCT exit_status) FROM runs") == "1",
            "the stopped run's status is the one its date's reports call for: \(again.status)")
    }
}
