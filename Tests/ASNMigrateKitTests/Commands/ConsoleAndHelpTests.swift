import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// What a person running the tool reads: each run's last console line (its exit status and what it means), the
/// per-command exit tables and examples of `--help`, suggestions for mistyped options, and the usage errors of
/// `nightly` without a side and `merge` without a folder.
@Suite struct ConsoleAndHelpTests {
    /// The tool's exit status (Swift Testing has a type named ExitStatus too).
    typealias Status = ASNMigrateKit.ExitStatus

    /// Runs the tool (with `simulate`) in-process; returns the status and every standard error line.
    static func run(_ arguments: [String]) -> (status: Status, lines: [String]) {
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(arguments, console: captured.console, commands: ToolCommands.all)
        return (status, captured.stderr.split(separator: "\n").map(String.init))
    }

    /// The spec of `name` as the tool registers it.
    static func spec(_ name: String) throws -> CommandSpec {
        try #require(ToolCommands.all.first { $0.spec.name == name }).spec
    }

    // MARK: - The exit-status line

    /// A run's last line states the status and its meaning for the command, on every exit path: a usage error
    /// found while parsing, one found by the command, a failure, findings and success.
    @Test(arguments: [
        (["migrate", "--output", "x"], Status.usage),
        (["nightly", "--v1", "/nonexistent-asn/v1"], .usage),
        (["migrate", "/nonexistent-asn/v1.jsonl"], .failure),
        (["mappings", "--mappings", "/nonexistent-asn/mappings"], .failure),
        (["mappings"], .success)
    ])
    func lastLineStatesTheStatus(arguments: [String], expected: Status) throws {
        let (status, lines) = Self.run(arguments)
        #expect(status == expected, "\(lines)")
        var spec = try Self.spec(arguments[0])
        // nightly's lines, this one too, start with a UTC timestamp for cron logs.
        #expect(lines.last.map { ($0.first == "2") == spec.timestampedLog } == true, "\(lines)")
        spec.timestampedLog = false
        #expect(lines.last?.hasSuffix(spec.exitLine(expected)) == true, "\(lines)")
        #expect(lines.last?.contains("asn-migrate \(arguments[0]): exit \(expected.rawValue): ") == true)
    }

    /// Exit 1 on the sample reads as findings, not failure: the last line gives the job's figures and where to look.
    @Test func findingsLineSaysWhatWasFound() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sample = PackagePaths.sample.path
        let migrate = Self.run(["migrate", sample + "/v1", "--out", tmp.path + "/v2.jsonl"])
        #expect(migrate.status == .findings)
        #expect(
            migrate.lines.last
                == "asn-migrate migrate: exit 1: 7 rejected and 1 unmapped of 43 record(s) (listed above)")
        let common = ["reconcile", "--v1", sample + "/v1", "--v2", sample + "/v2", "--max-reject-rate", "20%"]
        let reconcile = Self.run(common + ["--out", tmp.path + "/a", "--html"])
        #expect(reconcile.status == .findings)
        #expect(
            reconcile.lines.last
                == "asn-migrate reconcile: exit 1: 7 difference row(s) and 7 reject(s) found; see \(tmp.path)/a/report.html"
        )
        let ruled = Self.run(common + ["--out", tmp.path + "/b", "--fail-on", "state_mismatch>50%"])
        #expect(ruled.status == .success)
        #expect(
            ruled.lines.last
                == "asn-migrate reconcile: exit 0: 7 difference row(s) and 7 reject(s) found, no --fail-on rule crossed; see \(tmp.path)/b"
        )
    }

    /// Before a command is known the line falls back to the tool-wide meaning.
    @Test(arguments: [["mirgate"], ["--frobnicate"], []])
    func usageErrorBeforeTheCommandEndsWithTheLine(arguments: [String]) {
        let (status, lines) = Self.run(arguments)
        #expect(status == .usage)
        #expect(lines.last == "asn-migrate: exit 64: \(CommandExit.usage.meaning)", "\(lines)")
    }

    /// `--help` and `version` print what was asked for and no status line.
    @Test func helpAndVersionHaveNoStatusLine() {
        for arguments in [["--help"], ["nightly", "--help"], ["version"]] {
            let (status, lines) = Self.run(arguments)
            #expect(status == .success && lines.isEmpty, "\(arguments): \(lines)")
        }
    }

    // MARK: - Exit tables

    /// Every command declares its exit table once; help shows each row; 2 and 64 are in every table, codes once each,
    /// in order. (Debug builds stop on a status a command returns that its table lacks, so every end-to-end run
    /// checks the tables against the code.)
    @Test func everyCommandHelpShowsItsExitTable() throws {
        for command in ToolCommands.program.commands {
            let codes = command.exits.map(\.status.rawValue)
            #expect(codes == codes.sorted() && Set(codes).count == codes.count, "\(command.name): \(codes)")
            #expect(codes.contains(2) && codes.contains(64), "\(command.name): \(codes)")
            let help = command.helpText
            let table = try #require(help.range(of: "EXIT STATUS:\n"), "\(command.name)")
            let rows = help[table.upperBound...].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for exit in command.exits {
                #expect(
                    rows.contains("\(exit.status.rawValue) \(exit.meaning)"), "\(command.name) --help lacks \(exit)")
            }
        }
    }

    /// The tables say what each command's codes mean for it, as the README's exit codes do.
    @Test func exitTablesSayWhatEachCommandsCodesMean() throws {
        let meaning = { (name: String, status: Status) throws -> String in
            try Self.spec(name).exits.first { $0.status == status }?.meaning ?? ""
        }
        #expect(try meaning("nightly", .findings).contains("new differences"))
        #expect(try meaning("nightly", .sanityCheckFailed).contains("stale"))
        #expect(try meaning("fetch", .findings).hasPrefix("ids not found"))
        #expect(try meaning("nightly", .unavailable).contains("not-answered.csv"))
        #expect(try meaning("nightly", .unauthorized).contains("the night was not run"))
        #expect(try meaning("fetch", .unavailable).contains("run the same command again"))
        #expect(try meaning("merge", .dataError).contains("not one whole run"))
        #expect(try meaning("reconcile", .dataError).contains("--partition"))
        #expect(try Self.spec("mappings").exits.map(\.status) == [.success, .failure, .usage])
        #expect(try Self.spec("partition").exits.map(\.status) == [.success, .failure, .usage, .locked])
        #expect(try !Self.spec("migrate").exits.contains { $0.status == .configuration })
    }

    // MARK: - Examples and the command list

    /// Every command's help has an EXAMPLES section, and every example parses with the argument parser.
    @Test func everyExampleParses() throws {
        let program = ToolCommands.program
        for command in program.commands {
            #expect(!command.examples.isEmpty, "\(command.name) has no examples")
            #expect(command.helpText.contains("\nEXAMPLES:\n"), "\(command.name)")
            for example in command.examples {
                #expect(example.arguments.first == command.name)
                guard case .run = try program.parse(example.arguments) else {
                    Issue.record("\(example.commandLine()) is not a run")
                    continue
                }
            }
        }
        #expect(program.helpText.contains("\nEXAMPLES:\n"))
    }

    /// The examples that read the repository's sample data or mapping files run, with their outputs in a temporary
    /// folder, and end with a status of their table other than a failure.
    @Test func examplesOnTheSampleRun() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var ran = 0
        for (index, example) in ToolCommands.program.commands.flatMap(\.examples).enumerated() {
            let local = example.arguments.contains { $0.hasPrefix("Tests/Fixtures/sample") || $0 == "Mappings" }
            guard local || example.arguments == ["mappings"] else { continue }
            let arguments = example.arguments.map { argument -> String in
                if argument.hasPrefix(".sample-out/") {
                    return tmp.path + "/\(index)-" + argument.dropFirst(".sample-out/".count)
                }
                if argument.hasPrefix("Tests/Fixtures/") || argument == "Mappings" {
                    return PackagePaths.root.path + "/" + argument
                }
                return argument
            }
            let (status, lines) = Self.run(arguments)
            #expect(status != .failure && status != .usage, "\(example.commandLine()): \(lines)")
            #expect(status != .sanityCheckFailed, "\(example.commandLine()) on the sample: \(lines)")
            ran += 1
        }
        #expect(ran >= 7)
    }

    /// The top-level help lists `version` beside the commands.
    @Test func topLevelHelpListsVersion() {
        let lines = ToolCommands.program.helpText.split(separator: "\n").map(String.init)
        let commands = lines.drop { $0 != "COMMANDS:" }.dropFirst().prefix { $0.hasPrefix("  ") }
        #expect(commands.contains { $0.hasPrefix("  version ") }, "\(commands)")
    }

    // MARK: - Suggestions

    /// A longer spelling of an option gets the option suggested, as a typo does.
    @Test func mistypedOptionsGetSuggestions() {
        for (arguments, suggestion) in [
            (["migrate", "--output", "x", "in"], "--out"),
            (["reconcile", "--v2-file", "x"], "--v2"),
            (["nightly", "--reports-dir", "x"], "--reports"),
            (["merge", "--outt", "x"], "--out")
        ] {
            let (status, lines) = Self.run(arguments)
            #expect(status == .usage)
            #expect(lines.first?.contains("did you mean '\(suggestion)'?") == true, "\(arguments): \(lines)")
        }
        #expect(Suggestion.closest(to: "--output", among: ["--out", "--rejects", "--format"]) == "--out")
        #expect(Suggestion.closest(to: "--zzz", among: ["--out", "--rejects"]) == nil)
    }

    // MARK: - Usage errors

    /// `nightly` without one side is a usage error that creates nothing: no state, no reports, no lock.
    @Test(arguments: [["--v1", "v1"], ["--v2", "v2"], []])
    func nightlyWithoutASideCreatesNothing(sides: [String]) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        for side in ["v1", "v2"] {
            try FileManager.default.createDirectory(atPath: tmp.path + "/" + side, withIntermediateDirectories: true)
        }
        let arguments = ["nightly", "--state", tmp.path + "/Reports/state.sqlite", "--reports", tmp.path + "/Reports"]
        let given: [String] = sides.enumerated().map { (offset: Int, element: String) -> String in
            offset == 1 ? tmp.path + "/" + element : element
        }
        let (status, lines) = Self.run(arguments + given)
        #expect(status == .usage)
        let missing: [String] = ["v1", "v2"].filter { !sides.contains("--" + $0) }.map { "--\($0) PATH" }
        let expected = "missing " + missing.joined(separator: " and ")
        #expect(
            lines.first?.contains(expected) == true,
            "\(lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == ["v1", "v2"])
    }

    /// `merge` given a folder that does not exist (or a file) is a usage error naming it; nothing is written.
    @Test func mergeWithAMissingFolderIsAUsageError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        FileManager.default.createFile(atPath: tmp.path + "/file", contents: Data())
        for (path, what) in [(tmp.path + "/nope", "does not exist"), (tmp.path + "/file", "is not a folder")] {
            let (status, lines) = Self.run(["merge", "--out", tmp.path + "/merged", path])
            #expect(status == .usage, "\(lines)")
            #expect(lines.first?.contains("shard folder '\(path)' \(what)") == true, "\(lines)")
            #expect(!FileManager.default.fileExists(atPath: tmp.path + "/merged"))
        }
    }

    // MARK: - The first night

    /// A first night on just-copied files reads nothing: it says how many files wait, why, and how to read files
    /// known to be complete; with `--min-file-age 0` the same files are read.
    @Test func firstNightOnYoungFilesSaysWhyAndWhatToDo() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.copyItem(atPath: PackagePaths.sample.path + "/v1", toPath: tmp.path + "/v1")
        try FileManager.default.copyItem(atPath: PackagePaths.sample.path + "/v2", toPath: tmp.path + "/v2")
        let files =
            try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/v1").count
            + FileManager.default.contentsOfDirectory(atPath: tmp.path + "/v2").count
        let common = [
            "nightly", "--v1", tmp.path + "/v1", "--v2", tmp.path + "/v2", "--max-reject-rate", "20%", "--run-date",
            "2024-02-02"
        ]
        let young = Self.run(common + ["--state", tmp.path + "/young.sqlite", "--reports", tmp.path + "/young"])
        #expect(young.status == .sanityCheckFailed, "\(young.lines)")
        let wait = try #require(young.lines.first { $0.contains("wait for a later night") }, "\(young.lines)")
        #expect(wait.contains("\(files) file(s) wait for a later night: modified less than min-file-age 10m ago"))
        #expect(wait.contains("run again with --min-file-age 0 to read them now"))
        #expect(young.lines.last?.contains("Z asn-migrate nightly: exit 3: ") == true)

        let read = Self.run(
            common + ["--state", tmp.path + "/read.sqlite", "--reports", tmp.path + "/read", "--min-file-age", "0"])
        #expect(read.status == .findings, "\(read.lines)")
        #expect(!read.lines.contains { $0.contains("wait for a later night") })
        #expect(
            read.lines.last?.contains(
                "Z asn-migrate nightly: exit 1: 7 new difference(s) and 7 reject(s) tonight, 7 open; see \(tmp.path)/read/2024-02-02/report.html"
            ) == true, "\(read.lines)")
    }
}
