import Synchronization

/// The command-line entry point: parses arguments, dispatches to a command, returns its exit status.
public enum ASNMigrateCLI {
    /// The tool's version number (`tool_version` in summaries).
    public static let versionNumber = BuildInfo.versionNumber

    /// The tool's name and version number, the first line of `asn-migrate version`.
    package static let version = "asn-migrate \(versionNumber)"

    /// What `asn-migrate version` (`--version`, `-V`) prints: the version, the git commit the binary was built from
    /// (`BuildInfo.commit`: embedded by `.ci/install`, else the source tree's HEAD), and the digest of the built-in
    /// mapping rules, the `rules_digest` a `nightly` state records (without `--ignore-field` or `--time-tolerance`).
    public static var versionReport: String {
        let digest: String
        do {
            digest = String(try MappingTable.builtIn().digest)
        } catch {
            digest = "unavailable (\(error.message))"
        }
        return "\(version)\ncommit \(BuildInfo.commit)\nrules digest \(digest) (built-in Mappings)\n"
    }

    /// The commands the library provides, in help order; the executable adds `simulate` from `ASNSimulation`
    /// (`ToolCommands.all`), so the library never imports the simulator.
    package static let builtInCommands: [CommandEntry] = [
        CommandEntry(spec: MigrateCommand.spec) { MigrateCommand.run($0, console: $1) },
        CommandEntry(spec: ReconcileCommand.spec) { ReconcileCommand.run($0, console: $1) },
        CommandEntry(spec: NightlyCommand.spec) { NightlyCommand.run($0, console: $1) },
        CommandEntry(spec: MergeCommand.spec) { MergeCommand.run($0, console: $1) },
        CommandEntry(spec: PartitionCommand.spec) { PartitionCommand.run($0, console: $1) },
        CommandEntry(spec: MappingsCommand.spec) { MappingsCommand.run($0, console: $1) },
        CommandEntry(spec: FetchCommand.spec) { FetchCommand.run($0, console: $1) }
    ]

    /// The program made of `commands`: every subcommand and its options.
    package static func program(commands: [CommandEntry] = builtInCommands) -> Program {
        Program(
            abstract:
                "Migrate archived App Store Server Notifications V1 to V2 form, and reconcile them with V2 records.",
            version: version,
            commands: commands.map(\.spec)
        )
    }

    /// Runs the library's commands (all but `simulate`) on the arguments after the executable name, writing to
    /// standard output and standard error: the entry point for another Swift program (README, "Using it from Swift").
    public static func main(_ arguments: [String]) -> ExitStatus {
        run(arguments)
    }

    /// Runs the tool made of `commands` on the arguments after the executable name. A run (not `--help` or
    /// `version`) ends with one console line stating its exit status and what it means for the command
    /// (`CommandSpec.exitLine`), usage errors included.
    package static func run(
        _ arguments: [String], console: Console = .standard,
        commands: [CommandEntry] = builtInCommands
    ) -> ExitStatus {
        let program = program(commands: commands)
        let outcome: ParseOutcome
        do {
            outcome = try program.parse(arguments)
        } catch {
            console.diagnostic("\(program.name): \(error.message)")
            let spec = arguments.first.flatMap { try? program.command($0) }
            console.diagnostic(spec?.exitLine(.usage) ?? "\(program.name): exit 64: \(CommandExit.usage.meaning)")
            return .usage
        }
        switch outcome {
        case .help(let text):
            try? console.output(Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
            return .success
        case .version:
            try? console.output(Array(versionReport.utf8))
            return .success
        case .run(let parsed):
            guard let command = commands.first(where: { $0.spec.name == parsed.command }) else {
                console.diagnostic("\(program.name): command '\(parsed.command)' is not available")
                console.diagnostic("\(program.name): exit 64: \(CommandExit.usage.meaning)")
                return .usage
            }
            let verdict = Verdict()
            var console = console
            console.verdict = { verdict.value.withLock { [text = $0] in $0 = text } }
            let status = command.run(parsed, console)
            // Every status a command returns is in its exit table (help shows it); debug builds (the tests) stop here
            // on one that is not, so the end-to-end tests check the tables.
            assert(
                command.spec.exits.isEmpty || command.spec.exits.contains { $0.status == status },
                "\(parsed.command) returned \(status.rawValue), which its exit table does not list")
            console.diagnostic(command.spec.exitLine(status, verdict: verdict.value.withLock { $0 }))
            return status
        }
    }
}

/// The verdict a run's job gave its console, for the run's last line.
private final class Verdict: Sendable {
    /// The last verdict given; nil when the job gave none.
    let value = Mutex<String?>(nil)
}
