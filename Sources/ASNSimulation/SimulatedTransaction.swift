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
    /// The values the lifecycle gives the transaction that the receipt entry and Apple's transaction both carry as
    /// they are (the original purchase), by their V1 key: a date (ms), a text or a flag. The entry writes each under
    /// its key, Apple's transaction (`LifecycleV2.transaction`) at the member the field table makes from that key, so
    /// such a value is given once, by the lifecycle.
    package var carried: [V1Key: MemberValue]
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
        purchaseDate: Int64, carried: [V1Key: MemberValue], expiresDate: Int64?, ownership: String,
        appAccountToken: String?
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.product = product
        self.purchaseDate = purchaseDate
        self.carried = carried
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
        for (key, kind) in Self.carriedKeys {
            switch carried[key] {
            case .integer(let value):
                if kind == .date { b.date(key.name, value) } else { b.string(key.name, String(value)) }
            case .text(let text): b.string(key.name, text)
            case .flag(let flag): b.string(key.name, flag ? "true" : "false")
            case nil: break
            }
        }
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

    /// The receipt keys a transaction's values may be carried under (`carried`), with their V2 member's kind, in the
    /// field table's order: the members of Apple's transaction made from one receipt key.
    package static let carriedKeys: [(key: V1Key, kind: V2FieldKind)] = V2FieldTable.all.compactMap { field in
        guard field.path.hasPrefix("data.transactionInfo."), field.sources.count == 1,
            case .receipt(let key) = field.sources[0]
        else { return nil }
        return (key, field.kind)
    }
}
