/// The members of a V2 notification's models that a reader keeps as values: one bit per member, by its place in the
/// model's own visit order (`visitScalars` of the payload and of `data`, `visitMembers` of the transaction and renewal
/// info). The tape decoder makes a `String` only for kept members; the others are still read into the record's content
/// digest, straight from the bytes.
///
/// A consumer does not list members by hand: `read(by:)` finds the ones its reading of a payload depends on, so a
/// field added to what the consumer reads is kept with no edit here.
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

    /// The members `view` depends on: each member of each model is set alone to a few probe values in a payload whose
    /// transaction and renewal info are present and empty, and kept when `view` then differs from the empty payload's.
    /// `view` must read the payload directly (a member it reads only when another one is set would be missed; the
    /// differential tests compare its readings of kept-only and full payloads).
    package static func read<View: Equatable>(by view: (ResponseBodyV2DecodedPayload) -> View) -> V2MemberSelection {
        var empty = ResponseBodyV2DecodedPayload(notificationType: "")
        empty.data.transactionInfo = JWSTransactionDecodedPayload()
        empty.data.renewalInfo = JWSRenewalInfoDecodedPayload()
        let base = view(empty)
        /// The bits of the members of one model that change `view` when set by `set(probe)`.
        func probe(_ set: (inout ResponseBodyV2DecodedPayload, inout MemberProbe) -> Void) -> UInt64 {
            var bits: UInt64 = 0
            for ordinal in 0..<64 {
                var sample = 0
                while true {
                    var payload = empty
                    var setter = MemberProbe(target: ordinal, sample: sample)
                    set(&payload, &setter)
                    guard setter.applied else { break }
                    if view(payload) != base {
                        bits |= 1 << UInt64(ordinal)
                        break
                    }
                    sample += 1
                }
            }
            return bits
        }
        return V2MemberSelection(
            notification: probe { $0.visitScalars(&$1) },
            data: probe { $0.data.visitScalars(&$1) },
            transaction: probe { payload, setter in
                var transaction = JWSTransactionDecodedPayload()
                transaction.visitMembers(&setter)
                payload.data.transactionInfo = transaction
            },
            renewal: probe { payload, setter in
                var renewal = JWSRenewalInfoDecodedPayload()
                renewal.visitMembers(&setter)
                payload.data.renewalInfo = renewal
            })
    }
}

/// Sets the member at place `target` of the visited model to its `sample`-th probe value (`applied` says whether
/// there was one).
private struct MemberProbe: V2MemberVisitor {
    /// The member's place in the visit order.
    let target: Int
    /// Which probe value.
    let sample: Int
    /// Whether a value was set.
    var applied = false
    /// The place of the next member visited.
    private var ordinal = 0

    /// A probe of member `target` with value `sample`.
    init(target: Int, sample: Int) {
        self.target = target
        self.sample = sample
    }

    private static let strings = ["\u{1}probe", "Production", "Sandbox", "FAMILY_SHARED", "PURCHASED", "1", "true"]
    private static let integers: [Int64] = [1, 0, 2, -1, 1_700_000_000_000]
    private static let flags = [true, false]

    /// Sets `value` to the probe value when this is the target.
    private mutating func set<T>(_ value: inout T?, from samples: [T]) {
        defer { ordinal += 1 }
        guard ordinal == target, sample < samples.count else { return }
        value = samples[sample]
        applied = true
    }

    /// Probes a string member.
    mutating func visit(_ key: String, _ value: inout String?) { set(&value, from: Self.strings) }
    /// Probes an integer member.
    mutating func visit(_ key: String, _ value: inout Int64?) { set(&value, from: Self.integers) }
    /// Probes an integer member.
    mutating func visit(_ key: String, _ value: inout Int?) { set(&value, from: Self.integers.map { Int($0) }) }
    /// Probes a Boolean member.
    mutating func visit(_ key: String, _ value: inout Bool?) { set(&value, from: Self.flags) }
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
