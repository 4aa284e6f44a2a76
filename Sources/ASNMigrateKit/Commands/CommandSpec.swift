/// A declarative description of one subcommand — name, abstract, options, positionals — that parses its arguments and renders its help.
///
/// `-h` and `--help` are built in and reserved. Options accept `--opt value` and `--opt=value`; `--` ends options;
/// `-` alone is a positional meaning standard input; a token like `-5` counts as a value, not an option.
package struct CommandSpec: Sendable, Equatable {
    /// The subcommand name, such as `migrate`.
    package var name: String
    /// One line saying what the command does.
    package var abstract: String
    /// The usage line after `USAGE:`; nil to generate `asn-migrate NAME [OPTIONS] PATH...`.
    package var usage: String?
    /// The options, in the order help lists them.
    package var options: [OptionSpec]
    /// The positional arguments; nil when the command takes none.
    package var positional: PositionalSpec?
    /// The executable's name, used in usage and "See … --help" hints.
    package var programName: String
    /// Every exit status the command can return and what it means for it: help's EXIT STATUS table and the run's
    /// last console line.
    package var exits: [CommandExit]
    /// Command lines help shows under EXAMPLES (a test runs or parses each).
    package var examples: [CommandExample]
    /// Whether the command's log lines start with a UTC timestamp (`nightly`, for cron logs); the exit line follows.
    package var timestampedLog: Bool

    /// Creates a command spec.
    package init(
        name: String, abstract: String, usage: String? = nil, options: [OptionSpec] = [],
        positional: PositionalSpec? = nil,
        programName: String = "asn-migrate", exits: [CommandExit] = [], examples: [CommandExample] = [],
        timestampedLog: Bool = false
    ) {
        self.exits = exits
        self.examples = examples
        self.timestampedLog = timestampedLog
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.options = options
        self.positional = positional
        self.programName = programName
    }

    // MARK: - Parsing

    /// Parses the arguments after the command name into arguments or a help request; usage errors throw `ASNError(.usage, …)`.
    package func parse(_ arguments: [String]) throws(ASNError) -> ParseOutcome {
        try ArgumentParser(spec: self).parse(arguments)
    }

    /// Mistakes in the spec itself (duplicate or badly formed names, reserved `-h`/`--help`, bad defaults); empty when sound. Assert on it in the command's tests.
    package var specProblems: [String] {
        var problems: [String] = []
        var seen: Set<String> = ["-h", "--help"]
        for option in options {
            if !option.long.hasPrefix("--") || option.long.count < 3 || option.long.contains("=") {
                problems.append("long name '\(option.long)' must look like --name")
            }
            if let short = option.short, !(short.count == 2 && short.hasPrefix("-") && short != "--") {
                problems.append("short name '\(short)' must look like -x")
            }
            for name in [option.long] + (option.short.map { [$0] } ?? []) where !seen.insert(name).inserted {
                problems.append("option name '\(name)' is declared twice or is reserved")
            }
            if option.kind != .flag, option.valueName.isEmpty {
                problems.append("option '\(option.long)' needs a value name")
            }
            if let defaultValue = option.defaultValue {
                if option.kind != .single {
                    problems.append("option '\(option.long)' has a default but is not a single-value option")
                }
                do throws(ASNError) {
                    try ArgumentValue.validate(defaultValue, for: option)
                } catch {
                    problems.append("default of '\(option.long)': \(error.message)")
                }
            }
        }
        if let positional, positional.minCount > (positional.maxCount ?? Int.max) {
            problems.append("positional '\(positional.name)' has minCount above maxCount")
        }
        return problems
    }

    // MARK: - Help

    /// The usage line: `usage` if given, else generated from the options and positionals.
    package var usageLine: String {
        if let usage { return usage }
        var line = "\(programName) \(name)"
        if !options.isEmpty { line += " [OPTIONS]" }
        if let positional { line += " \(positional.synopsis)" }
        return line
    }

    /// The `--help` text: overview, usage, arguments and options in aligned columns.
    package var helpText: String {
        var formatter = HelpFormatter()
        formatter.paragraph("OVERVIEW", abstract)
        formatter.paragraph("USAGE", usageLine)
        if let positional {
            var help = positional.help
            if positional.acceptsStandardInput, !help.contains("'-'") { help += " '-' reads standard input." }
            formatter.table("ARGUMENTS", [(positional.name, help)])
        }
        let rows = options.map { ($0.synopsis, CommandSpec.optionHelp($0)) } + [("-h, --help", "Show this help.")]
        formatter.table("OPTIONS", rows)
        formatter.table("EXIT STATUS", exits.map { (String($0.status.rawValue), $0.meaning) })
        formatter.list("EXAMPLES", examples.map { ($0.summary, $0.commandLine(programName: programName)) })
        return formatter.text
    }

    // MARK: - Exit status

    /// What `status` means for this command: its row of `exits`, else the tool-wide meaning.
    package func meaning(of status: ExitStatus) -> String {
        exits.first { $0.status == status }?.meaning ?? status.help
    }

    /// The run's last console line: `asn-migrate reconcile: exit 1: 7 difference rows and 7 rejects found; see …`,
    /// the run's `verdict` or else the status's meaning for the command, after a UTC timestamp of `clock` (epoch ms)
    /// for a command whose log lines have one.
    package func exitLine(
        _ status: ExitStatus, verdict: String? = nil, clock: () -> Int64 = ReconcileCommand.currentTime
    ) -> String {
        let line = "\(programName) \(name): exit \(status.rawValue): \(verdict ?? meaning(of: status))"
        return timestampedLog ? "\(Timestamp.iso8601(ms: clock())) \(line)" : line
    }

    /// An option's help with its allowed values, default and repeatability appended.
    private static func optionHelp(_ option: OptionSpec) -> String {
        var notes: [String] = []
        if case .choice(let allowed) = option.valueKind { notes.append("one of: \(allowed.joined(separator: ", "))") }
        if case .integer(let range?) = option.valueKind { notes.append("\(range.lowerBound) to \(range.upperBound)") }
        if case .duration = option.valueKind { notes.append("e.g. 48h, 90m, 2d") }
        if let defaultValue = option.defaultValue { notes.append("default: \(defaultValue)") }
        if option.kind == .repeatable && !option.help.contains("repeatable") { notes.append("repeatable") }
        guard !notes.isEmpty else { return option.help }
        return "\(option.help) (\(notes.joined(separator: "; ")))"
    }
}
