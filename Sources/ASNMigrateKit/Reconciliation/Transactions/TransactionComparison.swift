/// What comparing the V1 archive's transactions with Apple's API view found: difference rows and summary figures.
public struct TransactionComparison: Sendable {
    /// `transaction_*`, `unannounced_in_v1` and status `state_mismatch` rows, unsorted.
    public var differences: [Discrepancy]
    /// The figures appended to `summary.csv` (named and formatted by `ReconciliationReport`).
    public var summary: TransactionSummary
    /// The V2 transactions' prices of the subscriptions the differences name (`report.html`'s value at stake).
    public var prices = V2PriceList()

    /// Creates a comparison result.
    public init(differences: [Discrepancy], summary: TransactionSummary) {
        self.differences = differences
        self.summary = summary
    }
}
