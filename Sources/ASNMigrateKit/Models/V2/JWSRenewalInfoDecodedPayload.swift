/// V2 renewal information (`JWSRenewalInfoDecodedPayload`), with Apple's field names; enumerations kept raw.
package struct JWSRenewalInfoDecodedPayload: Sendable, Equatable, Hashable, JSONMembers {
    /// `originalTransactionId`.
    package var originalTransactionId: String?
    /// `productId`.
    package var productId: String?
    /// `autoRenewProductId`.
    package var autoRenewProductId: String?
    /// `autoRenewStatus` (0 off, 1 on).
    package var autoRenewStatus: Int?
    /// `expirationIntent` (1…5).
    package var expirationIntent: Int?
    /// `gracePeriodExpiresDate`, epoch ms.
    package var gracePeriodExpiresDate: Int64?
    /// `isInBillingRetryPeriod`.
    package var isInBillingRetryPeriod: Bool?
    /// `priceIncreaseStatus` (0, 1).
    package var priceIncreaseStatus: Int?
    /// `offerType`.
    package var offerType: Int?
    /// `offerIdentifier`.
    package var offerIdentifier: String?
    /// `offerDiscountType`, raw.
    package var offerDiscountType: String?
    /// `renewalDate`, epoch ms.
    package var renewalDate: Int64?
    /// `recentSubscriptionStartDate`, epoch ms.
    package var recentSubscriptionStartDate: Int64?
    /// `appAccountToken`.
    package var appAccountToken: String?
    /// `signedDate`, epoch ms.
    package var signedDate: Int64?
    /// `environment`, raw.
    package var environment: String?
    /// `renewalPrice`, milliunits.
    package var renewalPrice: Int64?
    /// `currency`.
    package var currency: String?

    /// Creates empty renewal info.
    package init() {}

    /// Decodes renewal info; never fails, unknown values are kept raw.
    package init(_ object: JSONObject) {
        self.init(V2FieldReader(object))
    }

    /// Decodes it from any field source (a parsed object or a tape); the one place its keys are read.
    package init<Source: V2FieldSource>(_ r: Source) {
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

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
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
    }
}
