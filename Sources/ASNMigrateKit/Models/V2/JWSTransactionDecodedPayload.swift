/// A V2 transaction (`JWSTransactionDecodedPayload`), with Apple's field names; enumerations are kept as raw values.
package struct JWSTransactionDecodedPayload: Sendable, Equatable, Hashable, JSONMembers {
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

    /// Decodes a transaction; never fails, unknown values are kept raw.
    package init(_ object: JSONObject) {
        self.init(V2FieldReader(object))
    }

    /// Decodes it from any field source (a parsed object or a tape); the one place its keys are read.
    package init<Source: V2FieldSource>(_ r: Source) {
        transactionId = r.string("transactionId")
        originalTransactionId = r.string("originalTransactionId")
        webOrderLineItemId = r.string("webOrderLineItemId")
        bundleId = r.string("bundleId")
        productId = r.string("productId")
        subscriptionGroupIdentifier = r.string("subscriptionGroupIdentifier")
        purchaseDate = r.int64("purchaseDate")
        originalPurchaseDate = r.int64("originalPurchaseDate")
        expiresDate = r.int64("expiresDate")
        quantity = r.int("quantity")
        type = r.string("type")
        appAccountToken = r.string("appAccountToken")
        inAppOwnershipType = r.string("inAppOwnershipType")
        signedDate = r.int64("signedDate")
        revocationReason = r.int("revocationReason")
        revocationDate = r.int64("revocationDate")
        isUpgraded = r.bool("isUpgraded")
        offerType = r.int("offerType")
        offerIdentifier = r.string("offerIdentifier")
        offerDiscountType = r.string("offerDiscountType")
        environment = r.string("environment")
        transactionReason = r.string("transactionReason")
        storefront = r.string("storefront")
        price = r.int64("price")
        currency = r.string("currency")
    }

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        b.add("transactionId", transactionId)
        b.add("originalTransactionId", originalTransactionId)
        b.add("webOrderLineItemId", webOrderLineItemId)
        b.add("bundleId", bundleId)
        b.add("productId", productId)
        b.add("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
        b.add("purchaseDate", purchaseDate)
        b.add("originalPurchaseDate", originalPurchaseDate)
        b.add("expiresDate", expiresDate)
        b.add("quantity", quantity)
        b.add("type", type)
        b.add("appAccountToken", appAccountToken)
        b.add("inAppOwnershipType", inAppOwnershipType)
        b.add("signedDate", signedDate)
        b.add("revocationReason", revocationReason)
        b.add("revocationDate", revocationDate)
        b.add("isUpgraded", isUpgraded)
        b.add("offerType", offerType)
        b.add("offerIdentifier", offerIdentifier)
        b.add("offerDiscountType", offerDiscountType)
        b.add("environment", environment)
        b.add("transactionReason", transactionReason)
        b.add("storefront", storefront)
        b.add("price", price)
        b.add("currency", currency)
    }
}
