/// The compared values of one record, compactly: text as pool tokens, dates as ms, small numbers as Int32.
package struct FieldValues: Sendable, Equatable {
    /// Absent marker for dates.
    package static let noDate = Int64.min
    /// Absent marker for numbers.
    package static let noNumber = Int32.min

    /// `productId` (pool token).
    var productId: StringPool.Token = 0
    /// `webOrderLineItemId` (pool token).
    var webOrderLineItemId: StringPool.Token = 0
    /// `bundleId` (pool token).
    var bundleId: StringPool.Token = 0
    /// `inAppOwnershipType` (pool token).
    var inAppOwnershipType: StringPool.Token = 0
    /// `autoRenewProductId` (pool token).
    var autoRenewProductId: StringPool.Token = 0
    /// `offerIdentifier` (pool token).
    var offerIdentifier: StringPool.Token = 0
    /// `transactionId` (pool token).
    var transactionId: StringPool.Token = 0
    /// `purchaseDate` (ms, or `noDate`).
    var purchaseDate = noDate
    /// `expiresDate` (ms, or `noDate`).
    var expiresDate = noDate
    /// `originalPurchaseDate` (ms, or `noDate`).
    var originalPurchaseDate = noDate
    /// `revocationDate` (ms, or `noDate`).
    var revocationDate = noDate
    /// `gracePeriodExpiresDate` (ms, or `noDate`).
    var gracePeriodExpiresDate = noDate
    /// `revocationReason` (or `noNumber`).
    var revocationReason = noNumber
    /// `autoRenewStatus` (or `noNumber`).
    var autoRenewStatus = noNumber
    /// `expirationIntent` (or `noNumber`).
    var expirationIntent = noNumber
    /// `priceIncreaseStatus` (or `noNumber`).
    var priceIncreaseStatus = noNumber
    /// `offerType` (or `noNumber`).
    var offerType = noNumber
    /// `isUpgraded` (1 true, 0 false, -1 absent).
    var isUpgraded: Int8 = -1
    /// `isInBillingRetryPeriod` (1 true, 0 false, -1 absent).
    var isInBillingRetryPeriod: Int8 = -1

    /// Extracts the compared values of a record's facts, interning text into `pool`.
    init(_ f: RecordFacts, pool: inout StringPool) {
        productId = pool.token(f.productId)
        webOrderLineItemId = pool.token(f.webOrderLineItemId)
        bundleId = pool.token(f.bundleId)
        inAppOwnershipType = pool.token(f.inAppOwnershipType)
        autoRenewProductId = pool.token(f.autoRenewProductId)
        offerIdentifier = pool.token(f.offerIdentifier)
        transactionId = pool.token(f.transactionId)
        purchaseDate = f.purchaseDate ?? Self.noDate
        expiresDate = f.expiresDate ?? Self.noDate
        originalPurchaseDate = f.originalPurchaseDate ?? Self.noDate
        revocationDate = f.revocationDate ?? Self.noDate
        gracePeriodExpiresDate = f.gracePeriodExpiresDate ?? Self.noDate
        revocationReason = Self.number(f.revocationReason)
        autoRenewStatus = Self.number(f.autoRenewStatus)
        expirationIntent = Self.number(f.expirationIntent)
        priceIncreaseStatus = Self.number(f.priceIncreaseStatus)
        offerType = Self.number(f.offerType)
        isUpgraded = f.isUpgraded.map { $0 ? 1 : 0 } ?? -1
        isInBillingRetryPeriod = f.isInBillingRetryPeriod.map { $0 ? 1 : 0 } ?? -1
    }

    /// The value of one field as report text, or nil when absent.
    func text(_ field: ComparedField, pool: StringPool) -> String? {
        switch field {
        case .productId: return pool.text(productId)
        case .webOrderLineItemId: return pool.text(webOrderLineItemId)
        case .bundleId: return pool.text(bundleId)
        case .inAppOwnershipType: return pool.text(inAppOwnershipType)
        case .autoRenewProductId: return pool.text(autoRenewProductId)
        case .offerIdentifier: return pool.text(offerIdentifier)
        case .transactionId: return pool.text(transactionId)
        case .quantity: return nil
        case .purchaseDate: return Self.date(purchaseDate)
        case .expiresDate: return Self.date(expiresDate)
        case .originalPurchaseDate: return Self.date(originalPurchaseDate)
        case .revocationDate: return Self.date(revocationDate)
        case .gracePeriodExpiresDate: return Self.date(gracePeriodExpiresDate)
        case .revocationReason: return Self.numberText(revocationReason)
        case .autoRenewStatus: return Self.numberText(autoRenewStatus)
        case .expirationIntent: return Self.numberText(expirationIntent)
        case .priceIncreaseStatus: return Self.numberText(priceIncreaseStatus)
        case .offerType: return Self.numberText(offerType)
        case .isUpgraded: return Self.boolText(isUpgraded)
        case .isInBillingRetryPeriod: return Self.boolText(isInBillingRetryPeriod)
        }
    }

    /// Whether a field is present.
    func has(_ field: ComparedField) -> Bool {
        switch field {
        case .productId: return productId != 0
        case .webOrderLineItemId: return webOrderLineItemId != 0
        case .bundleId: return bundleId != 0
        case .inAppOwnershipType: return inAppOwnershipType != 0
        case .autoRenewProductId: return autoRenewProductId != 0
        case .offerIdentifier: return offerIdentifier != 0
        case .transactionId: return transactionId != 0
        case .quantity: return false
        case .purchaseDate: return purchaseDate != Self.noDate
        case .expiresDate: return expiresDate != Self.noDate
        case .originalPurchaseDate: return originalPurchaseDate != Self.noDate
        case .revocationDate: return revocationDate != Self.noDate
        case .gracePeriodExpiresDate: return gracePeriodExpiresDate != Self.noDate
        case .revocationReason: return revocationReason != Self.noNumber
        case .autoRenewStatus: return autoRenewStatus != Self.noNumber
        case .expirationIntent: return expirationIntent != Self.noNumber
        case .priceIncreaseStatus: return priceIncreaseStatus != Self.noNumber
        case .offerType: return offerType != Self.noNumber
        case .isUpgraded: return isUpgraded >= 0
        case .isInBillingRetryPeriod: return isInBillingRetryPeriod >= 0
        }
    }

    /// Whether a field has the same value in both (tokens are canonical, so equal text means equal token).
    func same(_ field: ComparedField, as other: FieldValues) -> Bool {
        switch field {
        case .productId: return productId == other.productId
        case .webOrderLineItemId: return webOrderLineItemId == other.webOrderLineItemId
        case .bundleId: return bundleId == other.bundleId
        case .inAppOwnershipType: return inAppOwnershipType == other.inAppOwnershipType
        case .autoRenewProductId: return autoRenewProductId == other.autoRenewProductId
        case .offerIdentifier: return offerIdentifier == other.offerIdentifier
        case .transactionId: return transactionId == other.transactionId
        case .quantity: return true
        case .purchaseDate: return purchaseDate == other.purchaseDate
        case .expiresDate: return expiresDate == other.expiresDate
        case .originalPurchaseDate: return originalPurchaseDate == other.originalPurchaseDate
        case .revocationDate: return revocationDate == other.revocationDate
        case .gracePeriodExpiresDate: return gracePeriodExpiresDate == other.gracePeriodExpiresDate
        case .revocationReason: return revocationReason == other.revocationReason
        case .autoRenewStatus: return autoRenewStatus == other.autoRenewStatus
        case .expirationIntent: return expirationIntent == other.expirationIntent
        case .priceIncreaseStatus: return priceIncreaseStatus == other.priceIncreaseStatus
        case .offerType: return offerType == other.offerType
        case .isUpgraded: return isUpgraded == other.isUpgraded
        case .isInBillingRetryPeriod: return isInBillingRetryPeriod == other.isInBillingRetryPeriod
        }
    }

    // MARK: - Private

    private static func number(_ value: Int?) -> Int32 {
        guard let value, let narrow = Int32(exactly: value), narrow != noNumber else { return noNumber }
        return narrow
    }

    /// The value of a date field, ms (nil for other fields or when absent).
    func date(_ field: ComparedField) -> Int64? {
        let ms: Int64
        switch field {
        case .purchaseDate: ms = purchaseDate
        case .expiresDate: ms = expiresDate
        case .originalPurchaseDate: ms = originalPurchaseDate
        case .revocationDate: ms = revocationDate
        case .gracePeriodExpiresDate: ms = gracePeriodExpiresDate
        default: return nil
        }
        return ms == Self.noDate ? nil : ms
    }

    private static func date(_ ms: Int64) -> String? {
        ms == noDate ? nil : Timestamp.iso8601(ms: ms)
    }

    private static func numberText(_ n: Int32) -> String? {
        n == noNumber ? nil : String(n)
    }

    private static func boolText(_ b: Int8) -> String? {
        b < 0 ? nil : (b == 1 ? "true" : "false")
    }
}
