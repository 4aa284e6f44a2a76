/// How a compared field is held and read (`ComparedField.row`): its kind, its mask bit in the nightly state's codec
/// (`RecordFactsCodec`; flags live in that codec's flag bits, two per slot) and the models' reader of the member its
/// path names. Its storage slot is not written here: it is the field's place among the fields held the same way
/// (`ComparedField.slot`).
package enum ComparedFieldRow: Sendable {
    /// Text, such as `productId`.
    case text(bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> String?)
    /// A numeric Apple id kept as text (the codec stores canonical decimals as numbers).
    case id(bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> String?)
    /// A date, epoch ms; the codec stores it relative to `base`'s value, else the record's time.
    case date(bit: Int, base: ComparedField?, read: @Sendable (ResponseBodyV2DecodedPayload) -> Int64?)
    /// A small number, such as `autoRenewStatus`.
    case number(bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> Int?)
    /// A Boolean, such as `isUpgraded`.
    case flag(read: @Sendable (ResponseBodyV2DecodedPayload) -> Bool?)
    /// A small number compared between transactions only (against Apple's API view); notifications do not hold it.
    case notInNotifications(read: @Sendable (ResponseBodyV2DecodedPayload) -> Int?)

    /// The storage of the field's value, or nil for a field notifications do not hold.
    package var storage: ComparedFieldSlot.Storage? {
        switch self {
        case .text, .id: return .texts
        case .date: return .dates
        case .number: return .numbers
        case .flag: return .flags
        case .notInNotifications: return nil
        }
    }

    /// The codec's mask bit, or nil for flags and fields notifications do not hold.
    package var bit: Int? {
        switch self {
        case .text(let bit, _), .id(let bit, _), .date(let bit, _, _), .number(let bit, _): return bit
        case .flag, .notInNotifications: return nil
        }
    }
}

/// Where a compared field's value is held (`ComparedField.slot`): one of `FieldSlots`' storages, and its place there.
package struct ComparedFieldSlot: Sendable, Equatable {
    /// One of `FieldSlots`' storages.
    package enum Storage: Sendable, Hashable, CaseIterable {
        /// `texts`: text and id fields.
        case texts
        /// `dates`.
        case dates
        /// `numbers`.
        case numbers
        /// `flags`.
        case flags
    }

    /// The storage.
    package let storage: Storage
    /// The place in it.
    package let slot: Int
}

/// One entry of the compared-field table (`ComparedField.entry`): how the field is held, and where it is compared.
package struct ComparedFieldEntry: Sendable {
    /// The `V2FieldTable` paths of the members the field reads, the first present one winning.
    package let paths: [String]
    /// How the field is held and read; notification pairing compares every field with a slot.
    package let row: ComparedFieldRow
    /// Whether it is compared against Apple's API view (`TransactionReconciler`), and when.
    package let apiView: ComparedField.APIViewComparison?
    /// Whether it is an item of a subscription's state (`state_mismatch`), and where.
    package let state: StateItem?

    /// An entry reading the member at `path` (or, when it is absent, the one at `fallback`).
    package init(
        _ path: String, or fallback: String? = nil, _ row: ComparedFieldRow,
        apiView: ComparedField.APIViewComparison? = nil, state: StateItem? = nil
    ) {
        paths = [path] + (fallback.map { [$0] } ?? [])
        self.row = row
        self.apiView = apiView
        self.state = state
    }

    /// A field compared as an item of a subscription's state.
    package struct StateItem: Sendable {
        /// Compared between the V1 and V2 records' states at the period end (notification mode, `subscriptions.csv`).
        package let inNotifications: Bool
        /// Compared between V1's state and Apple's subscription status (API view), and when; nil when not.
        package let inStatuses: ComparedField.APIViewComparison?
        /// The item's value in a subscription state.
        package let read: @Sendable (SubscriptionState) -> ComparedValue

        /// An item.
        package init(
            inNotifications: Bool, inStatuses: ComparedField.APIViewComparison?,
            read: @escaping @Sendable (SubscriptionState) -> ComparedValue
        ) {
            self.inNotifications = inNotifications
            self.inStatuses = inStatuses
            self.read = read
        }
    }
}

/// A compared field's value in one record, as the generic comparison reads it from the table's reader.
package enum ComparedValue: Sendable, Equatable {
    /// Text or a numeric id, raw ("" when absent).
    case text(String)
    /// A date, epoch ms.
    case date(Int64?)
    /// A small number.
    case number(Int?)
    /// A Boolean.
    case flag(Bool?)

    /// The value, or nil when it is absent (an empty text, or no value).
    package var present: ComparedValue? {
        switch self {
        case .text(let text): return text.isEmpty ? nil : self
        case .date(nil), .number(nil), .flag(nil): return nil
        case .date, .number, .flag: return self
        }
    }
}

extension ComparedFieldRow {
    /// The field's value in `payload`, read by the row's reader.
    package func value(in payload: ResponseBodyV2DecodedPayload) -> ComparedValue {
        switch self {
        case .text(_, let read), .id(_, let read): return .text(read(payload) ?? "")
        case .date(_, _, let read): return .date(read(payload))
        case .number(_, let read), .notInNotifications(let read): return .number(read(payload))
        case .flag(let read): return .flag(read(payload))
        }
    }
}

extension ResponseBodyV2DecodedPayload {
    /// The transaction info, for the field table's readers.
    package var transaction: JWSTransactionDecodedPayload? { data.transactionInfo }
    /// The renewal info, for the field table's readers.
    package var renewal: JWSRenewalInfoDecodedPayload? { data.renewalInfo }
}
