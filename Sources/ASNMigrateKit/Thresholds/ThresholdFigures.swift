/// The figures a run's threshold rules are judged on: counts by name, and which count each percentage is taken of.
public struct ThresholdFigures: Sendable, Equatable {
    /// The names a command accepts in a rule, and each name's denominator (the figure a percentage is of).
    public struct Catalog: Sendable, Equatable {
        /// Every name a rule may use.
        public var names: Set<String>
        /// Name → the name of the figure its percentage is taken of; names missing here take counts only.
        public var denominators: [String: String]

        /// Creates a catalog.
        public init(names: Set<String>, denominators: [String: String]) {
            self.names = names
            self.denominators = denominators
        }
    }

    /// The run's counts by name (a name absent here counts 0).
    public var counts: [String: Int]
    /// The catalog the rules were parsed against.
    public var catalog: Catalog

    /// Creates the figures.
    public init(counts: [String: Int], catalog: Catalog) {
        self.counts = counts
        self.catalog = catalog
    }

    /// The count of `name` (0 when the run had none).
    public func count(_ name: String) -> Int {
        counts[name] ?? 0
    }

    /// The value a rule compares: the count, or the count as a percentage of its denominator (0 when that is 0).
    public func value(for rule: ThresholdRule) -> Double {
        let count = Double(count(rule.figure))
        guard rule.isPercent else { return count }
        guard let denominator = catalog.denominators[rule.figure] else { return count }
        let of = Double(self.count(denominator))
        return of > 0 ? count / of * 100 : 0
    }

    // MARK: - reconcile

    /// `reconcile`'s catalog: every difference kind, every whole-number `summary.csv` figure, and `rejects`.
    public static let reconcile: Catalog = {
        var summary = ReconciliationSummary()
        summary.transactions = .init(notificationsCompared: false, v1NotificationsNotCompared: 0, comparison: TransactionSummary())
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
            "missing_in_v1": "v2_records_read", "conflicting_duplicate_v2": "v2_records_read", "pending_in_v1": "v2_records_read",
            "v2_only_expected": "v2_records_read",
            "state_mismatch": "subscriptions_compared",
            "transaction_missing_in_v2": "v1_transactions", "unannounced_in_v1": "v1_transactions", "not_fetched": "v1_transactions",
            "transaction_missing_in_v1": "v2_transactions", "v2_only_expected_transactions": "v2_transactions",
            "transaction_field_mismatch": "matched_transactions",
            "status_state_mismatch": "statuses_compared",
        ]
        for side in ["v1", "v2"] {
            for figure in ["rejected", "duplicates", "out_of_period", "unmapped", "companion", "pending", "unverified"] {
                of["\(side)_\(figure)"] = "\(side)_records_read"
            }
        }
        return of
    }()

    /// A `reconcile` run's figures: its `summary.csv` counts, then difference rows per kind for the kinds the summary
    /// does not count (a summary figure wins: `state_mismatch` counts subscriptions, so its percentage is of
    /// `subscriptions_compared`), `rejects` (both sides) and `records_read` (both sides).
    public static func reconcile(_ result: ReconciliationResult) -> ThresholdFigures {
        var counts: [String: Int] = [:]
        for row in ReconciliationReport.summaryRows(result.summary) where SummaryJSON.isCount(row.value) {
            counts[row.name] = Int(row.value) ?? 0
        }
        var byKind: [String: Int] = [:]
        for d in result.differences { byKind[d.kind.rawValue, default: 0] += 1 }
        for d in result.pending { byKind[d.kind.rawValue, default: 0] += 1 }
        for kind in Discrepancy.Kind.allCases where counts[kind.rawValue] == nil { counts[kind.rawValue] = byKind[kind.rawValue] ?? 0 }
        counts["rejects"] = result.summary.v1Rejected + result.summary.v2Rejected
        counts["records_read"] = (counts["v1_records_read"] ?? 0) + (counts["v2_records_read"] ?? 0)
        return ThresholdFigures(counts: counts, catalog: reconcile)
    }

    // MARK: - nightly

    /// `nightly`'s catalog: every difference kind (counted in the night's `new.csv`), every whole-number
    /// `summary.csv` figure of a night, and `rejects`.
    public static let nightly: Catalog = {
        let names = Set(nightlySummaryNames + Discrepancy.Kind.allCases.map(\.rawValue) + ["rejects", "records_read"])
        var of: [String: String] = ["rejects": "records_read", "v1_rejected": "v1_records_read", "v2_rejected": "v2_records_read"]
        for kind in Discrepancy.Kind.allCases { of[kind.rawValue] = "differences_open" }
        for name in ["missing_in_v2", "type_mismatch", "field_mismatch", "unmapped_v1", "transaction_missing_in_v2", "unannounced_in_v1"] {
            of[name] = "v1_records_read"
        }
        for name in ["missing_in_v1", "conflicting_duplicate_v2", "transaction_missing_in_v1"] { of[name] = "v2_records_read" }
        of["state_mismatch"] = "differences_open"
        return Catalog(names: names, denominators: of)
    }()

    /// The whole-number figures of a nightly `summary.csv` (`NightlyReport.collect`).
    static var nightlySummaryNames: [String] {
        NightlyStore.summedRunColumns + ["differences_new", "differences_resolved", "resolved_by_late_record", "resolved_by_corrected_record",
                                         "resolved_by_rule", "differences_open"]
            + Discrepancy.Kind.allCases.map { "open_\($0.rawValue)" }
            + ["pending", "rejected", "v1_records_in_state", "v2_records_in_state", "files_in_ledger", "window_ms", "settle_ms"]
    }

    /// A night's figures: its `summary.csv` counts, the night's new differences per kind, `rejects` and `records_read`.
    public static func nightly(metrics: [(String, String)], new: [Discrepancy.Kind]) -> ThresholdFigures {
        var counts: [String: Int] = [:]
        for (name, value) in metrics where SummaryJSON.isCount(value) { counts[name] = Int(value) ?? 0 }
        for kind in Discrepancy.Kind.allCases { counts[kind.rawValue] = 0 }
        for kind in new { counts[kind.rawValue, default: 0] += 1 }
        counts["rejects"] = counts["rejected"] ?? 0
        counts["records_read"] = (counts["v1_records_read"] ?? 0) + (counts["v2_records_read"] ?? 0)
        return ThresholdFigures(counts: counts, catalog: nightly)
    }
}
