/// The V2 fields `reconcile` compares between a V1 record and its V2 partner, in report order: the compared-field
/// table.
///
/// A new compared field is one edit, here: its case (its place in the report order and its `--compare` /
/// `--ignore-field` name) and its entry in `entry`, keyed by the `V2FieldTable` path of the member it reads (its kind,
/// nightly codec bit and reader; whether the API view and the state comparisons compare it). Its storage slot is its
/// place among the fields held the same way, in this order (`slot`). The compiler asks for the entry; the facts
/// (`RecordFacts`, and the packers, which find the member by its path), the engine's compact values (`FieldValues`),
/// the one comparison (`FieldComparison`), the nightly state's codec (`RecordFactsCodec`), `--help`'s field list and
/// the simulator's faults read the table; the V2 member it reads is declared, with its V1 keys and `migrate` column,
/// in `V2FieldTable`. `ComparedFieldTableTests` checks the bits and paths, walks every entry, and names the capacity
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

    /// The field's entry in the table: the `V2FieldTable` path of the member it reads (a second one read when the
    /// first is absent), how it is held and read (`row`: its kind, its nightly codec bit and the models' reader of
    /// that member), whether it is compared against Apple's API view (`apiView`) and as an item of a subscription's
    /// state (`state`). `bit` is the nightly codec's mask bit (a new field takes the next free
    /// one, so states written before it still read); `base` (dates) is the field a date is stored relative to, else
    /// the time.
    package var entry: ComparedFieldEntry {
        switch self {
        case .productId:
            return .init(
                "data.transactionInfo.productId", .text(bit: 7) { $0.transaction?.productId }, apiView: .always,
                state: .init(inNotifications: true, inStatuses: nil) { .text($0.productId ?? "") })
        case .webOrderLineItemId:
            return .init(
                "data.transactionInfo.webOrderLineItemId", .id(bit: 8) { $0.transaction?.webOrderLineItemId },
                apiView: .always)
        case .bundleId:
            return .init(
                "data.transactionInfo.bundleId", or: "data.bundleId",
                .text(bit: 9) { $0.transaction?.bundleId ?? $0.data.bundleId })
        case .inAppOwnershipType:
            return .init(
                "data.transactionInfo.inAppOwnershipType", .text(bit: 10) { $0.transaction?.inAppOwnershipType },
                apiView: .whenV1States)
        case .autoRenewProductId:
            return .init(
                "data.renewalInfo.autoRenewProductId", .text(bit: 11) { $0.renewal?.autoRenewProductId },
                state: .init(inNotifications: false, inStatuses: .whenV1States) { .text($0.autoRenewProductId ?? "") })
        case .offerIdentifier:
            return .init(
                "data.transactionInfo.offerIdentifier", .text(bit: 12) { $0.transaction?.offerIdentifier },
                apiView: .always)
        case .transactionId:
            return .init(
                "data.transactionInfo.transactionId", .id(bit: 13) { $0.transaction?.transactionId }, apiView: .always)
        case .purchaseDate:
            return .init(
                "data.transactionInfo.purchaseDate", .date(bit: 14, base: nil) { $0.transaction?.purchaseDate },
                apiView: .always)
        case .expiresDate:
            return .init(
                "data.transactionInfo.expiresDate", .date(bit: 15, base: .purchaseDate) { $0.transaction?.expiresDate },
                apiView: .always, state: .init(inNotifications: true, inStatuses: .always) { .date($0.expiresDate) })
        case .originalPurchaseDate:
            return .init(
                "data.transactionInfo.originalPurchaseDate",
                .date(bit: 16, base: .purchaseDate) { $0.transaction?.originalPurchaseDate }, apiView: .always)
        case .revocationDate:
            return .init(
                "data.transactionInfo.revocationDate",
                .date(bit: 17, base: .purchaseDate) { $0.transaction?.revocationDate }, apiView: .always)
        case .gracePeriodExpiresDate:
            return .init(
                "data.renewalInfo.gracePeriodExpiresDate",
                .date(bit: 18, base: .expiresDate) { $0.renewal?.gracePeriodExpiresDate },
                state: .init(inNotifications: false, inStatuses: .always) { .date($0.gracePeriodExpiresDate) })
        case .revocationReason:
            return .init(
                "data.transactionInfo.revocationReason", .number(bit: 19) { $0.transaction?.revocationReason },
                apiView: .always)
        case .autoRenewStatus:
            return .init(
                "data.renewalInfo.autoRenewStatus", .number(bit: 20) { $0.renewal?.autoRenewStatus },
                state: .init(inNotifications: true, inStatuses: .whenV1States) { .number($0.autoRenewStatus) })
        case .expirationIntent:
            return .init("data.renewalInfo.expirationIntent", .number(bit: 21) { $0.renewal?.expirationIntent })
        case .priceIncreaseStatus:
            return .init("data.renewalInfo.priceIncreaseStatus", .number(bit: 22) { $0.renewal?.priceIncreaseStatus })
        case .offerType:
            return .init(
                "data.transactionInfo.offerType", .number(bit: 23) { $0.transaction?.offerType }, apiView: .always)
        case .isUpgraded:
            return .init("data.transactionInfo.isUpgraded", .flag { $0.transaction?.isUpgraded }, apiView: .always)
        case .isInBillingRetryPeriod:
            return .init(
                "data.renewalInfo.isInBillingRetryPeriod", .flag { $0.renewal?.isInBillingRetryPeriod },
                state: .init(inNotifications: false, inStatuses: .always) { .flag($0.isInBillingRetryPeriod) })
        case .quantity:
            return .init(
                "data.transactionInfo.quantity", .notInNotifications { $0.transaction?.quantity },
                apiView: .whenV1States)
        }
    }

    /// How the field is held and where a V2 payload holds it (`entry.row`).
    package var row: ComparedFieldRow { entry.row }

    /// The `V2FieldTable` paths of the members the field reads, the first present one winning (`entry.paths`).
    package var paths: [String] { entry.paths }

    /// The field's place in `allCases` (a payload-free enum is held as its case's index; `ComparedFieldTableTests`
    /// checks it).
    package var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// Where the field's value is held: its storage and its slot there, by ordinal; computed once from the table's
    /// order (a field's slot is its place among the fields of its storage).
    package static let layout: [ComparedFieldSlot?] = {
        var next: [ComparedFieldSlot.Storage: Int] = [:]
        return allCases.map { field in
            guard let storage = field.row.storage else { return nil }
            defer { next[storage, default: 0] += 1 }
            return ComparedFieldSlot(storage: storage, slot: next[storage, default: 0])
        }
    }()

    /// The field's storage and slot, or nil for a field notifications do not hold.
    package var slot: ComparedFieldSlot? { Self.layout[ordinal] }

    /// The slot of a text or id field, else nil.
    package var textSlot: Int? { slot(in: .texts) }
    /// The slot of a date field, else nil.
    package var dateSlot: Int? { slot(in: .dates) }
    /// The slot of a number field, else nil.
    package var numberSlot: Int? { slot(in: .numbers) }
    /// The slot of a flag field, else nil.
    package var flagSlot: Int? { slot(in: .flags) }

    /// The field's slot when it is held in `storage`.
    private func slot(in storage: ComparedFieldSlot.Storage) -> Int? {
        guard let s = Self.layout[ordinal], s.storage == storage else { return nil }
        return s.slot
    }

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
