/// The figures a run's threshold rules are judged on: counts by name, and which count each percentage is taken of.
package struct ThresholdFigures: Sendable, Equatable {
    /// The names a command accepts in a rule, and each name's denominator (the figure a percentage is of).
    package struct Catalog: Sendable, Equatable {
        /// Every name a rule may use.
        package var names: Set<String>
        /// Name → the name of the figure its percentage is taken of; names missing here take counts only.
        package var denominators: [String: String]

        /// Creates a catalog.
        package init(names: Set<String>, denominators: [String: String]) {
            self.names = names
            self.denominators = denominators
        }
    }

    /// The run's counts by name (a name absent here counts 0).
    package var counts: [String: Int]
    /// The catalog the rules were parsed against.
    package var catalog: Catalog

    /// Creates the figures.
    package init(counts: [String: Int], catalog: Catalog) {
        self.counts = counts
        self.catalog = catalog
    }

    /// The count of `name` (0 when the run had none).
    package func count(_ name: String) -> Int {
        counts[name] ?? 0
    }

    /// The value a rule compares: the count, or the count as a percentage of its denominator (0 when that is 0).
    package func value(for rule: ThresholdRule) -> Double {
        let count = Double(count(rule.figure))
        guard rule.isPercent else { return count }
        guard let denominator = catalog.denominators[rule.figure] else { return count }
        let of = Double(self.count(denominator))
        return of > 0 ? count / of * 100 : 0
    }

    // MARK: - reconcile

    /// `reconcile`'s catalog: every difference kind, every whole-number `summary.csv` figure, and `rejects`.
    package static let reconcile: Catalog = {
        var summary = ReconciliationSummary()
        summary.transactions = .init(
            notificationsCompared: false, v1NotificationsNotCompared: 0, comparison: TransactionSummary())
        summary.v2Unverified = 0
        let numeric = ReconciliationReport.summaryRows(summary).filter { SummaryJSON.isCount($0.value) }.map(\.name)
        let names = Set(numeric + Discrepancy.Kind.allCases.map(\.rawValue) + ["rejects", "records_read"])
        return Catalog(names: names, denominators: reconcileDenominators.filter { names.contains($0.key) })
    }()

    /// What a `reconcile` percentage is of: a V1 figure of V1 records read, a V2 figure of V2 records read,
    /// `state_mismatch` of subscriptions compared, transaction figures of their side's transactions, `rejects` of
    /// all records read.
    static let reconcileDenominators: [String: String] = {
        var of: [String: String] = [
            "rejects": "records_read",
            "matched": "v1_records_read", "type_mismatch": "v1_records_read", "missing_in_v2": "v1_records_read",
            "field_mismatch": "v1_records_read", "unmapped_v1": "v1_records_read", "pending_in_v2": "v1_records_read",
            "missing_in_v1": "v2_records_read", "conflicting_duplicate_v2": "v2_records_read",
            "pending_in_v1": "v2_records_read",
            "v2_only_expected": "v2_records_read",
            "state_mismatch": "subscriptions_compared",
            "transaction_missing_in_v2": "v1_transactions", "unannounced_in_v1": "v1_transactions",
            "not_fetched": "v1_transactions",
            "transaction_missing_in_v1": "v2_transactions", "v2_only_expected_transactions": "v2_transactions",
            "transaction_field_mismatch": "matched_transactions",
            "status_state_mismatch": "statuses_compared"
        ]
        for side in ["v1", "v2"] {
            for figure in ["rejected", "duplicates", "out_of_period", "unmapped", "companion", "pending", "unverified"]
            {
                of["\(side)_\(figure)"] = "\(side)_records_read"
            }
        }
        return of
    }()

    /// A `reconcile` run's figures: its `summary.csv` counts, then difference rows per kind for the kinds the summary
    /// does not count (a summary figure wins: `state_mismatch` counts subscriptions, so its percentage is of
    /// `subscriptions_compared`), `rejects` (both sides) and `records_read` (both sides).
    package static func reconcile(_ result: ReconciliationResult) -> ThresholdFigures {
        var counts: [String: Int] = [:]
        for row in ReconciliationReport.summaryRows(result.summary) where SummaryJSON.isCount(row.value) {
            counts[row.name] = Int(row.value) ?? 0
        }
        var byKind: [String: Int] = [:]
        for d in result.differences { byKind[d.kind.rawValue, default: 0] += 1 }
        for d in result.pending { byKind[d.kind.rawValue, default: 0] += 1 }
        for kind in Discrepancy.Kind.allCases where counts[kind.rawValue] == nil {
            counts[kind.rawValue] = byKind[kind.rawValue] ?? 0
        }
        counts["rejects"] = result.summary.v1Rejected + result.summary.v2Rejected
        counts["records_read"] = (counts["v1_records_read"] ?? 0) + (counts["v2_records_read"] ?? 0)
        return ThresholdFigures(counts: counts, catalog: reconcile)
    }
}
