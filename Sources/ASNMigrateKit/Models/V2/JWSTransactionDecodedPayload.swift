/// A V2 transaction (`JWSTransactionDecodedPayload`), with Apple's field names; enumerations are kept as raw values.
public struct JWSTransactionDecodedPayload: Sendable, Equatable, Hashable {
    /// `transactionId`.
    public var transactionId: String?
    /// `originalTransactionId`: the subscription.
    public var originalTransactionId: String?
    /// `webOrderLineItemId`: one renewal purchase.
    public var webOrderLineItemId: String?
    /// `bundleId`.
    public var bundleId: String?
    /// `productId`.
    public var productId: String?
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate`, epoch ms.
    public var purchaseDate: Int64?
    /// `originalPurchaseDate`, epoch ms.
    public var originalPurchaseDate: Int64?
    /// `expiresDate`, epoch ms.
    public var expiresDate: Int64?
    /// `quantity`.
    public var quantity: Int?
    /// `type` ("Auto-Renewable Subscription", …), raw.
    public var type: String?
    /// `appAccountToken`.
    public var appAccountToken: String?
    /// `inAppOwnershipType` ("PURCHASED", "FAMILY_SHARED"), raw.
    public var inAppOwnershipType: String?
    /// `signedDate`, epoch ms.
    public var signedDate: Int64?
    /// `revocationReason` (0, 1).
    public var revocationReason: Int?
    /// `revocationDate`, epoch ms.
    public var revocationDate: Int64?
    /// `isUpgraded`.
    public var isUpgraded: Bool?
    /// `offerType` (1 introductory, 2 promotional, 3 offer code, …).
    public var offerType: Int?
    /// `offerIdentifier`.
    public var offerIdentifier: String?
    /// `offerDiscountType` ("FREE_TRIAL", …), raw.
    public var offerDiscountType: String?
    /// `environment` ("Production", "Sandbox"), raw.
    public var environment: String?
    /// `transactionReason` ("PURCHASE", "RENEWAL"), raw.
    public var transactionReason: String?
    /// `storefront`.
    public var storefront: String?
    /// `price`, milliunits.
    public var price: Int64?
    /// `currency`.
    public var currency: String?

    /// Creates an empty transaction.
    public init() {}

    /// Decodes a transaction; never fails, unknown values are kept raw.
    public init(_ object: JSONObject) {
        let r = V2FieldReader(object)
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

    /// The transaction as an ordered JSON object, absent values left out.
    public var json: JSONObject {
        var b = JSONObjectBuilder()
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
        return b.object
    }
}
