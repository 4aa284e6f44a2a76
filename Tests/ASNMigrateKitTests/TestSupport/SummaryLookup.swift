@testable import ASNMigrateKit

/// Looks figures up by their `summary.csv` name, through the report renderer, so tests read what the report writes.
extension ReconciliationResult {
    /// The `summary.csv` rows as the report renders them.
    var metrics: [(String, String)] { ReconciliationReport.summaryRows(summary).map { ($0.name, $0.value) } }

    /// The rendered value of one metric.
    func metric(_ name: String) -> String? {
        metrics.first { $0.0 == name }?.1
    }

    /// The integer value of one metric (0 when absent).
    func count(_ name: String) -> Int {
        metric(name).flatMap { Int($0) } ?? 0
    }
}

extension TransactionComparison {
    /// The rows this comparison adds to `summary.csv`, as the report renders them.
    var metrics: [(String, String)] {
        var summary = ReconciliationSummary()
        summary.transactions = .init(
            notificationsCompared: true, v1NotificationsNotCompared: nil, comparison: self.summary)
        let base = Set(ReconciliationReport.summaryRows(ReconciliationSummary()).map(\.name))
        return ReconciliationReport.summaryRows(summary).filter { !base.contains($0.name) }.map { ($0.name, $0.value) }
    }

    /// The integer value of one metric (0 when absent).
    func count(_ name: String) -> Int {
        metrics.first { $0.0 == name }.flatMap { Int($0.1) } ?? 0
    }
}
