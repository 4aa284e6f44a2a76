/// One row of the V2 field table (`ComparedField.row`): how a compared field is held and where a V2 payload holds it.
///
/// The number first in each case is the field's slot among the fields held the same way (`FieldSlots`: texts and ids
/// share the text slots); `bit` is its mask bit in the nightly state's codec (`RecordFactsCodec`; flags live in that
/// codec's flag bits, two per slot).
package enum ComparedFieldRow: Sendable {
    /// Text, such as `productId`.
    case text(Int, bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> String?)
    /// A numeric Apple id kept as text (the codec stores canonical decimals as numbers).
    case id(Int, bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> String?)
    /// A date, epoch ms; the codec stores it relative to `base`'s value, else the record's time.
    case date(Int, bit: Int, base: ComparedField?, read: @Sendable (ResponseBodyV2DecodedPayload) -> Int64?)
    /// A small number, such as `autoRenewStatus`.
    case number(Int, bit: Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> Int?)
    /// A Boolean, such as `isUpgraded`.
    case flag(Int, read: @Sendable (ResponseBodyV2DecodedPayload) -> Bool?)
    /// A small number compared between transactions only (against Apple's API view); notifications do not hold it.
    case notInNotifications(read: @Sendable (ResponseBodyV2DecodedPayload) -> Int?)

    /// The slot of a text or id field, else nil.
    package var textSlot: Int? {
        switch self {
        case .text(let slot, _, _), .id(let slot, _, _): return slot
        default: return nil
        }
    }

    /// The slot of a date field, else nil.
    package var dateSlot: Int? {
        guard case .date(let slot, _, _, _) = self else { return nil }
        return slot
    }

    /// The slot of a number field, else nil.
    package var numberSlot: Int? {
        guard case .number(let slot, _, _) = self else { return nil }
        return slot
    }

    /// The slot of a flag field, else nil.
    package var flagSlot: Int? {
        guard case .flag(let slot, _) = self else { return nil }
        return slot
    }

    /// The codec's mask bit, or nil for flags and fields notifications do not hold.
    package var bit: Int? {
        switch self {
        case .text(_, let bit, _), .id(_, let bit, _), .date(_, let bit, _, _), .number(_, let bit, _): return bit
        case .flag, .notInNotifications: return nil
        }
    }
}

/// One entry of the compared-field table (`ComparedField.entry`): how the field is held, and where it is compared.
package struct ComparedFieldEntry: Sendable {
    /// How the field is held and where a V2 payload holds it; notification pairing compares every field with a slot.
    package let row: ComparedFieldRow
    /// Whether it is compared against Apple's API view (`TransactionReconciler`), and when.
    package let apiView: ComparedField.APIViewComparison?
    /// Whether it is an item of a subscription's state (`state_mismatch`), and where.
    package let state: StateItem?

    /// An entry.
    package init(_ row: ComparedFieldRow, apiView: ComparedField.APIViewComparison? = nil, state: StateItem? = nil) {
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
}

extension ComparedFieldRow {
    /// The field's value in `payload`, read by the row's reader.
    package func value(in payload: ResponseBodyV2DecodedPayload) -> ComparedValue {
        switch self {
        case .text(_, _, let read), .id(_, _, let read): return .text(read(payload) ?? "")
        case .date(_, _, _, let read): return .date(read(payload))
        case .number(_, _, let read), .notInNotifications(let read): return .number(read(payload))
        case .flag(_, let read): return .flag(read(payload))
        }
    }
}

extension ResponseBodyV2DecodedPayload {
    /// The transaction info, for the field table's readers.
    package var transaction: JWSTransactionDecodedPayload? { data.transactionInfo }
    /// The renewal info, for the field table's readers.
    package var renewal: JWSRenewalInfoDecodedPayload? { data.renewalInfo }
}
