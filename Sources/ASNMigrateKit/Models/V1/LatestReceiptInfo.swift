/// One transaction of a V1 receipt (`latest_receipt_info` entry), named after Apple's `LatestReceiptInfo`.
public struct LatestReceiptInfo: Sendable, Equatable {
    /// `transaction_id`.
    public var transactionId: String?
    /// `original_transaction_id`: the subscription.
    public var originalTransactionId: String?
    /// `web_order_line_item_id`: one renewal purchase.
    public var webOrderLineItemId: String?
    /// `product_id`.
    public var productId: String?
    /// `subscription_group_identifier`.
    public var subscriptionGroupIdentifier: String?
    /// `purchase_date_ms` (or `purchase_date`).
    public var purchaseDate: Int64?
    /// `original_purchase_date_ms` (or `original_purchase_date`).
    public var originalPurchaseDate: Int64?
    /// `expires_date_ms` (or `expires_date`, whose digits are milliseconds in legacy bodies).
    public var expiresDate: Int64?
    /// `cancellation_date_ms` (or `cancellation_date`).
    public var cancellationDate: Int64?
    /// `cancellation_reason` ("0" or "1"), raw.
    public var cancellationReason: String?
    /// `quantity`, raw digits.
    public var quantity: String?
    /// `is_trial_period`.
    public var isTrialPeriod: Bool?
    /// `is_in_intro_offer_period`.
    public var isInIntroOfferPeriod: Bool?
    /// `is_upgraded`.
    public var isUpgraded: Bool?
    /// `offer_code_ref_name`.
    public var offerCodeRefName: String?
    /// `promotional_offer_id`.
    public var promotionalOfferId: String?
    /// `in_app_ownership_type`, raw ("PURCHASED", "FAMILY_SHARED", or whatever Apple sent).
    public var inAppOwnershipType: String?
    /// `app_account_token`.
    public var appAccountToken: String?
    /// `bid` (legacy per-transaction bundle id).
    public var bid: String?
    /// `bvrs` (legacy per-transaction bundle version).
    public var bvrs: String?

    /// Creates an empty transaction.
    public init() {}

    /// Decodes a transaction, failing with the key path when a field the mapping needs is of the wrong type.
    public init(_ r: V1FieldReader) throws(ASNError) {
        transactionId = try r.identifier("transaction_id")
        originalTransactionId = try r.identifier("original_transaction_id")
        webOrderLineItemId = try r.identifier("web_order_line_item_id")
        productId = try r.string("product_id")
        subscriptionGroupIdentifier = try r.string("subscription_group_identifier")
        purchaseDate = try r.date("purchase_date")
        originalPurchaseDate = try r.date("original_purchase_date")
        expiresDate = try r.date("expires_date")
        cancellationDate = try r.date("cancellation_date")
        cancellationReason = try r.code("cancellation_reason")
        quantity = try r.code("quantity")
        isTrialPeriod = try r.bool("is_trial_period")
        isInIntroOfferPeriod = try r.bool("is_in_intro_offer_period")
        isUpgraded = try r.bool("is_upgraded")
        offerCodeRefName = try r.string("offer_code_ref_name")
        promotionalOfferId = try r.string("promotional_offer_id")
        inAppOwnershipType = try r.string("in_app_ownership_type")
        appAccountToken = try r.string("app_account_token")
        bid = try r.string("bid")
        bvrs = try r.string("bvrs")
    }

    /// Fills fields this transaction lacks from another copy of the same transaction.
    public mutating func fillGaps(from other: LatestReceiptInfo) {
        transactionId = transactionId ?? other.transactionId
        originalTransactionId = originalTransactionId ?? other.originalTransactionId
        webOrderLineItemId = webOrderLineItemId ?? other.webOrderLineItemId
        productId = productId ?? other.productId
        subscriptionGroupIdentifier = subscriptionGroupIdentifier ?? other.subscriptionGroupIdentifier
        purchaseDate = purchaseDate ?? other.purchaseDate
        originalPurchaseDate = originalPurchaseDate ?? other.originalPurchaseDate
        expiresDate = expiresDate ?? other.expiresDate
        cancellationDate = cancellationDate ?? other.cancellationDate
        cancellationReason = cancellationReason ?? other.cancellationReason
        quantity = quantity ?? other.quantity
        isTrialPeriod = isTrialPeriod ?? other.isTrialPeriod
        isInIntroOfferPeriod = isInIntroOfferPeriod ?? other.isInIntroOfferPeriod
        isUpgraded = isUpgraded ?? other.isUpgraded
        offerCodeRefName = offerCodeRefName ?? other.offerCodeRefName
        promotionalOfferId = promotionalOfferId ?? other.promotionalOfferId
        inAppOwnershipType = inAppOwnershipType ?? other.inAppOwnershipType
        appAccountToken = appAccountToken ?? other.appAccountToken
        bid = bid ?? other.bid
        bvrs = bvrs ?? other.bvrs
    }
}
