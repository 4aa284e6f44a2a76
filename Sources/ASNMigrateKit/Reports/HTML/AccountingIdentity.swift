/// One accounting identity of a summary, by metric names: `total` equals the sum of `terms` (README, `summary.csv`).
///
/// Declared once per report kind and evaluated over the very rows `summary.csv` is written from, so `report.html`
/// shows whether each holds without computing any figure again.
struct AccountingIdentity: Sendable, Equatable {
    /// The metric that counts the whole.
    var total: String
    /// The metrics that add up to it; a term the summary does not have (a figure only some runs write) is left out.
    var terms: [String]

    /// The identity as it applies to `metrics`: nil when the summary lacks the total, else the terms it has.
    func applying(to metrics: [(String, String)]) -> Evaluated? {
        let values = Dictionary(metrics.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        guard let total = values[total].flatMap({ Int($0) }) else { return nil }
        let present = terms.compactMap { name in values[name].flatMap { Int($0) }.map { (name, $0) } }
        return Evaluated(total: self.total, value: total, terms: present)
    }

    /// An identity with the summary's values.
    struct Evaluated: Sendable, Equatable {
        /// The total's metric name.
        var total: String
        /// The total's value.
        var value: Int
        /// The terms present, with their values.
        var terms: [(name: String, value: Int)]

        /// The sum of the terms.
        var sum: Int { terms.reduce(0) { $0 + $1.value } }
        /// Whether the total equals the sum.
        var holds: Bool { value == sum }

        /// Equal names and values.
        static func == (a: Evaluated, b: Evaluated) -> Bool {
            a.total == b.total && a.value == b.value && a.terms.map(\.name) == b.terms.map(\.name)
                && a.terms.map(\.value) == b.terms.map(\.value)
        }
    }

    /// `reconcile`'s identities (Reports/README.md, `summary.csv`).
    static let reconcile: [AccountingIdentity] = [
        .init(
            total: "v1_records_read",
            terms: [
                "v1_rejected", "v1_duplicates", "v1_out_of_period", "v1_unmapped", "v1_companion", "matched",
                "type_mismatch", "missing_in_v2", "v1_pending", "v1_notifications_not_compared"
            ]),
        .init(
            total: "v2_records_read",
            terms: [
                "v2_rejected", "v2_duplicates", "v2_out_of_period", "v2_only_expected", "matched",
                "type_mismatch", "missing_in_v1", "v2_pending", "v2_transactions_read", "statuses_read"
            ]),
        .init(
            total: "v1_transactions",
            terms: [
                "matched_transactions", "transaction_missing_in_v2", "not_fetched",
                "v1_transactions_out_of_period", "v1_transactions_pending"
            ]),
        .init(
            total: "v2_transactions",
            terms: [
                "matched_transactions", "transaction_missing_in_v1", "v2_only_expected_transactions",
                "v2_transactions_out_of_period", "v2_transactions_pending"
            ]),
        .init(total: "v2_transactions_read", terms: ["v2_transactions", "v2_transaction_duplicates"])
    ]

    /// `nightly`'s identities (Reports/README.md, Nightly reports).
    static let nightly: [AccountingIdentity] = [
        .init(
            total: "v1_records_read",
            terms: ["v1_records_stored", "v1_duplicates", "v1_other_environment", "v1_rejected"]),
        .init(
            total: "v2_records_read",
            terms: ["v2_records_stored", "v2_duplicates", "v2_other_environment", "v2_rejected"]),
        .init(
            total: "differences_resolved",
            terms: ["resolved_by_late_record", "resolved_by_corrected_record", "resolved_by_rule"]),
        .init(total: "differences_open", terms: Discrepancy.Kind.allCases.map { "open_\($0.rawValue)" })
    ]
}
