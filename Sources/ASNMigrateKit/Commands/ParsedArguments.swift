/// The result of parsing one command's arguments, with typed getters keyed by long option name (such as `--out`).
///
/// Values were already checked against each option's `ValueKind` while parsing, so the throwing getters only fail
/// if a command asks for an option with the wrong kind. Asking for an undeclared option is a programming error:
/// it asserts in debug builds and reads as absent in release builds.
package struct ParsedArguments: Sendable, Equatable {
    /// The command's name, such as `migrate`.
    package let command: String
    /// The positional arguments in order; `-` means standard input.
    package let positionals: [String]

    private let options: [String: OptionSpec]
    private let given: [String: [String]]

    /// Creates parsed arguments; the parser does this.
    init(command: String, positionals: [String], options: [OptionSpec], given: [String: [String]]) {
        self.command = command
        self.positionals = positionals
        self.options = Dictionary(options.map { ($0.long, $0) }, uniquingKeysWith: { first, _ in first })
        self.given = given
    }

    // MARK: - Getters

    /// The value of a single-value option as given, else its default, else nil.
    package func value(_ long: String) -> String? {
        let spec = lookUp(long)
        return given[long]?.last ?? spec?.defaultValue
    }

    /// Every value of a repeatable option, in command-line order.
    package func values(_ long: String) -> [String] {
        lookUp(long)
        return given[long] ?? []
    }

    /// Whether a flag was given.
    package func flag(_ long: String) -> Bool {
        lookUp(long)
        return given[long] != nil
    }

    /// Whether an option was given on the command line (not merely defaulted).
    package func isSet(_ long: String) -> Bool {
        lookUp(long)
        return given[long] != nil
    }

    /// Whether `-` (standard input) is among the positionals.
    package var readsStandardInput: Bool {
        positionals.contains("-")
    }

    /// A single-value option as a whole number (given or default), or nil.
    package func integer(_ long: String) throws(ASNError) -> Int? {
        guard let text = value(long) else { return nil }
        var range: ClosedRange<Int>?
        if case .integer(let declared)? = options[long]?.valueKind { range = declared }
        return try ArgumentValue.integer(text, option: long, in: range)
    }

    /// A single-value option as a duration in milliseconds (given or default), or nil.
    package func durationMilliseconds(_ long: String) throws(ASNError) -> Int64? {
        guard let text = value(long) else { return nil }
        return try ArgumentValue.durationMilliseconds(text, option: long)
    }

    /// The spec of a declared option; asserts (in debug builds) that it was declared.
    @discardableResult
    private func lookUp(_ long: String) -> OptionSpec? {
        let spec = options[long]
        assert(spec != nil, "option \(long) is not declared for '\(command)'")
        return spec
    }
}
