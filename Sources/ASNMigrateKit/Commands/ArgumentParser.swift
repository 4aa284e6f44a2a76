/// The parsing engine behind `CommandSpec.parse`: walks the tokens once, checks them against the spec.
struct ArgumentParser {
    /// The command being parsed.
    let spec: CommandSpec

    /// Parses the arguments after the command name.
    func parse(_ arguments: [String]) throws(ASNError) -> ParseOutcome {
        if wantsHelp(arguments) { return .help(spec.helpText) }
        var given: [String: [String]] = [:]
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || !looksLikeOption(token) {
                positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = splitInlineValue(token)
            guard let option = spec.options.first(where: { $0.long == name || $0.short == name }) else {
                throw unknownOption(name)
            }
            switch option.kind {
            case .flag:
                guard inlineValue == nil else { throw ASNError(.usage, "option '\(option.long)' takes no value") }
                given[option.long, default: []].append("")
            case .single, .repeatable:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw ASNError(.usage, "option '\(option.long)' needs a value (\(option.valueName))")
                }
                if option.kind == .single, given[option.long] != nil {
                    throw ASNError(.usage, "option '\(option.long)' given twice")
                }
                try ArgumentValue.validate(value, for: option)
                given[option.long, default: []].append(value)
            }
        }
        try check(positionals)
        return .run(ParsedArguments(command: spec.name, positionals: positionals, options: spec.options, given: given))
    }

    // MARK: - Tokens

    /// Whether `-h` or `--help` appears before any `--`.
    private func wantsHelp(_ arguments: [String]) -> Bool {
        for token in arguments {
            if token == "--" { return false }
            if token == "-h" || token == "--help" { return true }
        }
        return false
    }

    /// `--name=value` split in two; other tokens have no inline value.
    private func splitInlineValue(_ token: String) -> (name: String, value: String?) {
        guard let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    /// The usage error for an option this command does not have.
    private func unknownOption(_ name: String) -> ASNError {
        let names = spec.options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) } + ["--help"]
        var message = "unknown option '\(name)' for '\(spec.name)'"
        if let suggestion = Suggestion.closest(to: name, among: names) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "."
        }
        return ASNError(.usage, message + " See '\(spec.programName) \(spec.name) --help'.")
    }

    // MARK: - Positionals

    /// Checks the positional count and standard input use.
    private func check(_ positionals: [String]) throws(ASNError) {
        guard let positional = spec.positional else {
            if let first = positionals.first {
                throw ASNError(
                    .usage,
                    "unexpected argument '\(first)' for '\(spec.name)'; it takes no arguments. See '\(spec.programName) \(spec.name) --help'."
                )
            }
            return
        }
        let stdinCount = positionals.filter { $0 == "-" }.count
        if stdinCount > 0, !positional.acceptsStandardInput {
            throw ASNError(.usage, "'-' (standard input) cannot be used with '\(spec.name)'; give a file path")
        }
        if stdinCount > 1 {
            throw ASNError(
                .usage, "'-' (standard input) given \(stdinCount) times; standard input can be read only once")
        }
        if positionals.count < positional.minCount {
            let hint = positional.missingHint ?? "give at least \(positional.minCount)"
            throw ASNError(.usage, "missing \(positional.name): \(hint)")
        }
        if let maxCount = positional.maxCount, positionals.count > maxCount {
            let extra = positionals.dropFirst(maxCount).map { "'\($0)'" }.joined(separator: ", ")
            throw ASNError(
                .usage,
                "too many arguments for '\(spec.name)': it takes at most \(maxCount) \(positional.name), got \(positionals.count) (unexpected: \(extra))"
            )
        }
    }
}

// MARK: - Private helpers

/// Whether a token is an option (or `--`) rather than a value: it starts with `-`, is not `-` alone, and is not a negative number.
private func looksLikeOption(_ token: String) -> Bool {
    guard token.hasPrefix("-"), token.count > 1 else { return false }
    let second = token[token.index(after: token.startIndex)]
    return !(second.isASCII && second.isNumber)
}
