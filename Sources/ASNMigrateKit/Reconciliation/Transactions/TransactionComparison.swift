/// What comparing the V1 archive's transactions with Apple's API view found: difference rows and summary figures.
package struct TransactionComparison: Sendable {
    /// `transaction_*`, `unannounced_in_v1` and status `state_mismatch` rows, unsorted.
    package var differences: [Discrepancy]
    /// The figures appended to `summary.csv` (named and formatted by `ReconciliationReport`).
    package var summary: TransactionSummary
    /// The V2 transactions' prices of the subscriptions the differences name (`report.html`'s value at stake).
    package var prices = V2PriceList()

    /// Creates a comparison result.
    package init(differences: [Discrepancy], summary: TransactionSummary) {
        self.differences = differences
        self.summary = summary
    }
}
