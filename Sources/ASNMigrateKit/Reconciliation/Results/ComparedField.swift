/// The V2 fields `reconcile` compares between a V1 record and its V2 partner, in report order: the compared-field
/// table, made from `V2FieldTable`'s `compared:` column.
///
/// A new compared field is its table row's `compared:` column (`V2Compared`): its place in the report order (its
/// `--compare` / `--ignore-field` name is its key), its nightly codec bit, a date's base, whether the API view compares
/// it. How it is held follows from the row's kind, its reader from its path (the V2 model's member visit, at the
/// member's place found once by key), its storage slot from its place among the fields held the same way (`slot`). The
/// facts (`RecordFacts`, and the packers, which find the member by its path), the engine's compact values
/// (`FieldValues`), the one comparison (`FieldComparison`), the nightly state's codec (`RecordFactsCodec`), `--help`'s
/// field list and the simulator's faults read the table. Code that names one field (the state's items, pairing) names
/// it by a constant below; `ComparedFieldTableTests` checks the bits and paths, walks every entry, and names the
/// capacity in `FieldSlots` to raise when a kind is full.
package struct ComparedField: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The field's place in `allCases` (the report order).
    package let ordinal: Int

    /// The field at `ordinal` in `allCases`.
    init(ordinal: Int) {
        self.ordinal = ordinal
    }

    /// The field named `rawValue` (its key, Apple's name), or nil.
    package init?(rawValue: String) {
        guard let at = Self.names.firstIndex(of: rawValue) else { return nil }
        ordinal = at
    }

    /// The field named `name`, which the table must compare (`ComparedFieldTableTests` checks the constants below).
    init(named name: String) {
        ordinal = Self.names.firstIndex(of: name) ?? -1
    }

    /// Its `--compare` / `--ignore-field` name: its member's key.
    package var rawValue: String { Self.names[ordinal] }

    /// Its name.
    package var description: String { rawValue }

    /// The table's compared rows, in report order (the column's `order`).
    static let rows: [(field: V2Field, compared: V2Compared)] = V2FieldTable.all.compactMap { field in
        field.compared.map { (field, $0) }
    }.sorted { $0.compared.order < $1.compared.order }

    /// Every field's name, in report order.
    package static let names: [String] = rows.map(\.field.key)

    /// Every field, in report order.
    package static let allCases: [ComparedField] = names.indices.map(ComparedField.init(ordinal:))

    /// Every field's entry, by ordinal, made once from its row.
    static let entries: [ComparedFieldEntry] = rows.map { entry($0.field, $0.compared) }

    /// The field's entry in the table: the `V2FieldTable` path of the member it reads (a second one read when the
    /// first is absent), how it is held and read (`row`: its kind, its nightly codec bit and the reader of that
    /// member), whether it is compared against Apple's API view (`apiView`) and as an item of a subscription's state
    /// (`state`).
    package var entry: ComparedFieldEntry { Self.entries[ordinal] }

    // MARK: - The fields code names

    /// `productId`.
    package static let productId = ComparedField(named: "productId")
    /// `webOrderLineItemId`.
    package static let webOrderLineItemId = ComparedField(named: "webOrderLineItemId")
    /// `purchaseDate`.
    package static let purchaseDate = ComparedField(named: "purchaseDate")
    /// `expiresDate`.
    package static let expiresDate = ComparedField(named: "expiresDate")
    /// `bundleId`.
    package static let bundleId = ComparedField(named: "bundleId")
    /// `inAppOwnershipType`.
    package static let inAppOwnershipType = ComparedField(named: "inAppOwnershipType")
    /// `revocationDate`.
    package static let revocationDate = ComparedField(named: "revocationDate")
    /// `autoRenewStatus` (renewal info).
    package static let autoRenewStatus = ComparedField(named: "autoRenewStatus")
    /// `autoRenewProductId` (renewal info).
    package static let autoRenewProductId = ComparedField(named: "autoRenewProductId")
    /// `isInBillingRetryPeriod` (renewal info).
    package static let isInBillingRetryPeriod = ComparedField(named: "isInBillingRetryPeriod")
    /// `gracePeriodExpiresDate` (renewal info).
    package static let gracePeriodExpiresDate = ComparedField(named: "gracePeriodExpiresDate")
    /// `transactionId`: compared only with `--compare transactionId` (it changes on restore).
    package static let transactionId = ComparedField(named: "transactionId")

    /// The items of a subscription's state, by field: compared between the two sides' states, against Apple's
    /// statuses, with the value each reads from a `SubscriptionState`.
    static let stateItems: [ComparedField: ComparedFieldEntry.StateItem] = [
        .productId: .init(inNotifications: true, inStatuses: nil) { .text($0.productId ?? "") },
        .expiresDate: .init(inNotifications: true, inStatuses: .always) { .date($0.expiresDate) },
        .autoRenewStatus: .init(inNotifications: true, inStatuses: .whenV1States) { .number($0.autoRenewStatus) },
        .autoRenewProductId: .init(inNotifications: false, inStatuses: .whenV1States) {
            .text($0.autoRenewProductId ?? "")
        },
        .isInBillingRetryPeriod: .init(inNotifications: false, inStatuses: .always) {
            .flag($0.isInBillingRetryPeriod)
        },
        .gracePeriodExpiresDate: .init(inNotifications: false, inStatuses: .always) {
            .date($0.gracePeriodExpiresDate)
        }
    ]

    /// The entry of `field`'s row: held as its kind says, read by the member visit at its path (then its fallback's).
    private static func entry(_ field: V2Field, _ compared: V2Compared) -> ComparedFieldEntry {
        let paths = [field.path] + (compared.fallback.map { [$0] } ?? [])
        let places = paths.compactMap(MemberPlace.init(path:))
        let text: @Sendable (ResponseBodyV2DecodedPayload) -> String? = { p in
            if case .text(let text) = MemberPlace.read(p, places) { return text }
            return nil
        }
        let integer: @Sendable (ResponseBodyV2DecodedPayload) -> Int64? = { p in
            if case .integer(let value) = MemberPlace.read(p, places) { return value }
            return nil
        }
        let number: @Sendable (ResponseBodyV2DecodedPayload) -> Int? = { p in integer(p).map { Int($0) } }
        let flag: @Sendable (ResponseBodyV2DecodedPayload) -> Bool? = { p in
            if case .flag(let value) = MemberPlace.read(p, places) { return value }
            return nil
        }
        let bit = compared.bit ?? -1
        let row: ComparedFieldRow
        switch field.kind {
        case .id: row = .id(bit: bit, read: text)
        case .text, .enumText, .jws: row = .text(bit: bit, read: text)
        case .date: row = .date(bit: bit, base: compared.base.flatMap(ComparedField.init(rawValue:)), read: integer)
        case .integer, .enumCode:
            row = compared.inNotifications ? .number(bit: bit, read: number) : .notInNotifications(read: number)
        case .flag: row = .flag(read: flag)
        }
        let name = ComparedField(named: field.key)
        return ComparedFieldEntry(
            field.path, or: compared.fallback, row, apiView: compared.apiView, state: stateItems[name])
    }

    /// How the field is held and where a V2 payload holds it (`entry.row`).
    package var row: ComparedFieldRow { entry.row }

    /// The `V2FieldTable` paths of the members the field reads, the first present one winning (`entry.paths`).
    package var paths: [String] { entry.paths }

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

    /// When a field is compared against Apple's API view (the table's `V2Compared.APIView`).
    package typealias APIViewComparison = V2Compared.APIView

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
