import Foundation
import Testing

@testable import ASNMigrateKit

/// Kills a real `asn-migrate nightly` with SIGKILL at named steps; the next run must give the state and reports of a
/// run that was never killed.
@Suite(.serialized) struct NightlyCrashTests {
    private func startPaused(_ step: String, _ arguments: [String]) throws -> Process? {
        try NightlyKill.startPaused(step, arguments)
    }

    private func killAt(_ step: String, _ arguments: [String]) throws -> Bool {
        try NightlyKill.killAt(step, arguments)
    }

    private func reset(_ w: NightlyWorkspace) {
        try? FileManager.default.removeItem(atPath: w.tmp.path + "/state")
        try? FileManager.default.removeItem(atPath: w.reports)
    }

    @Test func killedAtAnyStepTheNextRunGivesTheSameStateAndReports() throws {
        let data = try SimulatedLines(["--subscribers", "10", "--seed", "4", "--months", "1", "--inject", "0.2"])
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let date = "2021-03-01"
        let reference = try w.run(date)
        #expect([1, 3].contains(reference.status), "\(reference.stderr)")
        let referenceReports = try w.reportBytes(date)
        let referenceState = try w.stateDump()
        #expect(!referenceState.isEmpty)

        for step in ["ingested", "settled", "committed", "published"] {
            reset(w)
            #expect(try killAt(step, w.arguments(date)), "killed at \(step)")
            let next = try w.run(date)
            #expect(next.status == reference.status, "after a kill at \(step): \(next.stderr)")
            #expect(try w.reportBytes(date) == referenceReports, "reports after a kill at \(step)")
            #expect(try w.stateDump() == referenceState, "state after a kill at \(step)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: w.reports).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty, "no half-written report folder is left: \(leftovers)")
        }
    }

    @Test func aRunKilledAfterItsCommitIsPublishedByTheNextNight() throws {
        let data = try SimulatedLines(["--subscribers", "10", "--seed", "4", "--months", "1", "--inject", "0.2"])
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        _ = try w.run("2021-03-01")
        let referenceReports = try w.reportBytes("2021-03-01")
        reset(w)
        #expect(try killAt("committed", w.arguments("2021-03-01")))
        #expect(!FileManager.default.fileExists(atPath: w.reports + "/2021-03-01"), "killed before publishing")
        let next = try w.run("2021-03-02")
        #expect([0, 1, 3].contains(next.status), "\(next.stderr)")
        #expect(next.stderr.contains("published the reports of 2021-03-01"))
        #expect(
            try w.reportBytes("2021-03-01") == referenceReports,
            "the stopped night's reports, as it would have written them")
    }

    @Test func aSecondRunExits75NamingTheHolderAndAKilledHolderNeverBlocks() throws {
        let data = try SimulatedLines(["--subscribers", "4", "--seed", "4", "--months", "1"])
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let holder = try #require(try startPaused("ingested", w.arguments("2021-03-01")))
        let second = try w.run("2021-03-01")
        #expect(second.status == 75, "\(second.stderr)")
        #expect(
            second.stderr.contains("process \(holder.processIdentifier)"), "names the holder's pid: \(second.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: w.reports + "/2021-03-01"), "the turned-away run wrote no report")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let third = try w.run("2021-03-01")
        #expect([0, 1].contains(third.status), "a lock left by a killed run does not block: \(third.stderr)")
    }
}
