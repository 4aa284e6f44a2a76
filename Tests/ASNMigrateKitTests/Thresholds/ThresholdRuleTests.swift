import Testing

@testable import ASNMigrateKit

/// Parsing `--fail-on` / `--warn-on` rules: operators, counts and percentages, and the usage errors of bad rules.
@Suite struct ThresholdRuleTests {
    private func parse(_ text: String, _ severity: ThresholdRule.Severity = .fail) throws -> ThresholdRule {
        try ThresholdRule.parse(text, severity: severity, figures: ThresholdFigures.reconcile)
    }

    @Test(arguments: [
        ("missing_in_v2>0", "missing_in_v2", ThresholdRule.Comparison.above, 0.0, false),
        ("state_mismatch>0.5%", "state_mismatch", .above, 0.5, true),
        ("transaction_missing_in_v1>=10", "transaction_missing_in_v1", .atLeast, 10, false),
        ("rejects > 0.1%", "rejects", .above, 0.1, true),
        ("matched<=3", "matched", .atMost, 3, false),
        ("v1_records_read<1", "v1_records_read", .below, 1, false),
        ("unmapped_v1==0", "unmapped_v1", .equal, 0, false)
    ])
    func parsesEveryOperator(
        text: String, figure: String, comparison: ThresholdRule.Comparison, limit: Double, percent: Bool
    ) throws {
        let rule = try parse(text)
        #expect(
            rule.figure == figure && rule.comparison == comparison && rule.limit == limit && rule.isPercent == percent)
        #expect(rule.text == text && rule.severity == .fail)
    }

    @Test func anUnknownFigureSuggestsTheNearestName() {
        #expect { try parse("mising_in_v2>0") } throws: { error in
            let e = error as? ASNError
            return e?.code == .usage && e?.message.contains("unknown figure 'mising_in_v2'") == true
                && e?.message.contains("did you mean 'missing_in_v2'?") == true
        }
    }

    @Test(arguments: [
        "missing_in_v2", "missing_in_v2>", "missing_in_v2>abc", "missing_in_v2=>1", ">1", "missing_in_v2>-1",
        "missing_in_v2!=1", "missing_in_v2>0x10", "missing_in_v2>1e3", "missing_in_v2>inf"
    ])
    func malformedRulesAreUsageErrors(text: String) {
        #expect { try parse(text, .warn) } throws: { error in
            let e = error as? ASNError
            return e?.code == .usage && e?.message.hasPrefix("option '--warn-on'") == true
        }
    }

    @Test func aPercentageOfAFigureWithoutDenominatorIsRefused() {
        #expect { try parse("window_ms>1%") } throws: { error in
            (error as? ASNError)?.message.contains("has no denominator") == true
        }
    }

    @Test func everyDifferenceKindAndSummaryCountIsAName() {
        let names = ThresholdFigures.reconcile.names
        for kind in Discrepancy.Kind.allCases { #expect(names.contains(kind.rawValue)) }
        for name in [
            "v1_records_read", "v2_records_read", "subscriptions_compared", "statuses_compared", "rejects",
            "time_precision_rows"
        ] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(!names.contains("period_start"), "dates are not counts")
        for (name, of) in ThresholdFigures.reconcile.denominators {
            #expect(names.contains(name) && names.contains(of), "\(name) of \(of)")
        }
        for (name, of) in ThresholdFigures.nightly.denominators {
            #expect(
                ThresholdFigures.nightly.names.contains(name) && ThresholdFigures.nightly.names.contains(of),
                "\(name) of \(of)")
        }
    }
}
