import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly --shard` when a night judges under other rules (a new `--window`): every shard maps its V1 files again
/// and replaces their records and their other-shard bounds (the earliest record has gone from its file meanwhile), and
/// the merged night is still the unsharded one.
@Suite struct NightlyShardRemapTests {
    @Test func aNightUnderOtherRulesStaysTheUnshardedNight() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = tmp.path + "/sim"
        let made = ASNMigrateCLI.run(
            [
                "simulate", "--subscribers", "12", "--seed", "31", "--months", "3", "--inject", "0.3",
                "--realistic-edges", "--out", sim
            ], console: CapturedConsole().console, commands: ToolCommands.all)
        #expect(made == .success)
        for (night, (date, window)) in [("2021-03-20", "7d"), ("2021-04-20", "3d")].enumerated() {
            if night == 1 {
                // The earliest V1 record is gone too: every shard must forget its time, kept or not.
                let path = sim + "/v1/2021-01.jsonl"
                let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                try (lines.dropFirst().joined(separator: "\n") + "\n").write(
                    toFile: path, atomically: true, encoding: .utf8)
            }
            let runs: [(shard: String?, state: String, reports: String)] =
                [(nil, tmp.path + "/whole.sqlite", tmp.path + "/whole")]
                + (0..<3).map { ("\($0)/3", tmp.path + "/shard-{shard}.sqlite", tmp.path + "/shards") }
            var status: ASNMigrateKit.ExitStatus?
            for run in runs {
                let captured = CapturedConsole()
                let result = ASNMigrateCLI.run(
                    [
                        "nightly", "--v1", sim + "/v1", "--v2", sim + "/v2", "--run-date", date, "--window", window,
                        "--state", run.state, "--reports", run.reports, "--no-html"
                    ] + NightlyWorkspace.timeless + (run.shard.map { ["--shard", $0] } ?? []),
                    console: captured.console)
                if run.shard == nil {
                    status = result
                    if night == 1 {
                        #expect(captured.stderr.contains("mapping the V1 files again"), "\(captured.stderr)")
                    }
                } else {
                    #expect(result == .success, "shard \(run.shard ?? ""): \(captured.stderr)")
                }
            }
            let folders = (0..<3).map { "\(tmp.path)/shards/\(date).shard-\($0)-of-3" }
            let merged = "\(tmp.path)/merged/\(date)"
            let captured = CapturedConsole()
            #expect(ASNMigrateCLI.run(["merge", "--out", merged] + folders, console: captured.console) == status)
            let differing = NightlyWorkspace.differingNightFiles(merged, expected: "\(tmp.path)/whole/\(date)")
            #expect(differing.isEmpty, "night \(night + 1), window \(window): \(differing)")
        }
    }
}
