/// The members of a V2 notification's models that a reader keeps as values: one bit per member, by its place in the
/// model's own visit order (`visitScalars` of the payload and of `data`, `visitMembers` of the transaction and renewal
/// info). The tape decoder makes a `String` only for kept members; the others are still read into the record's content
/// digest, straight from the bytes.
///
/// A consumer names the members it reads by their `V2FieldTable` paths (`init(paths:)`): `reconcile` names the compared
/// fields' paths from their table, so a compared field added there is kept with no edit here.
package struct V2MemberSelection: Sendable, Equatable {
    /// The payload's scalar members (`ResponseBodyV2DecodedPayload.visitScalars`); `notificationType` is always kept.
    package var notification: UInt64
    /// `data`'s scalar members (`NotificationData.visitScalars`).
    package var data: UInt64
    /// The transaction info's members (`JWSTransactionDecodedPayload.visitMembers`).
    package var transaction: UInt64
    /// The renewal info's members (`JWSRenewalInfoDecodedPayload.visitMembers`).
    package var renewal: UInt64

    /// Every member: the models as the reference path reads them.
    package static let all = V2MemberSelection(notification: ~0, data: ~0, transaction: ~0, renewal: ~0)

    /// A selection of the members whose bits are set.
    package init(notification: UInt64, data: UInt64, transaction: UInt64, renewal: UInt64) {
        self.notification = notification
        self.data = data
        self.transaction = transaction
        self.renewal = renewal
    }

    /// The members at `paths` (`V2FieldTable` paths: `notificationUUID`, `data.environment`,
    /// `data.transactionInfo.productId`), each by its place in its model's visit order; a path naming no member of the
    /// four models selects nothing.
    package init(paths: some Sequence<String>) {
        self.init(notification: 0, data: 0, transaction: 0, renewal: 0)
        for path in paths {
            let parts = path.split(separator: ".").map(String.init)
            switch (parts.count, parts.first) {
            case (1, _): notification |= Self.bit(parts[0], in: Self.keys.notification)
            case (2, "data"): data |= Self.bit(parts[1], in: Self.keys.data)
            case (3, "data") where parts[1] == "transactionInfo":
                transaction |= Self.bit(parts[2], in: Self.keys.transaction)
            case (3, "data") where parts[1] == "renewalInfo": renewal |= Self.bit(parts[2], in: Self.keys.renewal)
            default: break
            }
        }
    }

    /// The bit of `key` among `keys` (visit order), or 0.
    private static func bit(_ key: String, in keys: [String]) -> UInt64 {
        guard let place = keys.firstIndex(of: key), place < 64 else { return 0 }
        return 1 << UInt64(place)
    }

    /// Each model's member keys in visit order.
    private static let keys: (notification: [String], data: [String], transaction: [String], renewal: [String]) = {
        var payload = ResponseBodyV2DecodedPayload(notificationType: "")
        var notification = KeyNames()
        payload.visitScalars(&notification)
        var data = KeyNames()
        payload.data.visitScalars(&data)
        var transactionInfo = JWSTransactionDecodedPayload()
        var transaction = KeyNames()
        transactionInfo.visitMembers(&transaction)
        var renewalInfo = JWSRenewalInfoDecodedPayload()
        var renewal = KeyNames()
        renewalInfo.visitMembers(&renewal)
        return (notification.keys, data.keys, transaction.keys, renewal.keys)
    }()
}

/// Notes the keys of a model's members in visit order.
private struct KeyNames: V2MemberVisitor {
    /// The keys so far.
    var keys: [String] = []

    /// Notes a String member's key.
    mutating func visit(_ key: String, _ value: inout String?) { keys.append(key) }
    /// Notes an Int64 member's key.
    mutating func visit(_ key: String, _ value: inout Int64?) { keys.append(key) }
    /// Notes an Int member's key.
    mutating func visit(_ key: String, _ value: inout Int?) { keys.append(key) }
    /// Notes a Bool member's key.
    mutating func visit(_ key: String, _ value: inout Bool?) { keys.append(key) }
}

// MARK: - Reading from a tape

/// Reads a model's members from one tape object, as `V2MemberReader` does, but sets only the members `keep` selects,
/// and writes every member to `sink` as the model's `JSONByteSink` would write the fully read model: the record's
/// content digest without a `String` per member. A usual value (an unescaped string, an integer literal in canonical
/// form, a literal `true` or `false`) is copied from the bytes; anything else is converted as the reference does and
/// written from the converted value.
struct TapeMemberCopier: V2MemberVisitor {
    /// The object read.
    let object: TapeV2Object
    /// The kept members, by place in the visit order.
    let keep: UInt64
    /// Where the members are written.
    private var sink = JSONByteSink()
    /// The place of the next member visited.
    private var ordinal: UInt64 = 0

    /// A copier of `object`'s members, keeping those `keep` selects.
    private init(_ object: TapeV2Object, keep: UInt64) {
        self.object = object
        self.keep = keep
    }

    /// Runs `visit` (a model's member visit) over `object`'s members, keeping those `keep` selects and writing every
    /// one to `sink` (moved in and out, not copied).
    static func copy(
        _ object: TapeV2Object, keep: UInt64, into sink: inout JSONByteSink, _ visit: (inout TapeMemberCopier) -> Void
    ) {
        var copier = TapeMemberCopier(object, keep: keep)
        swap(&copier.sink, &sink)
        visit(&copier)
        swap(&copier.sink, &sink)
    }

    /// Whether the member being visited is kept (and moves on to the next one).
    private mutating func kept() -> Bool {
        defer { ordinal += 1 }
        return ordinal < 64 && keep & (1 << ordinal) != 0
    }

    /// Copies a string member.
    mutating func visit(_ key: String, _ value: inout String?) {
        let keepIt = kept()
        guard let token = object.member(key) else { return }
        let kind = object.kind(token)
        if !keepIt, kind == .string || kind == .number {
            // An unescaped string's bytes are its UTF-8; a number literal read as a string is its text.
            return sink.add(key, utf8: object.rawString(at: token).assumingMemoryBound(to: UInt8.self))
        }
        let text = object.scalar(at: token).string
        if keepIt { value = text }
        sink.add(key, text)
    }

    /// Copies an integer member.
    mutating func visit(_ key: String, _ value: inout Int64?) {
        let keepIt = kept()
        guard let token = object.member(key) else { return }
        let raw = object.rawString(at: token)
        if object.kind(token) == .number, let parsed = Self.canonicalInteger(raw) {
            if keepIt { value = parsed }
            return sink.add(key, literal: raw.assumingMemoryBound(to: UInt8.self))
        }
        let number = object.scalar(at: token).int64
        if keepIt { value = number }
        sink.add(key, number)
    }

    /// Copies an integer member.
    mutating func visit(_ key: String, _ value: inout Int?) {
        var wide = value.map(Int64.init)
        visit(key, &wide)
        if let wide { value = Int(truncatingIfNeeded: wide) }
    }

    /// Copies a Boolean member.
    mutating func visit(_ key: String, _ value: inout Bool?) {
        let keepIt = kept()
        guard let token = object.member(key) else { return }
        let flag = object.scalar(at: token).bool
        if keepIt { value = flag }
        sink.add(key, flag)
    }

    /// The value of `bytes` when they are an integer literal exactly as `String(Int64)` writes it: an optional `-`, no
    /// leading zero, at most 18 digits (so it fits), and not `-0`; else nil.
    static func canonicalInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        if digits.first == 0x30 { return digits.count == 1 && !negative ? 0 : nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return negative ? -value : value
    }
}
