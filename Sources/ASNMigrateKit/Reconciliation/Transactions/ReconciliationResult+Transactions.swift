/// Joining the transaction comparison to a notification result, for runs whose V2 side holds App Store Server API records.
extension ReconciliationResult {
    /// The notification figures that count V1 records judged against V2 notifications.
    static let notificationJudgedMetrics = ["matched", "type_mismatch", "missing_in_v2", "v1_pending", "v1_companion", "v1_out_of_period"]

    /// This result with the transaction comparison's rows and figures added.
    ///
    /// When `notificationsCompared` is false (the V2 side held no notifications), the notification comparison did not
    /// take place: its difference rows (other than `unmapped_v1`) and subscription rows are dropped, the figures of V1
    /// records judged against notifications are set to 0 and their sum is `v1_notifications_not_compared`.
    /// Rows are only appended to `summary.csv`, so a reader of notification runs keeps working.
    public func adding(_ comparison: TransactionComparison, notificationsCompared: Bool) -> ReconciliationResult {
        var result = self
        var metrics = self.metrics
        var notCompared = 0
        if !notificationsCompared {
            for index in metrics.indices where Self.notificationJudgedMetrics.contains(metrics[index].0) {
                notCompared += Int(metrics[index].1) ?? 0
                metrics[index].1 = "0"
            }
            for index in metrics.indices where ["missing_in_v1", "field_mismatch", "state_mismatch", "subscriptions_compared"].contains(metrics[index].0) {
                metrics[index].1 = "0"
            }
            result.differences = differences.filter { $0.kind == .unmappedV1 || $0.kind == .conflictingDuplicateV2 }
            result.pending = []
            result.subscriptions = []
        }
        // The run's facts and the rejects by cause stay the last rows of summary.csv.
        let runFacts = metrics.firstIndex { $0.0 == "run_date" } ?? metrics.endIndex
        var added: [(String, String)] = []
        if !notificationsCompared { added.append(("v1_notifications_not_compared", String(notCompared))) }
        added.append(("notifications_compared", notificationsCompared ? "yes" : "no"))
        added.append(("transactions_compared", "yes"))
        added += comparison.metrics
        metrics.insert(contentsOf: added, at: runFacts)
        result.metrics = metrics
        result.differences += comparison.differences
        result.differences.sort(by: Discrepancy.reportOrder)
        return result
    }

    /// The console lines about the transaction comparison (empty when transactions were not compared).
    public var transactionConsoleLines: [String] {
        guard metric("transactions_compared") == "yes" else { return [] }
        let m = { (name: String) in self.metric(name) ?? "" }
        var lines = [
            "  transactions compared with Apple's App Store Server API view\(m("notifications_compared") == "no" ? " (no V2 notifications: notifications not compared)" : ""): period \(m("transaction_period_start")) .. \(m("transaction_period_end"))",
            "  V1 transactions \(m("v1_transactions")): matched \(m("matched_transactions")), transaction_missing_in_v2 \(m("transaction_missing_in_v2")), not_fetched \(m("not_fetched")), "
                + "out_of_period \(m("v1_transactions_out_of_period")), pending \(m("v1_transactions_pending")); unannounced_in_v1 \(m("unannounced_in_v1"))",
            "  V2 transactions \(m("v2_transactions")): matched \(m("matched_transactions")), transaction_missing_in_v1 \(m("transaction_missing_in_v1")), "
                + "v2_only_expected \(m("v2_only_expected_transactions")), out_of_period \(m("v2_transactions_out_of_period")), pending \(m("v2_transactions_pending")), duplicates \(m("v2_transaction_duplicates"))",
            "  transaction_field_mismatch \(m("transaction_field_mismatch")); statuses compared \(m("statuses_compared")) of \(m("statuses_read")), state_mismatch in \(m("status_state_mismatch"))",
        ]
        if count("statuses_as_of_v1_end") > 0 {
            lines.append("  note: the V1 archive ends (\(m("v1_archive_end"))) before the statuses were fetched; \(m("statuses_as_of_v1_end")) status(es) compared as of the archive's end")
        }
        return lines
    }
}
