/// What comparing the V1 archive's transactions with Apple's API view found: difference rows and summary figures.
public struct TransactionComparison: Sendable {
    /// `transaction_*`, `unannounced_in_v1` and status `state_mismatch` rows, unsorted.
    public var differences: [Discrepancy]
    /// The summary rows appended to `summary.csv`, in order.
    public var metrics: [(String, String)]

    /// Creates a comparison result.
    public init(differences: [Discrepancy], metrics: [(String, String)]) {
        self.differences = differences
        self.metrics = metrics
    }

    /// The integer value of one metric (0 when absent).
    public func count(_ name: String) -> Int {
        metrics.first { $0.0 == name }.flatMap { Int($0.1) } ?? 0
    }
}
