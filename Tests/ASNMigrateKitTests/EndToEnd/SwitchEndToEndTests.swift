import Foundation
import Testing

@testable import ASNMigrateKit

/// `--switch` through the built binary: its errors, the hint when the sides do not overlap, and the seam figures of a
/// V1 archive cut at a month's end beside V2 notifications from the next month on.
@Suite(.serialized) struct SwitchEndToEndTests {
    /// Simulated data cut at 2021-03-01: V1's files of January and February, V2's of March and April.
    static func cutData(in tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "300", "--seed", "5", "--months", "4", "--receipt-history", "3", "--out", data
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let manager = FileManager.default
        for (side, months) in [("v1", ["2021-01", "2021-02"]), ("v2", ["2021-03", "2021-04"])] {
            try manager.createDirectory(atPath: tmp.path + "/cut/" + side, withIntermediateDirectories: true)
            for month in months {
                try manager.copyItem(
                    atPath: "\(data)/\(side)/\(month).jsonl", toPath: "\(tmp.path)/cut/\(side)/\(month).jsonl")
            }
        }
        return (tmp.path + "/cut/v1", tmp.path + "/cut/v2")
    }

    @Test func aBadDateOrEnvironmentIsAUsageErrorThatWritesNothing() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        for (value, says) in [
            ("2023-02-30", "is not a date"), ("mars=2023-01-01", "is not an environment"),
            ("production=2023-01-01 sandbox=yesterday", "is not a date")
        ] {
            let out = tmp.path + "/report"
            let switches = value.split(separator: " ").flatMap { ["--switch", String($0)] }
            let run = try BinaryRun.run(
                ["reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out", out]
                    + switches)
            #expect(run.status == 64, "\(value): \(run.stderr)")
            #expect(run.stderr.contains(says), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
            let state = tmp.path + "/state.sqlite"
            let night = try BinaryRun.run(
                [
                    "nightly", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--state", state,
                    "--reports", tmp.path + "/nights"
                ] + switches)
            #expect(night.status == 64, "\(value): \(night.stderr)")
            #expect(night.stderr.contains(says), "\(night.stderr)")
            #expect(!FileManager.default.fileExists(atPath: state))
            #expect(!FileManager.default.fileExists(atPath: tmp.path + "/nights"))
        }
        // The config key goes through the same check, naming the file and line.
        let config = tmp.path + "/nightly.conf"
        try "v1 = v1\nv2 = v2\nswitch = 2023-02-30\n".write(toFile: config, atomically: true, encoding: .utf8)
        let configured = try BinaryRun.run(["nightly", "--config", config])
        #expect(configured.status == 64, "\(configured.stderr)")
        #expect(configured.stderr.contains("nightly.conf' line 3"), "\(configured.stderr)")
    }

    @Test func sidesThatDoNotOverlapGetTheHintAndThenCheckTheSeamCleanly() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.cutData(in: tmp)
        let plain = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/plain", "--html"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("the sides do not overlap"), "\(plain.stderr)")
        let suggested = try #require(
            plain.stderr.components(separatedBy: "run again with --switch ").dropFirst().first?.split(separator: " ")
                .first.map(String.init))
        #expect(suggested.hasPrefix("2021-03-01T"), "the first V2 signedDate: \(suggested)")
        let page = try String(contentsOfFile: tmp.path + "/plain/report.html", encoding: .utf8)
        #expect(!page.contains("all clear"))
        #expect(page.contains("nothing compared"))

        let out = tmp.path + "/switched"
        let switched = try BinaryRun.run(
            ["reconcile", "--v1", v1, "--v2", v2, "--out", out, "--switch", suggested, "--html"])
        #expect(switched.status == 0, "clean switched data has no differences: \(switched.stderr)")
        let differences = try String(contentsOfFile: out + "/differences.csv", encoding: .utf8)
        #expect(differences.split(separator: "\n").count == 1, "\(differences)")
        let figures = try ReportFiles.summary(out)
        let live = Int(figures["live_at_switch"] ?? "") ?? 0
        let continued = Int(figures["continued_in_v2"] ?? "") ?? -1
        #expect(live > 50, "\(figures)")
        #expect(continued > 0 && continued <= live, "\(figures)")
        #expect(figures["v1_after_switch"] == "0" && figures["v2_before_switch"] == "0")
        #expect(figures["switch_production"] == suggested.replacingOccurrences(of: "Z", with: "").prefix(23) + "Z")
        let pending = try String(contentsOfFile: out + "/pending.csv", encoding: .utf8)
        let awaiting = pending.split(separator: "\n").filter { $0.hasPrefix("awaiting_v2,") }.count
        #expect(String(awaiting) == figures["awaiting_v2"])
        #expect(switched.stderr.contains("live_at_switch \(live)"))
        #expect(!switched.stderr.contains("do not overlap"))
    }

    @Test func recordsOnTheWrongSideOfTheSwitchAreCountedAndTheFirstNamed() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.cutData(in: tmp)
        let early = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/early", "--switch", "production=2021-02-15",
            "--switch", "sandbox=2021-02-15"
        ])
        let earlyFigures = try ReportFiles.summary(tmp.path + "/early")
        #expect((Int(earlyFigures["v1_after_switch"] ?? "") ?? 0) > 0, "\(earlyFigures)")
        #expect(earlyFigures["v2_before_switch"] == "0")
        #expect(early.stderr.contains("warning: v1_after_switch"), "\(early.stderr)")
        #expect(early.stderr.contains("2021-02-"), "the first one is named with its time")
        let late = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/late", "--switch", "2021-03-15"
        ])
        let lateFigures = try ReportFiles.summary(tmp.path + "/late")
        #expect((Int(lateFigures["v2_before_switch"] ?? "") ?? 0) > 0, "\(lateFigures)")
        #expect(late.stderr.contains("warning: v2_before_switch"), "\(late.stderr)")
        // Without a switch date the report has none of the switch's rows.
        let plain = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/plain"])
        #expect(plain.status == 0)
        #expect(try ReportFiles.summary(tmp.path + "/plain")["live_at_switch"] == nil)
    }

    @Test func theReadmesSwitchCommandsRunAndThePageOpensWithTheSentence() throws {
        let readme = String(decoding: try PackagePaths.read("README.md"), as: UTF8.self)
        let start = try #require(readme.range(of: "\n## The day you switch\n"))
        let rest = readme[start.upperBound...]
        let section = String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
        let commands = DocText.commands(section)
        #expect(commands.map { $0.arguments.first ?? "" } == ["simulate", "reconcile", "nightly"])
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let here = URL(fileURLWithPath: tmp.path)
        // The first two run on simulated data; the cron line names a production config, so it is only parsed.
        for (command, status) in zip(commands.prefix(2), [Int32(0), 1]) {
            let run = try BinaryRun.run(command.arguments, in: here)
            #expect(run.status == status, "'\(command.line)' exited \(run.status): \(run.stderr)")
        }
        let report = tmp.path + "/.sample-out/switch-report"
        let truth = try String(contentsOfFile: tmp.path + "/.sample-out/switch/truth.csv", encoding: .utf8)
        #expect(
            try ReportFiles.withoutPrice(String(contentsOfFile: report + "/differences.csv", encoding: .utf8)) == truth)
        let figures = try ReportFiles.summary(report)
        let rows = truth.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let subscriptions = { (kind: String) in Set(rows.filter { $0[0] == kind }.map { "\($0[1]) \($0[2])" }).count }
        let sentence =
            "Of \(figures["live_at_switch"] ?? "?") subscriptions live at the switch, \(figures["continued_in_v2"] ?? "?") "
            + "continued in V2, \(subscriptions("silent_in_v2")) went silent, \(subscriptions("renewal_gap")) have gaps."
        let page = try String(contentsOfFile: report + "/report.html", encoding: .utf8)
        #expect(page.contains("<h2 id=\"switch\">The switch</h2>"))
        #expect(page.contains(sentence), "\(sentence)")
        guard case .run = try NightlyCommand.spec.parse(Array(commands[2].arguments.dropFirst())) else {
            Issue.record("the cron line's nightly does not parse")
            return
        }
    }
}
