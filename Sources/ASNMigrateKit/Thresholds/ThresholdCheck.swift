/// Judges a run's figures against its `--fail-on` / `--warn-on` rules: pure, the command prints and exits.
package struct ThresholdCheck: Sendable, Equatable {
    /// One rule the run crossed.
    package struct Crossing: Sendable, Equatable {
        /// The rule.
        package var rule: ThresholdRule
        /// The figure's value (a percentage when the rule's limit is one).
        package var value: Double
        /// The figure's count.
        package var count: Int
        /// The denominator's count, for a percentage.
        package var denominator: Int?

        /// The standard-error line naming the rule, the value and the threshold.
        package var line: String {
            let kind = rule.severity == .fail ? "error" : "warning"
            let shown =
                rule.isPercent
                ? "\(ThresholdRule.number(value))% (\(count) of \(denominator ?? 0))"
                : String(count)
            return
                "\(kind): threshold \(ThresholdRule.option(rule.severity)) '\(rule.text)' crossed: \(rule.figure) is \(shown), threshold \(rule.comparison.rawValue) \(rule.limitText)"
        }
    }

    /// The rules, `--fail-on` first, each in the order given.
    package var rules: [ThresholdRule]

    /// Creates a check.
    package init(rules: [ThresholdRule]) {
        self.rules = rules
    }

    /// Parses the `--fail-on` and `--warn-on` values against `catalog`; the first bad rule is a usage error.
    package static func parse(failOn: [String], warnOn: [String], catalog: ThresholdFigures.Catalog) throws(ASNError)
        -> ThresholdCheck
    {
        var rules: [ThresholdRule] = []
        for text in failOn { rules.append(try ThresholdRule.parse(text, severity: .fail, figures: catalog)) }
        for text in warnOn { rules.append(try ThresholdRule.parse(text, severity: .warn, figures: catalog)) }
        return ThresholdCheck(rules: rules)
    }

    /// Whether any `--fail-on` rule was given (then exit 1 means a crossed error threshold and nothing else).
    package var decidesFindings: Bool {
        rules.contains { $0.severity == .fail }
    }

    /// The rules `figures` cross, in rule order.
    package func crossings(_ figures: ThresholdFigures) -> [Crossing] {
        rules.compactMap { rule in
            let value = figures.value(for: rule)
            guard rule.comparison.holds(value, rule.limit) else { return nil }
            let denominator = rule.isPercent ? figures.catalog.denominators[rule.figure].map(figures.count) : nil
            return Crossing(rule: rule, value: value, count: figures.count(rule.figure), denominator: denominator)
        }
    }

    /// The rules given, and the crossings of each severity.
    package func counts(_ crossings: [Crossing]) -> ReconciliationSummary.ThresholdCounts {
        .init(
            checked: rules.count, warned: crossings.filter { $0.rule.severity == .warn }.count,
            failed: crossings.filter { $0.rule.severity == .fail }.count)
    }

    /// The exit status with thresholds applied to `base` (the status without them): without `--fail-on` rules the
    /// base stands; with them, 1 means a crossed error threshold and nothing else (0, 2, 3 stay as they are).
    package func status(base: ExitStatus, crossings: [Crossing]) -> ExitStatus {
        guard decidesFindings, base == .success || base == .findings else { return base }
        return crossings.contains { $0.rule.severity == .fail } ? .findings : .success
    }

    /// The run's verdict for its last console line when `status` is 0 or 1: what was `found` (nil: `nothing`) and,
    /// with `--fail-on` rules, how many were crossed; nil for other statuses, whose lines above say why.
    package func verdict(
        _ status: ExitStatus, found: String?, nothing: String = "no differences and no rejects", crossings: [Crossing]
    ) -> String? {
        let crossed = crossings.filter { $0.rule.severity == .fail }.count
        switch status {
        case .success:
            guard let found else { return nothing }
            return "\(found), no --fail-on rule crossed"
        case .findings:
            guard decidesFindings else { return found }
            return "\(crossed) --fail-on rule(s) crossed" + (found.map { " (\($0))" } ?? "")
        default:
            return nil
        }
    }
}
