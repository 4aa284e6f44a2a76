/// Joining the transaction comparison to a notification result, for runs whose V2 side holds App Store Server API records.
extension ReconciliationResult {
    /// This result with the transaction comparison's rows and figures added.
    ///
    /// When `notificationsCompared` is false (the V2 side held no notifications), the notification comparison did not
    /// take place: its difference rows (other than `unmapped_v1` and `conflicting_duplicate_v2`) and subscription rows
    /// are dropped, the figures of V1 records judged against notifications are set to 0 and their sum is
    /// `v1_notifications_not_compared`. The report renders the added figures after the notification ones, so a reader
    /// of notification runs keeps working.
    package func adding(_ comparison: TransactionComparison, notificationsCompared: Bool) -> ReconciliationResult {
        var result = self
        var notCompared: Int?
        if !notificationsCompared {
            notCompared = summary.notificationJudgedV1Records
            result.summary.matched = 0
            result.summary.typeMismatch = 0
            result.summary.missingInV2 = 0
            result.summary.v1Pending = 0
            result.summary.v1Companion = 0
            result.summary.v1OutOfPeriod = 0
            result.summary.missingInV1 = 0
            result.summary.fieldMismatch = 0
            result.summary.stateMismatch = 0
            result.summary.subscriptionsCompared = 0
            result.differences = differences.filter { $0.kind == .unmappedV1 || $0.kind == .conflictingDuplicateV2 }
            result.pending = []
            result.subscriptions = []
        }
        // Every V2 record read counts in v2_records_read, API records too (their rejects are already in v2_rejected).
        result.summary.v2RecordsRead += comparison.summary.v2TransactionsRead + comparison.summary.statuses.statusesRead
        result.summary.transactions = .init(
            notificationsCompared: notificationsCompared, v1NotificationsNotCompared: notCompared,
            comparison: comparison.summary)
        result.differences += comparison.differences
        result.prices.merge(comparison.prices)
        result.differences = result.prices.priced(result.differences)
        result.differences.sort(by: Discrepancy.reportOrder)
        return result
    }
}
