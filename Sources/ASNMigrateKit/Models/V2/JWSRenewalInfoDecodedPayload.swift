/// V2 renewal information (`JWSRenewalInfoDecodedPayload`), with Apple's field names; enumerations kept raw.
public struct JWSRenewalInfoDecodedPayload: Sendable, Equatable, Hashable {
    /// `originalTransactionId`.
    public var originalTransactionId: String?
    /// `productId`.
    public var productId: String?
    /// `autoRenewProductId`.
    public var autoRenewProductId: String?
    /// `autoRenewStatus` (0 off, 1 on).
    public var autoRenewStatus: Int?
    /// `expirationIntent` (1…5).
    public var expirationIntent: Int?
    /// `gracePeriodExpiresDate`, epoch ms.
    public var gracePeriodExpiresDate: Int64?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `priceIncreaseStatus` (0, 1).
    public var priceIncreaseStatus: Int?
    /// `offerType`.
    public var offerType: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `offerDiscountType`, raw.
    public var offerDiscountType: String?
    /// `renewalDate`, epoch ms.
    public var renewalDate: Int64?
    /// `recentSubscriptionStartDate`, epoch ms.
    public var recentSubscriptionStartDate: Int64?
    /// `appAccountToken`.
    public var appAccountToken: String?
    /// `signedDate`, epoch ms.
    public var signedDate: Int64?
    /// `environment`, raw.
    public var environment: String?
    /// `renewalPrice`, milliunits.
    public var renewalPrice: Int64?
    /// `currency`.
    public var currency: String?

    /// Creates empty renewal info.
    public init() {}

    /// Decodes renewal info; never fails, unknown values are kept raw.
    public init(_ object: JSONObject) {
        let r = V2FieldReader(object)
        originalTransactionId = r.string("originalTransactionId")
        productId = r.string("productId")
        autoRenewProductId = r.string("autoRenewProductId")
        autoRenewStatus = r.int("autoRenewStatus")
        expirationIntent = r.int("expirationIntent")
        gracePeriodExpiresDate = r.int64("gracePeriodExpiresDate")
        isInBillingRetryPeriod = r.bool("isInBillingRetryPeriod")
        priceIncreaseStatus = r.int("priceIncreaseStatus")
        offerType = r.int("offerType")
        offerIdentifier = r.string("offerIdentifier")
        offerDiscountType = r.string("offerDiscountType")
        renewalDate = r.int64("renewalDate")
        recentSubscriptionStartDate = r.int64("recentSubscriptionStartDate")
        appAccountToken = r.string("appAccountToken")
        signedDate = r.int64("signedDate")
        environment = r.string("environment")
        renewalPrice = r.int64("renewalPrice")
        currency = r.string("currency")
    }

    /// The renewal info as an ordered JSON object, absent values left out.
    public var json: JSONObject {
        var b = JSONObjectBuilder()
        b.add("originalTransactionId", originalTransactionId)
        b.add("productId", productId)
        b.add("autoRenewProductId", autoRenewProductId)
        b.add("autoRenewStatus", autoRenewStatus)
        b.add("expirationIntent", expirationIntent)
        b.add("gracePeriodExpiresDate", gracePeriodExpiresDate)
        b.add("isInBillingRetryPeriod", isInBillingRetryPeriod)
        b.add("priceIncreaseStatus", priceIncreaseStatus)
        b.add("offerType", offerType)
        b.add("offerIdentifier", offerIdentifier)
        b.add("offerDiscountType", offerDiscountType)
        b.add("renewalDate", renewalDate)
        b.add("recentSubscriptionStartDate", recentSubscriptionStartDate)
        b.add("appAccountToken", appAccountToken)
        b.add("signedDate", signedDate)
        b.add("environment", environment)
        b.add("renewalPrice", renewalPrice)
        b.add("currency", currency)
        return b.object
    }
}
