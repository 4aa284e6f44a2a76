/// The figures of comparing the V1 archive's transactions with Apple's API view, as numbers (rendered by
/// `ReconciliationReport`).
public struct TransactionSummary: Sendable, Equatable {
    /// V1 transactions, one per environment + transactionId (`v1_transactions`).
    public var v1Transactions = 0
    /// Paired transactions (`matched_transactions`).
    public var matchedTransactions = 0
    /// V1 transactions without a V2 partner (`transaction_missing_in_v2`).
    public var transactionMissingInV2 = 0
    /// V1 transactions of customers with no V2 transaction (`not_fetched`).
    public var notFetched = 0
    /// V1 transactions outside the period (`v1_transactions_out_of_period`).
    public var v1TransactionsOutOfPeriod = 0
    /// V1 transactions whose partner could lie beyond the V2 data (`v1_transactions_pending`).
    public var v1TransactionsPending = 0
    /// V1 receipt entries that carry no transactionId (`v1_receipt_entries_without_transaction_id`).
    public var v1ReceiptEntriesWithoutTransactionId = 0
    /// V2 transaction records read, copies included (`v2_transactions_read`).
    public var v2TransactionsRead = 0
    /// V2 transaction copies beyond the first (`v2_transaction_duplicates`).
    public var v2TransactionDuplicates = 0
    /// V2 transactions, de-duplicated (`v2_transactions`).
    public var v2Transactions = 0
    /// V2 transactions without a V1 partner (`transaction_missing_in_v1`).
    public var transactionMissingInV1 = 0
    /// V2 transactions V1 is not expected to have (`v2_only_expected_transactions`).
    public var v2OnlyExpectedTransactions = 0
    /// V2 transactions outside the period (`v2_transactions_out_of_period`).
    public var v2TransactionsOutOfPeriod = 0
    /// V2 transactions whose partner could lie beyond the V1 data (`v2_transactions_pending`).
    public var v2TransactionsPending = 0
    /// Pairs made through a restored copy's webOrderLineItemId (`restored_copies`).
    public var restoredCopies = 0
    /// `transaction_field_mismatch` rows (`transaction_field_mismatch`).
    public var transactionFieldMismatch = 0
    /// Differing items of paired transactions that one side learnt after the other side's data ends (a later refund,
    /// upgrade or renewal extension), not reported (`transaction_fields_after_data_end`).
    public var transactionFieldsAfterDataEnd = 0
    /// `unannounced_in_v1` rows (`unannounced_in_v1`).
    public var unannouncedInV1 = 0
    /// The transaction period's first instant, epoch ms; nil when open (`transaction_period_start`).
    public var periodStart: Int64?
    /// The transaction period's last instant, epoch ms; nil when open (`transaction_period_end`).
    public var periodEnd: Int64?
    /// The subscription status comparison's figures.
    public var statuses = StatusSummary()

    /// An empty summary.
    public init() {}

    /// The figures of comparing subscription statuses (`SubscriptionStatusComparison`).
    public struct StatusSummary: Sendable, Equatable {
        /// Statuses read (`statuses_read`).
        public var statusesRead = 0
        /// Statuses read again: the same subscription at the same fetch time (`statuses_duplicates`), compared once.
        public var statusesDuplicates = 0
        /// Statuses compared (`statuses_compared`).
        public var statusesCompared = 0
        /// Statuses whose subscription has no V1 record (`statuses_without_v1`).
        public var statusesWithoutV1 = 0
        /// Statuses without a fetch time (`statuses_without_fetch_time`).
        public var statusesWithoutFetchTime = 0
        /// Statuses fetched more than the window after the V1 archive's last event, not compared: V1 cannot know the
        /// state then (`statuses_after_v1_end`).
        public var statusesAfterV1End = 0
        /// Statuses whose state differs (`status_state_mismatch`).
        public var statusStateMismatch = 0
        /// The last V1 event time, epoch ms (`v1_archive_end`).
        public var v1ArchiveEnd: Int64?

        /// An empty summary.
        public init() {}
    }
}
