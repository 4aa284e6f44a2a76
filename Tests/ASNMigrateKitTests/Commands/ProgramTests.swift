import ASNSimulation
import Testing

@testable import ASNMigrateKit

@Suite struct ProgramTests {
    // MARK: - Helpers

    private let program = CommandFixtures.program

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try program.parse(arguments)
            return nil
        } catch {
            #expect(error.code == .usage)
            return error.message
        }
    }

    // MARK: - Routing

    @Test func routesToCommandWithItsArguments() throws {
        guard case .run(let parsed) = try program.parse(["migrate", "--out", "o", "in"]) else {
            Issue.record("expected arguments")
            return
        }
        #expect(parsed.command == "migrate")
        #expect(parsed.value("--out") == "o")
        #expect(parsed.positionals == ["in"])
    }

    static let helpRequests: [[String]] = [["--help"], ["-h"], ["help"]]

    @Test(arguments: helpRequests)
    func topLevelHelp(arguments: [String]) throws {
        #expect(try program.parse(arguments) == .help(program.helpText))
    }

    @Test func commandHelpBothWays() throws {
        let expected = ParseOutcome.help(CommandFixtures.migrate.helpText)
        #expect(try program.parse(["help", "migrate"]) == expected)
        #expect(try program.parse(["migrate", "--help"]) == expected)
    }

    @Test func versionWhenDeclared() throws {
        #expect(try program.parse(["--version"]) == .version("asn-migrate 0.1.0"))
        var unversioned = program
        unversioned.version = nil
        #expect(throws: ASNError.self) { try unversioned.parse(["--version"]) }
        #expect(!unversioned.helpText.contains("--version"))
    }

    @Test func programNameFlowsIntoCommandMessages() throws {
        var renamed = program
        renamed.name = "asnm"
        #expect(try renamed.command("migrate").usageLine == "asnm migrate [OPTIONS] PATH...")
        do {
            _ = try renamed.parse(["migrate", "--outt"])
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasSuffix("See 'asnm migrate --help'."))
        }
    }

    @Test func helpListsCommandsWithAbstracts() {
        let lines = program.helpText.split(separator: "\n").map(String.init)
        #expect(lines.contains("USAGE: asn-migrate COMMAND [OPTIONS] [ARGUMENTS]"))
        #expect(lines.contains("COMMANDS:"))
        #expect(lines.contains("  migrate        Migrate archived V1 notifications to V2 form."))
        #expect(lines.contains("  simulate       Generate sample V1 notifications."))
        #expect(lines.contains { $0.hasPrefix("  -V, --version") && $0.contains("Print the version") })
    }

    @Test func versionHasThreeSpellings() throws {
        for spelling in ["--version", "-V", "version"] {
            #expect(try program.parse([spelling]) == .version("asn-migrate 0.1.0"))
        }
    }

    // MARK: - The real commands' help

    @Test func noHelpTextRepeatsItself() throws {
        for command in ToolCommands.program.commands {
            let text = command.helpText.replacingOccurrences(of: "\n", with: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(!text.contains("(repeatable). (repeatable)"), "\(command.name) --help")
            for prose in [command.abstract] + command.options.map(\.help) {
                let words = prose.lowercased().split(whereSeparator: { !$0.isLetter })
                for (a, b) in zip(words, words.dropFirst()) where a == b && a.count > 2 {
                    Issue.record("'\(a) \(b)' doubled in \(command.name) --help: \(prose)")
                }
            }
            #expect(
                text.components(separatedBy: "repeatable").count <= command.options.filter { $0.kind == .repeatable }
                    .count + 1,
                "'repeatable' is said once per repeatable option in \(command.name) --help")
        }
    }

    @Test func everyWrittenUsageLineListsEveryOption() {
        for command in ToolCommands.program.commands {
            guard let usage = command.usage else { continue }
            for option in command.options {
                #expect(usage.contains(option.long), "\(command.name)'s usage line lists \(option.long)")
            }
        }
    }

    // MARK: - Errors

    static let errorCases: [([String], String)] = [
        (
            ["migrat"],
            "unknown command 'migrat'; did you mean 'migrate'? Commands: migrate, reconcile, mappings, simulate, version"
        ),
        (
            ["recon"],
            "unknown command 'recon'; did you mean 'reconcile'? Commands: migrate, reconcile, mappings, simulate, version"
        ),
        (["frobnicate"], "unknown command 'frobnicate'. Commands: migrate, reconcile, mappings, simulate, version"),
        (
            ["help", "mapings"],
            "unknown command 'mapings'; did you mean 'mappings'? Commands: migrate, reconcile, mappings, simulate, version"
        ),
        ([], "missing command. Commands: migrate, reconcile, mappings, simulate, version. See 'asn-migrate --help'."),
        (
            ["--out", "x", "migrate"],
            "unknown option '--out' before the command; options go after it, as in 'asn-migrate COMMAND [OPTIONS]'. Commands: migrate, reconcile, mappings, simulate, version"
        ),
        (["migrate"], "missing PATH: give at least one input file or directory, or '-' for standard input")
    ]

    @Test(arguments: errorCases)
    func reportsUsageErrors(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test func theEntryPointForOtherProgramsRunsTheLibrarysCommands() {
        // Exit statuses only: what these print goes to this process's standard error.
        #expect(ASNMigrateCLI.main(["no-such-command"]) == .usage)
        #expect(
            ASNMigrateCLI.main(["simulate", "--help"]) == .usage, "simulate belongs to the executable, not the library")
        #expect(ASNMigrateCLI.main(["mappings", "--mappings", "/nonexistent-asn-migrate-dir"]) == .failure)
    }
}
