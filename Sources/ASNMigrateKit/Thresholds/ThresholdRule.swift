/// One `--fail-on` / `--warn-on` rule such as `missing_in_v2>0` or `state_mismatch>0.5%`: a figure, an operator and a
/// limit, a count or a percentage of the figure's denominator (`ThresholdFigures`).
package struct ThresholdRule: Sendable, Equatable {
    /// What crossing the rule does.
    package enum Severity: String, Sendable, Equatable {
        /// `--fail-on`: the run exits 1.
        case fail
        /// `--warn-on`: the run prints a warning and counts it.
        case warn
    }

    /// The comparison operator, longest spellings first so `>=` is never read as `>`.
    package enum Comparison: String, Sendable, Equatable, CaseIterable {
        /// `>=`
        case atLeast = ">="
        /// `<=`
        case atMost = "<="
        /// `==`
        case equal = "=="
        /// `>`
        case above = ">"
        /// `<`
        case below = "<"

        /// Whether `value` compared with `limit` holds.
        package func holds(_ value: Double, _ limit: Double) -> Bool {
            switch self {
            case .atLeast: return value >= limit
            case .atMost: return value <= limit
            case .equal: return value == limit
            case .above: return value > limit
            case .below: return value < limit
            }
        }
    }

    /// The rule as given (`missing_in_v2>0`).
    package var text: String
    /// `--fail-on` or `--warn-on`.
    package var severity: Severity
    /// The figure's name: a difference kind, a `summary.csv` figure or `rejects`.
    package var figure: String
    /// The operator.
    package var comparison: Comparison
    /// The limit: a count, or a percentage when `isPercent`.
    package var limit: Double
    /// Whether the limit is a percentage of the figure's denominator.
    package var isPercent: Bool

    /// The option that gives rules of `severity`.
    package static func option(_ severity: Severity) -> String {
        severity == .fail ? "--fail-on" : "--warn-on"
    }

    /// Parses `text`; an unknown figure (with a did-you-mean suggestion), a missing operator, a bad number or a
    /// percentage of a figure without a denominator is a usage error.
    package static func parse(_ text: String, severity: Severity, figures: ThresholdFigures.Catalog) throws(ASNError)
        -> ThresholdRule
    {
        let option = option(severity)
        let spaced = text.filter { $0 != " " }
        let example =
            "give FIGURE OPERATOR LIMIT, for example 'missing_in_v2>0', 'state_mismatch>0.5%' or 'rejects>=10' (operators >, >=, <, <=, ==)"
        guard let split = spaced.firstIndex(where: { "<>=!".contains($0) }) else {
            throw ASNError(.usage, "option '\(option)': rule '\(text)' has no operator; \(example)")
        }
        let figure = String(spaced[..<split])
        let rest = spaced[split...]
        guard let comparison = Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw ASNError(.usage, "option '\(option)': rule '\(text)' has an unknown operator; \(example)")
        }
        var number = rest.dropFirst(comparison.rawValue.count)
        let isPercent = number.hasSuffix("%")
        if isPercent { number = number.dropLast() }
        guard !figure.isEmpty else {
            throw ASNError(.usage, "option '\(option)': rule '\(text)' names no figure; \(example)")
        }
        guard figures.names.contains(figure) else {
            let hint =
                Suggestion.closest(to: figure, among: figures.names.sorted()).map { "; did you mean '\($0)'?" } ?? ""
            throw ASNError(
                .usage,
                "option '\(option)': unknown figure '\(figure)' in rule '\(text)'\(hint) (figures: every difference kind, every summary.csv count, and rejects; see Reports/commands.md, Thresholds)"
            )
        }
        let plain = !number.isEmpty && number.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
        guard plain, let limit = Double(number), limit.isFinite else {
            throw ASNError(
                .usage,
                "option '\(option)': rule '\(text)' needs a non-negative number (or a percentage such as 0.5%) after '\(comparison.rawValue)'"
            )
        }
        if isPercent && figures.denominators[figure] == nil {
            throw ASNError(
                .usage,
                "option '\(option)': rule '\(text)': '\(figure)' has no denominator, so it takes a count, not a percentage"
            )
        }
        return ThresholdRule(
            text: text, severity: severity, figure: figure, comparison: comparison, limit: limit, isPercent: isPercent)
    }

    /// The limit as written in messages (`0`, `0.5%`).
    package var limitText: String {
        ThresholdRule.number(limit) + (isPercent ? "%" : "")
    }

    /// A number without a needless `.0`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = String(format: "%.4f", value)
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
