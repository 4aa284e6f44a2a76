/// `report.html` of a `reconcile` run.
extension HTMLReport {
    /// The headline figures of a `reconcile` run, in order (those its summary has).
    static let reconcileHeadline = [
        "v1_records_read", "v2_records_read", "matched", "missing_in_v2", "missing_in_v1", "type_mismatch",
        "field_mismatch",
        "state_mismatch", "subscriptions_compared", "conflicting_duplicate_v2", "v1_unmapped", "v1_pending",
        "v2_pending",
        "v1_rejected", "v2_rejected", "matched_transactions", "transaction_missing_in_v2", "transaction_missing_in_v1",
        "transaction_field_mismatch", "unannounced_in_v1", "statuses_compared", "status_state_mismatch"
    ]

    /// The page of a `reconcile` result: its `summary.csv` rows, its `differences.csv` rows and its V2 prices.
    package static func reconcile(_ result: ReconciliationResult) -> HTMLReport {
        let metrics = ReconciliationReport.summaryRows(result.summary).map { ($0.name, $0.value) }
        let value = { (name: String) in metrics.first { $0.0 == name }?.1 ?? "" }
        var facts = [("run date", value("run_date")), ("period", "\(value("period_start")) .. \(value("period_end"))")]
        if result.summary.transactions != nil {
            facts.append(
                ("transaction period", "\(value("transaction_period_start")) .. \(value("transaction_period_end"))"))
        }
        facts.append(("report files", ReconciliationReport.fileNames.joined(separator: ", ")))
        return HTMLReport(
            title: "asn-migrate reconcile: \(value("run_date"))", facts: facts, headline: reconcileHeadline,
            metrics: metrics,
            identities: AccountingIdentity.reconcile, rows: result.differences, rowsFile: "differences.csv",
            prices: result.prices)
    }
}
