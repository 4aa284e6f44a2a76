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

    /// Decodes it from any field source (a parsed object or a tape).
    package init<Source: V2FieldSource>(_ r: Source) {
        var reader = V2MemberReader(r)
        visitMembers(&reader)
    }

    /// Every member, in the fixed order of this model's JSON: the one place its keys are named, for reading
    /// (`V2MemberReader`) and writing (any `JSONMemberSink`) alike.
    package mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor) {
        v.visit("originalTransactionId", &originalTransactionId)
        v.visit("productId", &productId)
        v.visit("autoRenewProductId", &autoRenewProductId)
        v.visit("autoRenewStatus", &autoRenewStatus)
        v.visit("expirationIntent", &expirationIntent)
        v.visit("gracePeriodExpiresDate", &gracePeriodExpiresDate)
        v.visit("isInBillingRetryPeriod", &isInBillingRetryPeriod)
        v.visit("priceIncreaseStatus", &priceIncreaseStatus)
        v.visit("offerType", &offerType)
        v.visit("offerIdentifier", &offerIdentifier)
        v.visit("offerDiscountType", &offerDiscountType)
        v.visit("renewalDate", &renewalDate)
        v.visit("recentSubscriptionStartDate", &recentSubscriptionStartDate)
        v.visit("appAccountToken", &appAccountToken)
        v.visit("signedDate", &signedDate)
        v.visit("environment", &environment)
        v.visit("renewalPrice", &renewalPrice)
        v.visit("currency", &currency)
    }

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        var members = self
        members.visitMembers(&b)
    }
}
