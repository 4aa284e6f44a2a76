import ASNMigrateKit

/// What Apple's server knows about one subscription (or one consumable purchase) at a moment: its transactions and
/// its pending renewal info. Renders the V1 body of a notification from that knowledge.
package struct SimulatedSubscriptionState: Sendable {
    /// The environment.
    package let environment: SimulationEnvironment
    /// `original_transaction_id`.
    package let originalTransactionId: String
    /// Whether this is an auto-renewable subscription (false: a consumable purchase).
    package let isSubscription: Bool
    /// The transactions, oldest first.
    package private(set) var transactions: [SimulatedTransaction] = []
    /// `auto_renew_status`.
    package var autoRenewOn = true
    /// `auto_renew_product_id`.
    package var autoRenewProductId: String
    /// `auto_renew_status_change_date_ms`, once there was a change.
    package var autoRenewChangeDate: Int64?
    /// `expiration_intent` ("1" voluntary, "2" billing, "3" price increase).
    package var expirationIntent: String?
    /// `is_in_billing_retry_period`.
    package var billingRetry: Bool?
    /// `grace_period_expires_date_ms`.
    package var gracePeriodExpires: Int64?
    /// `price_consent_status` ("0" asked, "1" consented).
    package var priceConsentStatus: String?

    /// The rendered receipt entries, parallel to `transactions` (dates are costly to format, so entries are cached).
    private var entries: [JSONValue] = []

    /// Creates the state of a subscription (or consumable purchase) with no transactions yet.
    package init(
        environment: SimulationEnvironment, originalTransactionId: String, isSubscription: Bool, productId: String
    ) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.isSubscription = isSubscription
        self.autoRenewProductId = productId
    }

    // MARK: - Transactions

    /// The newest transaction.
    package var current: SimulatedTransaction? { transactions.last }

    /// Adds a transaction (newer than every other).
    package mutating func append(_ transaction: SimulatedTransaction) {
        transactions.append(transaction)
        entries.append(transaction.receiptEntry)
    }

    /// Changes the newest transaction.
    package mutating func updateCurrent(_ change: (inout SimulatedTransaction) -> Void) {
        guard let last = transactions.indices.last else { return }
        change(&transactions[last])
        entries[last] = transactions[last].receiptEntry
    }

    // MARK: - V1 body

    /// The V1 body of a notification of `type` sent now; `cancellation` adds the top-level cancellation fields;
    /// `bundleVersion` is the app version; `receipt` the `latest_receipt` blob; `cap` the most receipt entries to list.
    package func body(
        type: String, cancellation: Int64?, bundleVersion: String, receipt: String, cap: Int, password: String
    ) -> JSONObject {
        var b = V1ObjectBuilder()
        if isSubscription {
            b.string("auto_renew_product_id", autoRenewProductId)
            b.string("auto_renew_status", autoRenewOn ? "true" : "false")
            if let autoRenewChangeDate { b.date("auto_renew_status_change_date", autoRenewChangeDate) }
        }
        b.string("bid", SimulatedProduct.bundleId)
        b.string("bvrs", bundleVersion)
        if let cancellation { b.date("cancellation_date", cancellation) }
        b.string("environment", environment.v1Name)
        b.string("notification_type", type)
        b.string("original_transaction_id", originalTransactionId)
        b.string("password", password)

        var unified = V1ObjectBuilder()
        unified.string("environment", environment.rawValue)
        unified.string("latest_receipt", receipt)
        unified.value("latest_receipt_info", .array(entries.suffix(max(1, cap)).reversed()))
        if isSubscription { unified.value("pending_renewal_info", .array([pendingEntry])) }
        unified.value("status", .number("0"))
        b.value("unified_receipt", .object(unified.object))
        if cancellation != nil, let order = current?.webOrderLineItemId { b.string("web_order_line_item_id", order) }
        return b.object
    }

    /// The `pending_renewal_info` entry.
    private var pendingEntry: JSONValue {
        var b = V1ObjectBuilder()
        b.string("auto_renew_product_id", autoRenewProductId)
        b.string("auto_renew_status", autoRenewOn ? "1" : "0")
        if let expirationIntent { b.string("expiration_intent", expirationIntent) }
        if let gracePeriodExpires { b.date("grace_period_expires_date", gracePeriodExpires) }
        if let billingRetry { b.string("is_in_billing_retry_period", billingRetry ? "1" : "0") }
        b.string("original_transaction_id", originalTransactionId)
        if let priceConsentStatus { b.string("price_consent_status", priceConsentStatus) }
        b.string("product_id", current?.product.id ?? autoRenewProductId)
        return .object(b.object)
    }
}
