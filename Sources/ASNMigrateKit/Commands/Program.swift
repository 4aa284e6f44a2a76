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
            return .help(try command(arguments[1]).helpText)
        case "--version", "-V", "version":
            guard let version else { return try command(first).parse(Array(arguments.dropFirst())) }
            return .version(version)
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

    /// The named command, with this program's name, or a usage error suggesting the closest one.
    package func command(_ commandName: String) throws(ASNError) -> CommandSpec {
        guard var spec = commands.first(where: { $0.name == commandName }) else {
            var message = "unknown command '\(commandName)'"
            if let suggestion = Suggestion.closest(to: commandName, among: commands.map(\.name)) {
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

    /// `migrate, reconcile, mappings, simulate`.
    private var commandList: String {
        commands.map(\.name).joined(separator: ", ")
    }

    /// The top-level `--help` text: overview, usage, commands and options.
    package var helpText: String {
        var formatter = HelpFormatter()
        formatter.paragraph("OVERVIEW", abstract)
        formatter.paragraph("USAGE", "\(name) COMMAND [OPTIONS] [ARGUMENTS]")
        var commandRows = commands.map { ($0.name, $0.abstract) }
        if version != nil {
            commandRows.append(("version", "Print the version, the git commit it was built from and the rules digest."))
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
