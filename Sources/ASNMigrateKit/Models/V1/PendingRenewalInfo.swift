/// One subscription's renewal state in a V1 receipt (`pending_renewal_info` entry), named after Apple's `PendingRenewalInfo`.
public struct PendingRenewalInfo: Sendable, Equatable {
    /// `auto_renew_product_id`.
    public var autoRenewProductId: String?
    /// `auto_renew_status` ("1"/"0" here).
    public var autoRenewStatus: Bool?
    /// `original_transaction_id`.
    public var originalTransactionId: String?
    /// `product_id`.
    public var productId: String?
    /// `expiration_intent` ("1"…"5"), raw.
    public var expirationIntent: String?
    /// `grace_period_expires_date_ms` (or `grace_period_expires_date`).
    public var gracePeriodExpiresDate: Int64?
    /// `is_in_billing_retry_period`.
    public var isInBillingRetryPeriod: Bool?
    /// `price_consent_status` ("0"/"1"), raw.
    public var priceConsentStatus: String?
    /// `offer_code_ref_name`.
    public var offerCodeRefName: String?
    /// `promotional_offer_id`.
    public var promotionalOfferId: String?

    /// Creates an empty entry.
    public init() {}

    /// Decodes an entry, failing with the key path when a field the mapping needs is of the wrong type.
    public init(_ r: V1FieldReader) throws(ASNError) {
        autoRenewProductId = try r.string("auto_renew_product_id")
        autoRenewStatus = try r.bool("auto_renew_status")
        originalTransactionId = try r.identifier("original_transaction_id")
        productId = try r.string("product_id")
        expirationIntent = try r.code("expiration_intent")
        gracePeriodExpiresDate = try r.date("grace_period_expires_date")
        isInBillingRetryPeriod = try r.bool("is_in_billing_retry_period")
        priceConsentStatus = try r.code("price_consent_status")
        offerCodeRefName = try r.string("offer_code_ref_name")
        promotionalOfferId = try r.string("promotional_offer_id")
    }
}
