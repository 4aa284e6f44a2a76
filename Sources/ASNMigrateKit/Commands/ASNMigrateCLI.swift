/// The command-line entry point: parses arguments, dispatches to a command, returns its exit status.
public enum ASNMigrateCLI {
    /// The tool's version number (`tool_version` in summaries).
    public static let versionNumber = "0.1.0"

    /// The tool's version, as `--version` prints it.
    public static let version = "asn-migrate \(versionNumber)"

    /// The program: every subcommand and its options.
    public static var program: Program {
        Program(
            abstract: "Migrate archived App Store Server Notifications V1 to V2 form, and reconcile them with V2 records.",
            version: version,
            commands: [MigrateCommand.spec, ReconcileCommand.spec, NightlyCommand.spec, MappingsCommand.spec, SimulateCommand.spec]
        )
    }

    /// Runs the tool on the arguments after the executable name.
    public static func run(_ arguments: [String], console: Console = .standard) -> ExitStatus {
        let outcome: ParseOutcome
        do {
            outcome = try program.parse(arguments)
        } catch {
            console.diagnostic("asn-migrate: \(error.message)")
            return .usage
        }
        switch outcome {
        case .help(let text), .version(let text):
            try? console.output(Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
            return .success
        case .run(let parsed):
            switch parsed.command {
            case MigrateCommand.spec.name: return MigrateCommand.run(parsed, console: console)
            case ReconcileCommand.spec.name: return ReconcileCommand.run(parsed, console: console)
            case NightlyCommand.spec.name: return NightlyCommand.run(parsed, console: console)
            case MappingsCommand.spec.name: return MappingsCommand.run(parsed, console: console)
            case SimulateCommand.spec.name: return SimulateCommand.run(parsed, console: console)
            default:
                console.diagnostic("asn-migrate: command '\(parsed.command)' is not available")
                return .usage
            }
        }
    }
}
