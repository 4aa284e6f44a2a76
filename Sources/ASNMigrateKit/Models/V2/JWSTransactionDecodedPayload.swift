/// A V2 transaction (`JWSTransactionDecodedPayload`), with Apple's field names; enumerations are kept as raw values.
package struct JWSTransactionDecodedPayload: Sendable, Equatable, Hashable, V2ScalarModel {
    /// `transactionId`.
    package var transactionId: String?
    /// `originalTransactionId`: the subscription.
    package var originalTransactionId: String?
    /// `webOrderLineItemId`: one renewal purchase.
    package var webOrderLineItemId: String?
    /// `bundleId`.
    package var bundleId: String?
    /// `productId`.
    package var productId: String?
    /// `subscriptionGroupIdentifier`.
    package var subscriptionGroupIdentifier: String?
    /// `purchaseDate`, epoch ms.
    package var purchaseDate: Int64?
    /// `originalPurchaseDate`, epoch ms.
    package var originalPurchaseDate: Int64?
    /// `expiresDate`, epoch ms.
    package var expiresDate: Int64?
    /// `quantity`.
    package var quantity: Int?
    /// `type` ("Auto-Renewable Subscription", …), raw.
    package var type: String?
    /// `appAccountToken`.
    package var appAccountToken: String?
    /// `inAppOwnershipType` ("PURCHASED", "FAMILY_SHARED"), raw.
    package var inAppOwnershipType: String?
    /// `signedDate`, epoch ms.
    package var signedDate: Int64?
    /// `revocationReason` (0, 1).
    package var revocationReason: Int?
    /// `revocationDate`, epoch ms.
    package var revocationDate: Int64?
    /// `isUpgraded`.
    package var isUpgraded: Bool?
    /// `offerType` (1 introductory, 2 promotional, 3 offer code, …).
    package var offerType: Int?
    /// `offerIdentifier`.
    package var offerIdentifier: String?
    /// `offerDiscountType` ("FREE_TRIAL", …), raw.
    package var offerDiscountType: String?
    /// `environment` ("Production", "Sandbox"), raw.
    package var environment: String?
    /// `transactionReason` ("PURCHASE", "RENEWAL"), raw.
    package var transactionReason: String?
    /// `storefront`.
    package var storefront: String?
    /// `price`, milliunits.
    package var price: Int64?
    /// `currency`.
    package var currency: String?

    /// Creates an empty transaction.
    package init() {}

    /// Every member, in the fixed order of this model's JSON: the one place its keys are named, for reading
    /// (`V2MemberReader`) and writing (any `JSONMemberSink`) alike.
    package mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor) {
        v.visit("transactionId", &transactionId)
        v.visit("originalTransactionId", &originalTransactionId)
        v.visit("webOrderLineItemId", &webOrderLineItemId)
        v.visit("bundleId", &bundleId)
        v.visit("productId", &productId)
        v.visit("subscriptionGroupIdentifier", &subscriptionGroupIdentifier)
        v.visit("purchaseDate", &purchaseDate)
        v.visit("originalPurchaseDate", &originalPurchaseDate)
        v.visit("expiresDate", &expiresDate)
        v.visit("quantity", &quantity)
        v.visit("type", &type)
        v.visit("appAccountToken", &appAccountToken)
        v.visit("inAppOwnershipType", &inAppOwnershipType)
        v.visit("signedDate", &signedDate)
        v.visit("revocationReason", &revocationReason)
        v.visit("revocationDate", &revocationDate)
        v.visit("isUpgraded", &isUpgraded)
        v.visit("offerType", &offerType)
        v.visit("offerIdentifier", &offerIdentifier)
        v.visit("offerDiscountType", &offerDiscountType)
        v.visit("environment", &environment)
        v.visit("transactionReason", &transactionReason)
        v.visit("storefront", &storefront)
        v.visit("price", &price)
        v.visit("currency", &currency)
    }
}

extension JWSTransactionDecodedPayload {
    /// The nightly state's codec tags of the members `visitMembers` names, by Apple's key: a member's tag is fixed
    /// here, beside it, by hand (never change or reuse one; a new member takes the next free tag), with the kind of
    /// its values (`StateCodec`).
    package static let storedMembers: [String: StoredMember] = [
        "transactionId": StoredMember(1, .id),
        "originalTransactionId": StoredMember(2, .id),
        "webOrderLineItemId": StoredMember(3, .id),
        "bundleId": StoredMember(4, .shared),
        "productId": StoredMember(5, .shared),
        "subscriptionGroupIdentifier": StoredMember(6, .shared),
        "purchaseDate": StoredMember(7, .date),
        "originalPurchaseDate": StoredMember(8, .date),
        "expiresDate": StoredMember(9, .date),
        "quantity": StoredMember(10, .number),
        "type": StoredMember(11, .shared),
        "appAccountToken": StoredMember(12, .text),
        "inAppOwnershipType": StoredMember(13, .shared),
        "signedDate": StoredMember(14, .date),
        "revocationReason": StoredMember(15, .number),
        "revocationDate": StoredMember(16, .date),
        "isUpgraded": StoredMember(17, .flag),
        "offerType": StoredMember(18, .number),
        "offerIdentifier": StoredMember(19, .shared),
        "offerDiscountType": StoredMember(20, .shared),
        "environment": StoredMember(21, .shared),
        "transactionReason": StoredMember(22, .shared),
        "storefront": StoredMember(23, .shared),
        "price": StoredMember(24, .number),
        "currency": StoredMember(25, .shared)
    ]
}
