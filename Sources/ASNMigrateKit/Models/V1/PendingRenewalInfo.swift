/// One subscription's renewal state in a V1 receipt (`pending_renewal_info` entry), named after Apple's `PendingRenewalInfo`.
package struct PendingRenewalInfo: Sendable, Equatable {
    /// `auto_renew_product_id`.
    package var autoRenewProductId: String?
    /// `auto_renew_status` ("1"/"0" here).
    package var autoRenewStatus: Bool?
    /// `original_transaction_id`.
    package var originalTransactionId: String?
    /// `product_id`.
    package var productId: String?
    /// `expiration_intent` ("1"…"5"), raw.
    package var expirationIntent: String?
    /// `grace_period_expires_date_ms` (or `grace_period_expires_date`).
    package var gracePeriodExpiresDate: Int64?
    /// `is_in_billing_retry_period`.
    package var isInBillingRetryPeriod: Bool?
    /// `price_consent_status` ("0"/"1"), raw.
    package var priceConsentStatus: String?
    /// `offer_code_ref_name`.
    package var offerCodeRefName: String?
    /// `promotional_offer_id`.
    package var promotionalOfferId: String?

    /// Creates an empty entry.
    package init() {}

    /// Decodes an entry from either path's source (`V1FieldReader` or the fast path's tape), by `V1Key`.
    package init<Source: V1FieldSource>(_ r: Source) throws(Source.Failure) {
        autoRenewProductId = try r.string(.autoRenewProductId)
        autoRenewStatus = try r.bool(.autoRenewStatus)
        originalTransactionId = try r.identifier(.originalTransactionId)
        productId = try r.string(.productId)
        expirationIntent = try r.code(.expirationIntent)
        gracePeriodExpiresDate = try r.date(.gracePeriodExpiresDate)
        isInBillingRetryPeriod = try r.bool(.isInBillingRetryPeriod)
        priceConsentStatus = try r.code(.priceConsentStatus)
        offerCodeRefName = try r.string(.offerCodeRefName)
        promotionalOfferId = try r.string(.promotionalOfferId)
    }
}
