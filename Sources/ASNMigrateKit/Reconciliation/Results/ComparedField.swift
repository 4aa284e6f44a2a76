/// The V2 fields `reconcile` compares between a V1 record and its V2 partner, in report order: the V2 field table.
///
/// A new compared field is one edit, here: its case (its place in the report order) and its row in `row` (its kind,
/// its storage slot, its nightly codec bit and where a V2 payload holds it). The compiler asks for the row; the facts
/// (`RecordFacts`), the engine's compact values (`FieldValues`), the comparison and the nightly state's codec
/// (`RecordFactsCodec`) all read the table. `ComparedFieldTableTests` checks the slots and bits, and names the capacity
/// in `FieldSlots` to raise when a kind is full.
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

    /// The field's row of the table. `bit` is the nightly codec's mask bit (a new field takes the next free one, so
    /// states written before it still read); `base` (dates) is the field a date is stored relative to, else the time.
    package var row: ComparedFieldRow {
        switch self {
        case .productId: return .text(0, bit: 7) { $0.transaction?.productId }
        case .webOrderLineItemId: return .id(1, bit: 8) { $0.transaction?.webOrderLineItemId }
        case .bundleId: return .text(2, bit: 9) { $0.transaction?.bundleId ?? $0.data.bundleId }
        case .inAppOwnershipType: return .text(3, bit: 10) { $0.transaction?.inAppOwnershipType }
        case .autoRenewProductId: return .text(4, bit: 11) { $0.renewal?.autoRenewProductId }
        case .offerIdentifier: return .text(5, bit: 12) { $0.transaction?.offerIdentifier }
        case .transactionId: return .id(6, bit: 13) { $0.transaction?.transactionId }
        case .purchaseDate: return .date(0, bit: 14, base: nil) { $0.transaction?.purchaseDate }
        case .expiresDate: return .date(1, bit: 15, base: .purchaseDate) { $0.transaction?.expiresDate }
        case .originalPurchaseDate:
            return .date(2, bit: 16, base: .purchaseDate) { $0.transaction?.originalPurchaseDate }
        case .revocationDate: return .date(3, bit: 17, base: .purchaseDate) { $0.transaction?.revocationDate }
        case .gracePeriodExpiresDate:
            return .date(4, bit: 18, base: .expiresDate) { $0.renewal?.gracePeriodExpiresDate }
        case .revocationReason: return .number(0, bit: 19) { $0.transaction?.revocationReason }
        case .autoRenewStatus: return .number(1, bit: 20) { $0.renewal?.autoRenewStatus }
        case .expirationIntent: return .number(2, bit: 21) { $0.renewal?.expirationIntent }
        case .priceIncreaseStatus: return .number(3, bit: 22) { $0.renewal?.priceIncreaseStatus }
        case .offerType: return .number(4, bit: 23) { $0.transaction?.offerType }
        case .isUpgraded: return .flag(0) { $0.transaction?.isUpgraded }
        case .isInBillingRetryPeriod: return .flag(1) { $0.renewal?.isInBillingRetryPeriod }
        case .quantity: return .notInNotifications { $0.transaction?.quantity }
        }
    }

    /// How the field is compared between a transaction the V1 archive shows and the same transaction in Apple's API
    /// view (`TransactionReconciler`): `.always`, `.whenV1States` (only when the V1 side holds a value: V1 receipts
    /// carry no ownership type or quantity on older records), or nil for fields a transaction does not hold there
    /// (renewal info, and `bundleId`, which the history's pages share).
    package var apiView: APIViewComparison? {
        switch self {
        case .transactionId, .productId, .purchaseDate, .originalPurchaseDate, .expiresDate, .revocationDate,
            .revocationReason, .isUpgraded, .offerType, .offerIdentifier, .webOrderLineItemId:
            return .always
        case .inAppOwnershipType, .quantity: return .whenV1States
        case .bundleId, .autoRenewStatus, .autoRenewProductId, .expirationIntent, .isInBillingRetryPeriod,
            .gracePeriodExpiresDate, .priceIncreaseStatus:
            return nil
        }
    }

    /// When a field is compared against Apple's API view.
    package enum APIViewComparison: Sendable {
        /// Whenever both transactions are paired.
        case always
        /// Only when the V1 side holds a value.
        case whenV1States
    }

    /// The fields compared between a V1 transaction and Apple's, in the table's order.
    package static let apiViewFields: [ComparedField] = allCases.filter { $0.apiView != nil }

    /// The field's value in a lone transaction (Apple's API view, or one a V1 receipt shows), read by the table's reader.
    package func value(in transaction: JWSTransactionDecodedPayload) -> ComparedValue {
        var data = NotificationData()
        data.transactionInfo = transaction
        return row.value(in: ResponseBodyV2DecodedPayload(notificationType: "", data: data))
    }

    /// The field a command-line or config `option` names, or a usage error listing every field.
    package static func named(_ name: String, option: String) throws(ASNError) -> ComparedField {
        guard let field = ComparedField(rawValue: name) else {
            throw ASNError(
                .usage,
                "option '\(option)': unknown field '\(name)'; fields: \(allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return field
    }

    /// The fields compared unless told otherwise.
    package static let defaultFields: [ComparedField] = allCases.filter { $0 != .transactionId }

    /// Whether the field is a date (rendered as ISO 8601).
    package var isDate: Bool {
        if case .date = row { return true }
        return false
    }
}
