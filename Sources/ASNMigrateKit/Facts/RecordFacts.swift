/// What one record tells the reconciliation engine, and nothing more: its subscription, type, time and place, and the
/// values the comparison and the state rules read. `reconcile` extracts it from each payload as it feeds the engine;
/// `nightly` stores it (compactly, `RecordFactsCodec`) and feeds it back, so both modes judge the very same values.
///
/// Texts stay as read (`nil` when absent); the engine interns them. No V1 `password` or `latest_receipt` is in here.
package struct RecordFacts: Sendable, Equatable {
    /// Where the record came from.
    package enum Kind: UInt8, Sendable {
        /// A V1 record mapped to a V2 type and subtype.
        case migrated = 0
        /// A V1 record no rule maps.
        case unmapped = 1
        /// A V2 record.
        case v2 = 2
    }

    /// Where the record came from.
    package var kind: Kind
    /// "Production" / "Sandbox" as the engine names it (unmapped V1: as read).
    package var environment: String?
    /// The subscription.
    package var originalTransactionId: String?
    /// notificationUUID.
    package var notificationUUID: String?
    /// V2 notificationType (V1: the expected one).
    package var notificationType: String?
    /// V2 subtype (V1: the expected one).
    package var subtype: String?
    /// V1 notification_type (V1 only).
    package var v1NotificationType: String?
    /// The mapping rule (migrated V1 only).
    package var ruleId: String?
    /// Event time (V1) or signedDate (V2), epoch ms.
    package var time: Int64?
    /// V1: the event time is only inferred.
    package var eventTimeInferred = false
    /// Where the record was read.
    package var location: SourceLocation
    /// The compared fields' values, one slot per field of the V2 field table (`ComparedField.row`); read and set them
    /// with the `text`, `date`, `number` and `flag` subscripts.
    package var compared = FieldSlots<String?, Int64?, Int?, Bool?>(text: nil, date: nil, number: nil, flag: nil)
    /// The record carries renewal info with an `autoRenewStatus`.
    package var hasAutoRenewStatus = false

    /// A record with only its kind and place (the rest set field by field).
    package init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The facts of a V2 payload: a V2 record as read (`kind` `.v2`, at `location`), or a V1 record's mapped payload
    /// (`kind` `.migrated`, placed by its `migration` metadata).
    package init(_ p: ResponseBodyV2DecodedPayload, kind: Kind, location: SourceLocation) {
        self.init(kind: kind, location: location)
        environment = Self.environmentName(p.data.environment)
        originalTransactionId = p.transaction?.originalTransactionId ?? p.renewal?.originalTransactionId
        notificationUUID = p.notificationUUID
        notificationType = p.notificationType
        subtype = p.subtype
        time = p.signedDate
        if kind == .migrated, let migration = p.migration {
            v1NotificationType = migration.v1NotificationType
            ruleId = migration.ruleId
            eventTimeInferred = migration.eventTimeInferred
            self.location = SourceLocation(path: migration.source, line: migration.line, index: migration.index)
        }
        for field in ComparedField.allCases {
            guard let slot = field.slot?.slot else { continue }
            switch field.row {
            case .text(_, let read), .id(_, let read): compared.texts[slot] = read(p)
            case .date(_, _, let read): compared.dates[slot] = read(p)
            case .number(_, let read): compared.numbers[slot] = read(p)
            case .flag(let read): compared.flags[slot] = read(p)
            case .notInNotifications: break
            }
        }
        hasAutoRenewStatus = p.renewal?.autoRenewStatus != nil
    }

    /// The `V2FieldTable` paths of the members `init(_:kind:location:)` reads of a V2 payload: the record's identity,
    /// type and time, and the members of the compared fields notifications hold, from their table.
    package static let v2Paths: [String] =
        [
            "notificationType", "subtype", "notificationUUID", "signedDate", "data.environment",
            "data.transactionInfo.originalTransactionId", "data.renewalInfo.originalTransactionId",
            "data.renewalInfo.autoRenewStatus"
        ] + ComparedField.allCases.filter { $0.slot != nil }.flatMap(\.paths)

    /// Apple spells environments several ways; the facts and the reports use "Production" and "Sandbox" ("" for none).
    static func environmentName(_ raw: String?) -> String {
        EnvironmentName.normalized(raw) ?? ""
    }

    /// The facts of a V1 record no rule maps.
    package init(unmapped u: UnmappedNotification) {
        self.init(kind: .unmapped, location: u.location)
        environment = u.environment
        originalTransactionId = u.originalTransactionId
        notificationUUID = u.notificationUUID
        v1NotificationType = u.v1NotificationType
        self[text: .webOrderLineItemId] = u.webOrderLineItemId
        time = u.eventTime
    }

    /// The transaction is FAMILY_SHARED.
    package var isFamilyShared: Bool { self[text: .inAppOwnershipType] == "FAMILY_SHARED" }

    /// The later of the transaction's `expiresDate` and the grace period's end, epoch ms.
    package var expiry: Int64? {
        [self[date: .expiresDate], self[date: .gracePeriodExpiresDate]].compactMap { $0 }.max()
    }

    /// "v1" or "v2".
    package var side: String { kind == .v2 ? "v2" : "v1" }

    /// A text or id field's value (nil for fields of other kinds).
    package subscript(text field: ComparedField) -> String? {
        get { field.textSlot.flatMap { compared.texts[$0] } }
        set { if let slot = field.textSlot { compared.texts[slot] = newValue } }
    }

    /// A date field's value, epoch ms (nil for fields of other kinds).
    package subscript(date field: ComparedField) -> Int64? {
        get { field.dateSlot.flatMap { compared.dates[$0] } }
        set { if let slot = field.dateSlot { compared.dates[slot] = newValue } }
    }

    /// A number field's value (nil for fields of other kinds).
    package subscript(number field: ComparedField) -> Int? {
        get { field.numberSlot.flatMap { compared.numbers[$0] } }
        set { if let slot = field.numberSlot { compared.numbers[slot] = newValue } }
    }

    /// A flag field's value (nil for fields of other kinds).
    package subscript(flag field: ComparedField) -> Bool? {
        get { field.flagSlot.flatMap { compared.flags[$0] } }
        set { if let slot = field.flagSlot { compared.flags[slot] = newValue } }
    }
}
