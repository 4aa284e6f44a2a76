/// A model whose members can be packed: an empty value and a visit of every member, by key and `inout`, in a fixed
/// order (the V2 models' `visitMembers`, and a V1 receipt entry's, `LatestReceiptInfo+Packing`).
package protocol PackableModel: Sendable {
    /// An empty model.
    init()
    /// Visits every member, by key and `inout`, in a fixed order.
    mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor)
}

extension JWSTransactionDecodedPayload: PackableModel {}
extension JWSRenewalInfoDecodedPayload: PackableModel {}

/// A model (a V2 transaction or renewal info, a V1 receipt entry) held compactly for a whole run, as Apple's API view
/// and the V1 archive's transactions are: one 64-bit word per present member, in the model's member order
/// (`visitMembers`), and a mask of the members present.
///
/// Text is a `StringPool` token: a numeric id is the number itself and other text is stored once in the pool, so a
/// hundred thousand transactions naming one product, bundle or subscription share one copy. Numbers and flags are
/// their bits. `unpacked(_:)` gives back exactly the model that was packed.
package struct PackedMembers<Model: PackableModel>: Sendable {
    /// Bit i is set when member i (in `visitMembers` order) is present.
    private var present: UInt64
    /// The present members' words, in order.
    private var words: [UInt64]

    /// The most members a model can have to be packed (one bit of the mask each).
    package static var capacity: Int { UInt64.bitWidth }

    /// Packs `model`, storing its text in `pool`.
    package init(_ model: Model, pool: inout StringPool) {
        var packer = Packer()
        packer.words.reserveCapacity(UInt64.bitWidth)
        swap(&packer.pool, &pool) // moved, not copied: the pool's tables stay uniquely referenced
        var copy = model
        copy.visitMembers(&packer)
        swap(&packer.pool, &pool)
        present = packer.present
        // A fresh buffer exactly as long as the members present (the packer's has room for every member).
        let filled = packer.words
        words = [UInt64](unsafeUninitializedCapacity: filled.count) { buffer, count in
            for (at, word) in filled.enumerated() { buffer[at] = word }
            count = filled.count
        }
    }

    /// The mask of the members present in `model` (bit i: member i in `visitMembers` order), read without packing.
    package static func presence(of model: Model) -> UInt64 {
        var counter = PresenceCounter()
        var copy = model
        copy.visitMembers(&counter)
        return counter.present
    }

    /// The mask of the members present.
    package var presence: UInt64 { present }

    /// The word of member `member` (its position in `visitMembers` order), nil when absent: one member read without
    /// unpacking the model (a text's word is its `StringPool` token, a number's its bits).
    package func word(_ member: Int) -> UInt64? {
        guard member >= 0, member < UInt64.bitWidth else { return nil }
        let bit = UInt64(1) << UInt64(member)
        guard present & bit != 0 else { return nil }
        let at = (present & (bit - 1)).nonzeroBitCount
        return at < words.count ? words[at] : nil
    }

    /// The position, in `visitMembers` order, of the one member `set` makes present in an empty model (`{
    /// $0.purchaseDate = 0 }`): named by the model's own property, never by a key string.
    package static func member(_ set: (inout Model) -> Void) -> Int {
        var model = Model()
        set(&model)
        return presence(of: model).trailingZeroBitCount
    }

    /// The model as packed; `pool` must be the pool it was packed with.
    package func unpacked(_ pool: StringPool) -> Model {
        var unpacker = Unpacker(pool: pool, present: present, words: words)
        var model = Model()
        model.visitMembers(&unpacker)
        return model
    }

    /// How many members `Model` visits.
    package static var memberCount: Int {
        var counter = Packer()
        var model = Model()
        model.visitMembers(&counter)
        return counter.member
    }
}

/// Turns each visited member into a word.
private struct Packer: V2MemberVisitor {
    var pool = StringPool()
    var present: UInt64 = 0
    var words: [UInt64] = []
    var member = 0

    mutating func visit(_ key: String, _ value: inout String?) { put(value.map { pool.token($0) }) }
    mutating func visit(_ key: String, _ value: inout Int64?) { put(value.map { UInt64(bitPattern: $0) }) }
    mutating func visit(_ key: String, _ value: inout Int?) { put(value.map { UInt64(bitPattern: Int64($0)) }) }
    mutating func visit(_ key: String, _ value: inout Bool?) { put(value.map { $0 ? 1 : 0 }) }

    /// Records member `member`'s word, or its absence.
    private mutating func put(_ word: UInt64?) {
        defer { member += 1 }
        guard let word, member < UInt64.bitWidth else { return }
        present |= 1 << UInt64(member)
        words.append(word)
    }
}

/// Notes which visited members are present.
private struct PresenceCounter: V2MemberVisitor {
    var present: UInt64 = 0
    var member = 0

    mutating func visit(_ key: String, _ value: inout String?) { put(value != nil) }
    mutating func visit(_ key: String, _ value: inout Int64?) { put(value != nil) }
    mutating func visit(_ key: String, _ value: inout Int?) { put(value != nil) }
    mutating func visit(_ key: String, _ value: inout Bool?) { put(value != nil) }

    /// Records member `member`'s presence.
    private mutating func put(_ isPresent: Bool) {
        defer { member += 1 }
        if isPresent, member < UInt64.bitWidth { present |= 1 << UInt64(member) }
    }
}

/// Sets each visited member from its word.
private struct Unpacker: V2MemberVisitor {
    let pool: StringPool
    let present: UInt64
    let words: [UInt64]
    var member = 0
    var next = 0

    init(pool: StringPool, present: UInt64, words: [UInt64]) {
        self.pool = pool
        self.present = present
        self.words = words
    }

    mutating func visit(_ key: String, _ value: inout String?) { value = take().flatMap { pool.text($0) } }
    mutating func visit(_ key: String, _ value: inout Int64?) { value = take().map { Int64(bitPattern: $0) } }
    mutating func visit(_ key: String, _ value: inout Int?) { value = take().map { Int(Int64(bitPattern: $0)) } }
    mutating func visit(_ key: String, _ value: inout Bool?) { value = take().map { $0 != 0 } }

    /// Member `member`'s word, nil when it was absent.
    private mutating func take() -> UInt64? {
        defer { member += 1 }
        guard member < UInt64.bitWidth, present & (1 << UInt64(member)) != 0, next < words.count else { return nil }
        defer { next += 1 }
        return words[next]
    }
}
