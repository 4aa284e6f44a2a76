/// The top level of the command line: the executable's subcommands, `--help`, `--version` and `help COMMAND`.
package struct Program: Sendable, Equatable {
    /// The executable's name, such as `asn-migrate`.
    package var name: String
    /// One line saying what the tool does.
    package var abstract: String
    /// The version text for `--version`; nil when the tool has none.
    package var version: String?
    /// The subcommands, in the order help lists them.
    package var commands: [CommandSpec]

    /// Creates a program spec.
    package init(name: String = "asn-migrate", abstract: String, version: String? = nil, commands: [CommandSpec]) {
        self.name = name
        self.abstract = abstract
        self.version = version
        self.commands = commands
    }

    // MARK: - Parsing

    /// Parses the arguments after the executable name: picks the command and parses its arguments.
    package func parse(_ arguments: [String]) throws(ASNError) -> ParseOutcome {
        guard let first = arguments.first else {
            throw ASNError(.usage, "missing command. Commands: \(commandList). See '\(name) --help'.")
        }
        switch first {
        case "-h", "--help":
            return .help(helpText)
        case "help":
            guard arguments.count > 1 else { return .help(helpText) }
            if arguments[1] == Self.versionCommand, version != nil { return .help(versionHelpText) }
            return .help(try command(arguments[1]).helpText)
        case "--version", "-V", Self.versionCommand:
            guard version != nil else { return try command(first).parse(Array(arguments.dropFirst())) }
            return try parseVersion(first, Array(arguments.dropFirst()))
        default:
            if first.hasPrefix("-"), first != "-" {
                throw ASNError(
                    .usage,
                    "unknown option '\(first)' before the command; options go after it, as in '\(name) COMMAND [OPTIONS]'. Commands: \(commandList)"
                )
            }
            return try command(first).parse(Array(arguments.dropFirst()))
        }
    }

    /// `version` (or `--version`, `-V`) and what follows it: the version, its help for `--help` / `-h`, and a usage
    /// error for anything else.
    private func parseVersion(_ spelling: String, _ rest: [String]) throws(ASNError) -> ParseOutcome {
        guard let version else { throw ASNError(.usage, "'\(spelling)': this program has no version") }
        guard let next = rest.first else { return .version(version) }
        if next == "-h" || next == "--help" { return .help(versionHelpText) }
        throw ASNError(
            .usage, "'\(spelling)' takes no arguments, got '\(next)'. See '\(name) \(Self.versionCommand) --help'.")
    }

    /// The name of the command that prints the version.
    static let versionCommand = "version"

    /// What `version` prints, as its help says.
    static let versionAbstract = "Print the version, the git commit it was built from and the rules digest."

    /// `version --help` (and `help version`): what it prints, how to call it, and its exit status.
    package var versionHelpText: String {
        var formatter = HelpFormatter()
        formatter.paragraph("OVERVIEW", Self.versionAbstract)
        formatter.paragraph("USAGE", "\(name) \(Self.versionCommand)   (also \(name) --version, \(name) -V)")
        formatter.paragraph(
            "OUTPUT",
            "Three lines: '\(version ?? name)'; 'commit <git commit>' (embedded by .ci/install; for a build run from "
                + "its source tree, such as 'swift run', the tree's git HEAD read at run time, marked so; else "
                + "'unknown'); and 'rules digest <N> (built-in Mappings)', the rules_digest a nightly state records.")
        formatter.table("OPTIONS", [("-h, --help", "Show this help.")])
        formatter.table("EXIT STATUS", [("0", "printed"), ("64", "usage error: an argument other than --help")])
        return formatter.text
    }

    /// The named command, with this program's name, or a usage error suggesting the closest one.
    package func command(_ commandName: String) throws(ASNError) -> CommandSpec {
        guard var spec = commands.first(where: { $0.name == commandName }) else {
            var message = "unknown command '\(commandName)'"
            if let suggestion = Suggestion.closest(to: commandName, among: commandNames) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += "."
            }
            throw ASNError(.usage, message + " Commands: \(commandList)")
        }
        spec.programName = name
        return spec
    }

    // MARK: - Help

    /// Every command's name, in help order, `version` last when the program has one.
    private var commandNames: [String] {
        commands.map(\.name) + (version == nil ? [] : [Self.versionCommand])
    }

    /// `migrate, reconcile, mappings, simulate, version`.
    private var commandList: String {
        commandNames.joined(separator: ", ")
    }

    /// The top-level `--help` text: overview, usage, commands and options.
    package var helpText: String {
        var formatter = HelpFormatter()
        formatter.paragraph("OVERVIEW", abstract)
        formatter.paragraph("USAGE", "\(name) COMMAND [OPTIONS] [ARGUMENTS]")
        var commandRows = commands.map { ($0.name, $0.abstract) }
        if version != nil {
            commandRows.append((Self.versionCommand, Self.versionAbstract))
        }
        formatter.table("COMMANDS", commandRows)
        var options = [("-h, --help", "Show this help.")]
        if version != nil { options.append(("-V, --version", "Print the version (also '\(name) version').")) }
        formatter.table("OPTIONS", options)
        formatter.table("EXIT STATUS", ExitStatus.allCases.map { (String($0.rawValue), $0.help) })
        formatter.list(
            "EXAMPLES",
            commands.compactMap { $0.examples.first }.map { ($0.summary, $0.commandLine(programName: name)) })
        formatter.paragraph(
            "See '\(name) COMMAND --help' or '\(name) help COMMAND' for a command's options and arguments.")
        return formatter.text
    }
}
