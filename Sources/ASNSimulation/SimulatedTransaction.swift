import ASNMigrateKit

/// One simulated App Store transaction, rendered as a V1 `latest_receipt_info` entry the way Apple wrote them.
package struct SimulatedTransaction: Sendable, Equatable {
    /// `transaction_id`.
    package var transactionId: String
    /// `original_transaction_id`: the subscription (or the consumable purchase).
    package var originalTransactionId: String
    /// `web_order_line_item_id` (subscriptions only).
    package var webOrderLineItemId: String?
    /// The product bought.
    package var product: SimulatedProduct
    /// `purchase_date_ms`.
    package var purchaseDate: Int64
    /// `original_purchase_date_ms`.
    package var originalPurchaseDate: Int64
    /// `expires_date_ms` (subscriptions only).
    package var expiresDate: Int64?
    /// `cancellation_date_ms`: refund, revocation, or the moment of an upgrade.
    package var cancellationDate: Int64?
    /// `cancellation_reason` ("0" other, "1" app issue); not set for upgrades.
    package var cancellationReason: String?
    /// `is_upgraded`.
    package var isUpgraded = false
    /// `is_trial_period`.
    package var isTrialPeriod = false
    /// `is_in_intro_offer_period`.
    package var isInIntroOfferPeriod = false
    /// `offer_code_ref_name`.
    package var offerCodeRefName: String?
    /// `promotional_offer_id`.
    package var promotionalOfferId: String?
    /// `in_app_ownership_type`: "PURCHASED" or "FAMILY_SHARED".
    package var ownership: String
    /// `app_account_token`, when the app set one.
    package var appAccountToken: String?
    /// Whether Apple renewed the subscription automatically to make it (V2 `transactionReason` RENEWAL); the
    /// customer bought every other one (PURCHASE). V1 does not say.
    package var isRenewal = false

    /// Creates a transaction.
    package init(
        transactionId: String, originalTransactionId: String, webOrderLineItemId: String?, product: SimulatedProduct,
        purchaseDate: Int64, originalPurchaseDate: Int64, expiresDate: Int64?, ownership: String,
        appAccountToken: String?
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.product = product
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.ownership = ownership
        self.appAccountToken = appAccountToken
    }

    /// The `latest_receipt_info` entry: every date in its `_ms`, Etc/GMT and America/Los_Angeles forms, flags as "true"/"false".
    package var receiptEntry: JSONValue {
        var b = V1ObjectBuilder()
        b.string("quantity", "1")
        b.string("product_id", product.id)
        b.string("transaction_id", transactionId)
        b.string("original_transaction_id", originalTransactionId)
        b.date("purchase_date", purchaseDate)
        b.date("original_purchase_date", originalPurchaseDate)
        if let expiresDate { b.date("expires_date", expiresDate) }
        if let webOrderLineItemId { b.string("web_order_line_item_id", webOrderLineItemId) }
        b.string("is_trial_period", isTrialPeriod ? "true" : "false")
        if expiresDate != nil { b.string("is_in_intro_offer_period", isInIntroOfferPeriod ? "true" : "false") }
        if let promotionalOfferId { b.string("promotional_offer_id", promotionalOfferId) }
        if let offerCodeRefName { b.string("offer_code_ref_name", offerCodeRefName) }
        if let cancellationDate {
            b.date("cancellation_date", cancellationDate)
            if let cancellationReason { b.string("cancellation_reason", cancellationReason) }
        }
        if isUpgraded { b.string("is_upgraded", "true") }
        b.string("in_app_ownership_type", ownership)
        if let group = product.group { b.string("subscription_group_identifier", group) }
        if let appAccountToken { b.string("app_account_token", appAccountToken) }
        return .object(b.object)
    }
}
