/// V2 renewal information (`JWSRenewalInfoDecodedPayload`), with Apple's field names; enumerations kept raw.
package struct JWSRenewalInfoDecodedPayload: Sendable, Equatable, Hashable, V2ScalarModel {
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
}

extension JWSRenewalInfoDecodedPayload {
    /// The nightly state's codec tags of the members `visitMembers` names, by Apple's key: a member's tag is fixed
    /// here, beside it, by hand (never change or reuse one; a new member takes the next free tag), with the kind of
    /// its values (`StateCodec`).
    package static let storedMembers: [String: StoredMember] = [
        "originalTransactionId": StoredMember(1, .id),
        "productId": StoredMember(2, .shared),
        "autoRenewProductId": StoredMember(3, .shared),
        "autoRenewStatus": StoredMember(4, .number),
        "expirationIntent": StoredMember(5, .number),
        "gracePeriodExpiresDate": StoredMember(6, .date),
        "isInBillingRetryPeriod": StoredMember(7, .flag),
        "priceIncreaseStatus": StoredMember(8, .number),
        "offerType": StoredMember(9, .number),
        "offerIdentifier": StoredMember(10, .shared),
        "offerDiscountType": StoredMember(11, .shared),
        "renewalDate": StoredMember(12, .date),
        "recentSubscriptionStartDate": StoredMember(13, .date),
        "appAccountToken": StoredMember(14, .text),
        "signedDate": StoredMember(15, .date),
        "environment": StoredMember(16, .shared),
        "renewalPrice": StoredMember(17, .number),
        "currency": StoredMember(18, .shared)
    ]
}
