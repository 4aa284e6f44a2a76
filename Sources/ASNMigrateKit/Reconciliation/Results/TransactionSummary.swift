/// The figures of comparing the V1 archive's transactions with Apple's API view, as numbers (rendered by
/// `ReconciliationReport`).
package struct TransactionSummary: Sendable, Equatable {
    /// V1 transactions, one per environment + transactionId (`v1_transactions`).
    package var v1Transactions = 0
    /// Paired transactions (`matched_transactions`).
    package var matchedTransactions = 0
    /// V1 transactions without a V2 partner (`transaction_missing_in_v2`).
    package var transactionMissingInV2 = 0
    /// V1 transactions of customers with no V2 transaction (`not_fetched`).
    package var notFetched = 0
    /// V1 transactions outside the period (`v1_transactions_out_of_period`).
    package var v1TransactionsOutOfPeriod = 0
    /// V1 transactions whose partner could lie beyond the V2 data (`v1_transactions_pending`).
    package var v1TransactionsPending = 0
    /// V1 receipt entries that carry no transactionId (`v1_receipt_entries_without_transaction_id`).
    package var v1ReceiptEntriesWithoutTransactionId = 0
    /// V2 transaction records read, copies included (`v2_transactions_read`).
    package var v2TransactionsRead = 0
    /// V2 transaction copies beyond the first (`v2_transaction_duplicates`).
    package var v2TransactionDuplicates = 0
    /// V2 transactions, de-duplicated (`v2_transactions`).
    package var v2Transactions = 0
    /// V2 transactions without a V1 partner (`transaction_missing_in_v1`).
    package var transactionMissingInV1 = 0
    /// V2 transactions V1 is not expected to have (`v2_only_expected_transactions`).
    package var v2OnlyExpectedTransactions = 0
    /// V2 transactions outside the period (`v2_transactions_out_of_period`).
    package var v2TransactionsOutOfPeriod = 0
    /// V2 transactions whose partner could lie beyond the V1 data (`v2_transactions_pending`).
    package var v2TransactionsPending = 0
    /// Pairs made through a restored copy's webOrderLineItemId (`restored_copies`).
    package var restoredCopies = 0
    /// `transaction_field_mismatch` rows (`transaction_field_mismatch`).
    package var transactionFieldMismatch = 0
    /// Differing items of paired transactions that one side learnt after the other side's data ends (a later refund,
    /// upgrade or renewal extension), not reported (`transaction_fields_after_data_end`).
    package var transactionFieldsAfterDataEnd = 0
    /// `unannounced_in_v1` rows (`unannounced_in_v1`).
    package var unannouncedInV1 = 0
    /// The transaction period's first instant, epoch ms; nil when open (`transaction_period_start`).
    package var periodStart: Int64?
    /// The transaction period's last instant, epoch ms; nil when open (`transaction_period_end`).
    package var periodEnd: Int64?
    /// The subscription status comparison's figures.
    package var statuses = StatusSummary()
    /// With `--switch`: Apple's transactions from the switch on, judged against the V2 notifications.
    package var afterSwitch: AfterSwitch?

    /// With `--switch`: how Apple's transactions from the switch on fared against the V2 notifications (those missing
    /// count in `transactionMissingInV2`, those beyond the notifications' reach in `v2TransactionsPending`).
    package struct AfterSwitch: Sendable, Equatable {
        /// Apple's transactions of a switched environment purchased from its switch on (`v2_transactions_after_switch`).
        package var transactions = 0
        /// Of those, carried by a V2 notification (`v2_transactions_notified`).
        package var notified = 0
        /// Of those, one-time purchases not refunded from the switch on, which V2 does not notify
        /// (`v2_transactions_not_notified_by_design`).
        package var notNotifiedByDesign = 0
        /// Statuses of a switched environment fetched more than the window after its V2 notifications end, not
        /// compared (`statuses_after_v2_end`).
        package var statusesAfterV2End = 0

        /// Nothing counted.
        package init() {}
    }

    /// An empty summary.
    package init() {}

    /// The figures of comparing subscription statuses (`SubscriptionStatusComparison`).
    package struct StatusSummary: Sendable, Equatable {
        /// Statuses read (`statuses_read`).
        package var statusesRead = 0
        /// Statuses read again: the same subscription at the same fetch time (`statuses_duplicates`), compared once.
        package var statusesDuplicates = 0
        /// Statuses compared (`statuses_compared`).
        package var statusesCompared = 0
        /// Statuses whose subscription has no V1 record (`statuses_without_v1`).
        package var statusesWithoutV1 = 0
        /// Statuses without a fetch time (`statuses_without_fetch_time`).
        package var statusesWithoutFetchTime = 0
        /// Statuses fetched more than the window after the V1 archive's last event, not compared: V1 cannot know the
        /// state then (`statuses_after_v1_end`).
        package var statusesAfterV1End = 0
        /// Statuses whose state differs (`status_state_mismatch`).
        package var statusStateMismatch = 0
        /// The last V1 event time, epoch ms (`v1_archive_end`).
        package var v1ArchiveEnd: Int64?

        /// An empty summary.
        package init() {}
    }
}
