/// The V2 fields `reconcile` compares between a V1 record and its V2 partner, in report order.
package enum ComparedField: String, Sendable, CaseIterable, Equatable {
    /// `productId`.
    case productId
    /// `webOrderLineItemId`.
    case webOrderLineItemId
    /// `purchaseDate`.
    case purchaseDate
    /// `expiresDate`.
    case expiresDate
    /// `originalPurchaseDate`.
    case originalPurchaseDate
    /// `bundleId`.
    case bundleId
    /// `inAppOwnershipType`.
    case inAppOwnershipType
    /// `revocationDate`.
    case revocationDate
    /// `revocationReason`.
    case revocationReason
    /// `isUpgraded`.
    case isUpgraded
    /// `autoRenewStatus` (renewal info).
    case autoRenewStatus
    /// `autoRenewProductId` (renewal info).
    case autoRenewProductId
    /// `expirationIntent` (renewal info).
    case expirationIntent
    /// `isInBillingRetryPeriod` (renewal info).
    case isInBillingRetryPeriod
    /// `gracePeriodExpiresDate` (renewal info).
    case gracePeriodExpiresDate
    /// `priceIncreaseStatus` (renewal info).
    case priceIncreaseStatus
    /// `offerType` (transaction).
    case offerType
    /// `offerIdentifier` (transaction).
    case offerIdentifier
    /// `transactionId`: compared only with `--compare transactionId` (it changes on restore).
    case transactionId
    /// `quantity`: compared between transactions only (against Apple's API view), when V1 states it; notifications
    /// do not hold it for comparison (`FieldValues` never has it).
    case quantity

    /// The fields compared unless told otherwise.
    package static let defaultFields: [ComparedField] = allCases.filter { $0 != .transactionId }

    /// Whether the field is a date (rendered as ISO 8601).
    package var isDate: Bool {
        switch self {
        case .purchaseDate, .expiresDate, .originalPurchaseDate, .revocationDate, .gracePeriodExpiresDate: return true
        default: return false
        }
    }
}
