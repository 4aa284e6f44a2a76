/// The V2 fields `reconcile` compares between a V1 record and its V2 partner, in report order: the compared-field
/// table.
///
/// A new compared field is one edit, here: its case (its place in the report order and its `--compare` /
/// `--ignore-field` name) and its entry in `entry` (its kind, storage slot, nightly codec bit and where a V2 payload
/// holds it; whether the API view and the state comparisons compare it). The compiler asks for the entry; the facts
/// (`RecordFacts`), the engine's compact values (`FieldValues`), the one comparison (`FieldComparison`), the nightly
/// state's codec (`RecordFactsCodec`), `--help`'s field list and the simulator's faults read the table; the V2
/// member it reads is declared, with its V1 keys and `migrate` column, in `V2FieldTable`. `ComparedFieldTableTests`
/// checks the slots and bits, walks every entry, and names the capacity in `FieldSlots` to raise when a kind is full.
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

    /// The field's entry in the table: how it is held and read (`row`: its kind, its storage slot, its nightly codec
    /// bit and where a V2 payload holds it), whether it is compared against Apple's API view (`apiView`) and as an
    /// item of a subscription's state (`state`). `bit` is the nightly codec's mask bit (a new field takes the next free
    /// one, so states written before it still read); `base` (dates) is the field a date is stored relative to, else
    /// the time.
    package var entry: ComparedFieldEntry {
        switch self {
        case .productId:
            return .init(
                .text(0, bit: 7) { $0.transaction?.productId }, apiView: .always,
                state: .init(inNotifications: true, inStatuses: nil) { .text($0.productId ?? "") })
        case .webOrderLineItemId: return .init(.id(1, bit: 8) { $0.transaction?.webOrderLineItemId }, apiView: .always)
        case .bundleId: return .init(.text(2, bit: 9) { $0.transaction?.bundleId ?? $0.data.bundleId })
        case .inAppOwnershipType:
            return .init(.text(3, bit: 10) { $0.transaction?.inAppOwnershipType }, apiView: .whenV1States)
        case .autoRenewProductId:
            return .init(
                .text(4, bit: 11) { $0.renewal?.autoRenewProductId },
                state: .init(inNotifications: false, inStatuses: .whenV1States) { .text($0.autoRenewProductId ?? "") })
        case .offerIdentifier: return .init(.text(5, bit: 12) { $0.transaction?.offerIdentifier }, apiView: .always)
        case .transactionId: return .init(.id(6, bit: 13) { $0.transaction?.transactionId }, apiView: .always)
        case .purchaseDate:
            return .init(.date(0, bit: 14, base: nil) { $0.transaction?.purchaseDate }, apiView: .always)
        case .expiresDate:
            return .init(
                .date(1, bit: 15, base: .purchaseDate) { $0.transaction?.expiresDate }, apiView: .always,
                state: .init(inNotifications: true, inStatuses: .always) { .date($0.expiresDate) })
        case .originalPurchaseDate:
            return .init(
                .date(2, bit: 16, base: .purchaseDate) { $0.transaction?.originalPurchaseDate }, apiView: .always)
        case .revocationDate:
            return .init(.date(3, bit: 17, base: .purchaseDate) { $0.transaction?.revocationDate }, apiView: .always)
        case .gracePeriodExpiresDate:
            return .init(
                .date(4, bit: 18, base: .expiresDate) { $0.renewal?.gracePeriodExpiresDate },
                state: .init(inNotifications: false, inStatuses: .always) { .date($0.gracePeriodExpiresDate) })
        case .revocationReason: return .init(.number(0, bit: 19) { $0.transaction?.revocationReason }, apiView: .always)
        case .autoRenewStatus:
            return .init(
                .number(1, bit: 20) { $0.renewal?.autoRenewStatus },
                state: .init(inNotifications: true, inStatuses: .whenV1States) { .number($0.autoRenewStatus) })
        case .expirationIntent: return .init(.number(2, bit: 21) { $0.renewal?.expirationIntent })
        case .priceIncreaseStatus: return .init(.number(3, bit: 22) { $0.renewal?.priceIncreaseStatus })
        case .offerType: return .init(.number(4, bit: 23) { $0.transaction?.offerType }, apiView: .always)
        case .isUpgraded: return .init(.flag(0) { $0.transaction?.isUpgraded }, apiView: .always)
        case .isInBillingRetryPeriod:
            return .init(
                .flag(1) { $0.renewal?.isInBillingRetryPeriod },
                state: .init(inNotifications: false, inStatuses: .always) { .flag($0.isInBillingRetryPeriod) })
        case .quantity: return .init(.notInNotifications { $0.transaction?.quantity }, apiView: .whenV1States)
        }
    }

    /// How the field is held and where a V2 payload holds it (`entry.row`).
    package var row: ComparedFieldRow { entry.row }

    /// How the field is compared between a transaction the V1 archive shows and the same transaction in Apple's API
    /// view (`TransactionReconciler`): `.always`, `.whenV1States` (only when the V1 side holds a value: V1 receipts
    /// carry no ownership type or quantity on older records), or nil for fields a transaction does not hold there
    /// (renewal info, and `bundleId`, which the history's pages share).
    package var apiView: APIViewComparison? { entry.apiView }

    /// How the field is compared as an item of a subscription's state (`state_mismatch`), or nil when it is not one.
    package var state: ComparedFieldEntry.StateItem? { entry.state }

    /// Whether `--time-tolerance` applies to the field: its values are instants.
    package var usesTimeTolerance: Bool { isDate }

    /// When a field is compared against Apple's API view.
    package enum APIViewComparison: Sendable {
        /// Whenever both transactions are paired.
        case always
        /// Only when the V1 side holds a value.
        case whenV1States
    }

    /// The fields compared between a V1 transaction and Apple's, in the table's order.
    package static let apiViewFields: [ComparedField] = allCases.filter { $0.apiView != nil }

    /// The state items compared between the two sides' states in notification mode (`subscriptions.csv`), in order.
    package static let notificationStateFields: [ComparedField] = allCases.filter { $0.state?.inNotifications == true }

    /// The state items compared against Apple's subscription statuses, in order.
    package static let statusFields: [ComparedField] = allCases.filter { $0.state?.inStatuses != nil }

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
