import Testing

@testable import ASNMigrateKit

/// Judging figures against rules: values, percentages of their denominators, crossing lines and exit statuses.
@Suite struct ThresholdCheckTests {
    private let figures = ThresholdFigures(
        counts: [
            "missing_in_v2": 3, "v1_records_read": 200, "state_mismatch": 1,
            "subscriptions_compared": 50, "rejects": 0, "records_read": 400
        ],
        catalog: ThresholdFigures.reconcile)

    private func check(fail: [String] = [], warn: [String] = []) throws -> ThresholdCheck {
        try ThresholdCheck.parse(failOn: fail, warnOn: warn, catalog: ThresholdFigures.reconcile)
    }

    @Test func countsAndPercentagesAreJudged() throws {
        let c = try check(
            fail: ["missing_in_v2>2", "missing_in_v2>3", "state_mismatch>1%", "state_mismatch>3%"],
            warn: ["rejects>=0", "missing_in_v2>=1.5%"])
        let crossed = c.crossings(figures)
        #expect(
            crossed.map(\.rule.text) == ["missing_in_v2>2", "state_mismatch>1%", "rejects>=0", "missing_in_v2>=1.5%"])
        #expect(crossed[1].value == 2 && crossed[1].denominator == 50)
        #expect(
            crossed[1].line
                == "error: threshold --fail-on 'state_mismatch>1%' crossed: state_mismatch is 2% (1 of 50), threshold > 1%"
        )
        #expect(
            crossed[0].line == "error: threshold --fail-on 'missing_in_v2>2' crossed: missing_in_v2 is 3, threshold > 2"
        )
        #expect(crossed[2].line.hasPrefix("warning: threshold --warn-on 'rejects>=0' crossed"))
        #expect(c.counts(crossed) == .init(checked: 6, warned: 2, failed: 2))
    }

    @Test func aPercentageOfNothingIsZero() throws {
        let empty = ThresholdFigures(counts: [:], catalog: ThresholdFigures.reconcile)
        #expect(try check(fail: ["state_mismatch>0%"]).crossings(empty).isEmpty)
    }

    @Test func withAFailRuleExitOneMeansACrossedRuleOnly() throws {
        let fail = try check(fail: ["missing_in_v2>5"])
        #expect(fail.status(base: .findings, crossings: []) == .success, "differences that cross no rule exit 0")
        let crossed = try check(fail: ["missing_in_v2>2"])
        #expect(crossed.status(base: .findings, crossings: crossed.crossings(figures)) == .findings)
        #expect(crossed.status(base: .success, crossings: crossed.crossings(figures)) == .findings)
        #expect(crossed.status(base: .sanityCheckFailed, crossings: crossed.crossings(figures)) == .sanityCheckFailed)
        let warnOnly = try check(warn: ["missing_in_v2>2"])
        #expect(
            warnOnly.status(base: .findings, crossings: warnOnly.crossings(figures)) == .findings,
            "warnings alone keep today's status")
        #expect(warnOnly.status(base: .success, crossings: warnOnly.crossings(figures)) == .success)
    }

    @Test func nightlyFiguresCountTheNightsNewItems() throws {
        let night = ThresholdFigures.nightly(
            metrics: [
                ("v1_records_read", "10"), ("v2_records_read", "10"), ("rejected", "1"), ("period_start", "2021-01-01")
            ],
            new: [.missingInV2, .missingInV2, .fieldMismatch])
        #expect(
            night.count("missing_in_v2") == 2 && night.count("field_mismatch") == 1 && night.count("missing_in_v1") == 0
        )
        #expect(night.count("rejects") == 1 && night.count("records_read") == 20)
        let rule = try ThresholdRule.parse("rejects>=5%", severity: .fail, figures: ThresholdFigures.nightly)
        #expect(night.value(for: rule) == 5)
    }
}
