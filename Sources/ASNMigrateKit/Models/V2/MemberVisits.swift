/// One member's value as a member visit carries it between two models of one type, or from a sink into a model: the
/// member's own type decides how it is stored (`Int` or `Int64`) when it is set.
package enum MemberValue: Sendable, Equatable {
    /// Text.
    case text(String)
    /// A whole number (dates are ms).
    case integer(Int64)
    /// A Boolean.
    case flag(Bool)

    /// The most members a model set by `setMembers` can have.
    package static let capacity = 32
}

/// A model that visits its members in a fixed order, by key and `inout`: the V2 transaction and renewal info, and a
/// V1 receipt entry. What is done to every member (found, set, read, merged) is done by that one visit.
package protocol MemberVisitable {
    /// An empty model.
    init()
    /// Visits every member, by key and `inout`, in a fixed order.
    mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor)
}

extension MemberVisitable {
    /// The position, in `visitMembers` order, of the member keyed `key`, or nil: found by the model's own visit, for
    /// tables computed once, never per record.
    package static func memberPosition(_ key: String) -> Int? {
        var finder = MemberFinder(key: key)
        var model = Self()
        model.visitMembers(&finder)
        return finder.found
    }

    /// The value of member `at` (in `visitMembers` order), or nil when it is absent.
    package func member(at: Int) -> MemberValue? {
        var picker = MemberPicker(at: at)
        var copy = self
        copy.visitMembers(&picker)
        return picker.value
    }

    /// The mask of the members present (bit i: member i in `visitMembers` order).
    package var memberPresence: UInt64 {
        var reader = MemberPicker(at: -1)
        var copy = self
        copy.visitMembers(&reader)
        return reader.present
    }

    /// Sets member i (in `visitMembers` order) to `values[i]` where that is not nil, in one visit; a value of the
    /// wrong type for its member leaves it as it was. A model has at most `MemberValue.capacity` members
    /// (`MemberVisitsTests` checks the models).
    package mutating func setMembers(_ values: InlineArray<32, MemberValue?>) {
        var setter = MemberSetter(values: values)
        visitMembers(&setter)
    }

    /// Fills each member of `members` (bit i: member i in `visitMembers` order) that this model lacks with `other`'s
    /// value: the merge of two copies of one record, member by member, by the model's own visit.
    package mutating func fillGaps(_ members: UInt64, from other: Self) {
        var need = members & ~memberPresence & other.memberPresence
        while need != 0 {
            var picker = MemberPicker(at: need.trailingZeroBitCount)
            var copy = other
            copy.visitMembers(&picker)
            if let value = picker.value {
                var values = InlineArray<32, MemberValue?>(repeating: nil)
                values[need.trailingZeroBitCount] = value
                setMembers(values)
            }
            need &= need - 1
        }
    }
}

/// Finds the position of the member with a key.
private struct MemberFinder: V2MemberVisitor {
    let key: String
    var member = 0
    var found: Int?

    mutating func visit(_ key: String, _ value: inout String?) { note(key) }
    mutating func visit(_ key: String, _ value: inout Int64?) { note(key) }
    mutating func visit(_ key: String, _ value: inout Int?) { note(key) }
    mutating func visit(_ key: String, _ value: inout Bool?) { note(key) }

    /// Notes member `member` when its key is the one sought.
    private mutating func note(_ visited: String) {
        if found == nil, visited == key { found = member }
        member += 1
    }
}

/// Reads which members are present, and the value of the one at `at`.
private struct MemberPicker: V2MemberVisitor {
    let at: Int
    var member = 0
    var present: UInt64 = 0
    var value: MemberValue?

    init(at: Int) { self.at = at }

    mutating func visit(_ key: String, _ value: inout String?) { note(value.map(MemberValue.text)) }
    mutating func visit(_ key: String, _ value: inout Int64?) { note(value.map(MemberValue.integer)) }
    mutating func visit(_ key: String, _ value: inout Int?) { note(value.map { .integer(Int64($0)) }) }
    mutating func visit(_ key: String, _ value: inout Bool?) { note(value.map(MemberValue.flag)) }

    /// Notes member `member`'s value.
    private mutating func note(_ visited: MemberValue?) {
        defer { member += 1 }
        guard let visited else { return }
        if member < UInt64.bitWidth { present |= 1 << UInt64(member) }
        if member == at { value = visited }
    }
}

/// Sets each member from its value, where one is given.
private struct MemberSetter: V2MemberVisitor {
    var values: InlineArray<32, MemberValue?>
    var member = 0

    mutating func visit(_ key: String, _ value: inout String?) {
        if case .text(let text) = take() { value = text }
    }
    mutating func visit(_ key: String, _ value: inout Int64?) {
        if case .integer(let number) = take() { value = number }
    }
    mutating func visit(_ key: String, _ value: inout Int?) {
        if case .integer(let number) = take() { value = Int(truncatingIfNeeded: number) }
    }
    mutating func visit(_ key: String, _ value: inout Bool?) {
        if case .flag(let flag) = take() { value = flag }
    }

    /// Member `member`'s value, if one is given.
    private mutating func take() -> MemberValue? {
        defer { member += 1 }
        return member < values.count ? values[member] : nil
    }
}

/// Where a V2 payload holds a member named by a `V2FieldTable` path: `data`'s scalars, the transaction info or the
/// renewal info, at the member's place in that object's visit (found once by key), so a reader of a path reads by
/// the model's own member visit.
package enum MemberPlace: Sendable {
    /// A scalar of `data` (`NotificationData.visitScalars`).
    case data(Int)
    /// A member of `data.transactionInfo`.
    case transaction(Int)
    /// A member of `data.renewalInfo`.
    case renewal(Int)

    /// The place of the member at `path` (`data.transactionInfo.productId`), or nil for a path of no such member.
    package init?(path: String) {
        let parts = path.split(separator: ".").map(String.init)
        guard parts.first == "data" else { return nil }
        if parts.count == 2 {
            var finder = MemberFinder(key: parts[1])
            var data = NotificationData()
            data.visitScalars(&finder)
            guard let at = finder.found else { return nil }
            self = .data(at)
        } else if parts.count == 3, parts[1] == NotificationData.transactionKeys.decoded,
            let at = JWSTransactionDecodedPayload.memberPosition(parts[2])
        {
            self = .transaction(at)
        } else if parts.count == 3, parts[1] == NotificationData.renewalKeys.decoded,
            let at = JWSRenewalInfoDecodedPayload.memberPosition(parts[2])
        {
            self = .renewal(at)
        } else {
            return nil
        }
    }

    /// The value at the first of `places` that `payload` holds, or nil.
    package static func read(_ payload: ResponseBodyV2DecodedPayload, _ places: [MemberPlace]) -> MemberValue? {
        for place in places {
            let value: MemberValue?
            switch place {
            case .data(let at):
                var picker = MemberPicker(at: at)
                var data = payload.data
                data.visitScalars(&picker)
                value = picker.value
            case .transaction(let at): value = payload.data.transactionInfo?.member(at: at)
            case .renewal(let at): value = payload.data.renewalInfo?.member(at: at)
            }
            if let value { return value }
        }
        return nil
    }
}
