import Foundation

/// A V1 record as the mapping reads it (`V1RecordView`), straight from its tape: each text is the token of its raw
/// bytes, dates are milliseconds, and the receipt's transactions are merged by transaction id as `ResponseBodyV1`
/// merges them. Fields are read by `TapeFieldSource`'s rules, kind by kind (`V1EntryField.kind`…), so a field the
/// models would reject declines the record; the storage is reused from record to record (`TapeRecordReader`).
struct TapeRecordView: V1RecordView {
    /// The record's tape.
    let tape: JSONTape
    /// `notification_type`'s token.
    let notificationType: Int32
    /// The body's fields, by `V1BodyField` (see `Storage`).
    var body: [Int64]
    /// The transactions' fields, `V1EntryField.allCases.count` a transaction.
    var entries: [Int64]
    /// The renewal entries' fields, `V1PendingField.allCases.count` an entry.
    var pendings: [Int64]

    /// A slot with no value: a text's token -1, a date `Int64.min`, a flag -1.
    static let absent: Int64 = -1
    /// An absent date.
    static let absentDate = Int64.min
    /// Slots a transaction takes.
    static let entryStride = V1EntryField.allCases.count
    /// Slots a renewal entry takes.
    static let pendingStride = V1PendingField.allCases.count

    /// How many transactions.
    var entryCount: Int { entries.count / Self.entryStride }
    /// How many renewal entries.
    var pendingCount: Int { pendings.count / Self.pendingStride }

    // MARK: - Fields

    /// A text of the body.
    func text(_ field: V1BodyField) -> Int32? { Self.text(body[field.rawValue]) }
    /// A date of the body.
    func date(_ field: V1BodyField) -> Int64? { Self.date(body[field.rawValue]) }
    /// A flag of the body.
    func flag(_ field: V1BodyField) -> Bool? { Self.flag(body[field.rawValue]) }
    /// A text of transaction `i`.
    func text(_ i: Int, _ field: V1EntryField) -> Int32? { Self.text(entries[i * Self.entryStride + field.rawValue]) }
    /// A date of transaction `i`.
    func date(_ i: Int, _ field: V1EntryField) -> Int64? { Self.date(entries[i * Self.entryStride + field.rawValue]) }
    /// A flag of transaction `i`.
    func flag(_ i: Int, _ field: V1EntryField) -> Bool? { Self.flag(entries[i * Self.entryStride + field.rawValue]) }
    /// A text of renewal entry `i`.
    func pendingText(_ i: Int, _ field: V1PendingField) -> Int32? {
        Self.text(pendings[i * Self.pendingStride + field.rawValue])
    }
    /// A date of renewal entry `i`.
    func pendingDate(_ i: Int, _ field: V1PendingField) -> Int64? {
        Self.date(pendings[i * Self.pendingStride + field.rawValue])
    }
    /// A flag of renewal entry `i`.
    func pendingFlag(_ i: Int, _ field: V1PendingField) -> Bool? {
        Self.flag(pendings[i * Self.pendingStride + field.rawValue])
    }

    /// A text slot's token.
    @inline(__always)
    private static func text(_ slot: Int64) -> Int32? { slot < 0 ? nil : Int32(truncatingIfNeeded: slot) }
    /// A date slot's value.
    @inline(__always)
    private static func date(_ slot: Int64) -> Int64? { slot == absentDate ? nil : slot }
    /// A flag slot's value.
    @inline(__always)
    private static func flag(_ slot: Int64) -> Bool? { slot < 0 ? nil : slot == 1 }

    // MARK: - Texts

    /// Whether two tokens have the same bytes.
    func same(_ a: Int32, _ b: Int32) -> Bool {
        let x = tape.tokens[Int(a)]
        let y = tape.tokens[Int(b)]
        let length = x.end - x.start
        return length == y.end - y.start && ByteTables.equal(tape.base + x.start, tape.base + y.start, length)
    }

    /// `IdentifierOrder.less` for two digit tokens (absent: the empty text).
    func identifierLess(_ a: Int32?, _ b: Int32?) -> Bool {
        guard let b else { return false }
        guard let a else { return true }
        let x = tape.tokens[Int(a)]
        let y = tape.tokens[Int(b)]
        var i = x.start
        while i < x.end && tape.base[i] == 0x30 { i += 1 }
        var j = y.start
        while j < y.end && tape.base[j] == 0x30 { j += 1 }
        let la = x.end - i
        let lb = y.end - j
        if la != lb { return la < lb }
        return ByteTables.compare(tape.base + i, la, tape.base + j, lb) < 0
    }

    /// `Int(text)` of a digits token: nil beyond `Int`.
    func integer(_ text: Int32) -> Int? {
        let t = tape.tokens[Int(text)]
        var value = 0
        for k in t.start..<t.end {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(tape.base[k] &- 0x30))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    /// A code's digits against a rule's argument, leading zeros aside (both absent: equal).
    func digitsMatch(_ text: Int32?, _ argument: String?) -> Bool {
        guard let text, let argument else { return text == nil && argument == nil }
        let t = tape.tokens[Int(text)]
        var i = t.start
        while i < t.end && tape.base[i] == 0x30 { i += 1 }
        let utf8 = argument.utf8
        var j = utf8.startIndex
        while j < utf8.endIndex && utf8[j] == 0x30 { j = utf8.index(after: j) }
        while i < t.end && j < utf8.endIndex {
            guard tape.base[i] == utf8[j] else { return false }
            i += 1
            j = utf8.index(after: j)
        }
        return i == t.end && j == utf8.endIndex
    }

    /// The environment of the token, compared without case (ASCII: the record has no other text).
    func environment(_ text: Int32) -> V2Environment<Int32> {
        let t = tape.tokens[Int(text)]
        if equalsLowercased(t, "prod") || equalsLowercased(t, "production") { return .production }
        if equalsLowercased(t, "sandbox") { return .sandbox }
        return .raw(text)
    }

    /// The token's bytes as a `String`.
    func string(_ text: Int32) -> String {
        let t = tape.tokens[Int(text)]
        return String(decoding: UnsafeBufferPointer(start: tape.base + t.start, count: t.end - t.start), as: UTF8.self)
    }

    /// The token's bytes in quotes: they need no escaping (the tape holds no escapes or control bytes in them).
    func appendJSON(_ text: Int32, to out: inout [UInt8]) {
        let t = tape.tokens[Int(text)]
        out.append(0x22)
        out.append(contentsOf: UnsafeBufferPointer(start: tape.base + t.start, count: t.end - t.start))
        out.append(0x22)
    }

    /// Gives the token's bytes to `body`.
    func withUTF8<R>(_ text: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let t = tape.tokens[Int(text)]
        return body(UnsafeRawBufferPointer(start: tape.base + t.start, count: t.end - t.start))
    }

    /// Whether the token's bytes, lowercased, are `word`.
    private func equalsLowercased(_ t: JSONTape.Token, _ word: StaticString) -> Bool {
        let length = t.end - t.start
        guard length == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<length {
            var byte = tape.base[t.start + k]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != w[k] { return false }
        }
        return true
    }
}

/// Reads records into `TapeRecordView`s, keeping their storage from record to record (one reader a thread).
final class TapeRecordReader {
    /// The storage of the last view, given back.
    private var body: [Int64] = []
    /// See `body`.
    private var entries: [Int64] = []
    /// See `body`.
    private var pendings: [Int64] = []
    /// A hash of each transaction's id (0 without one), for the merge.
    private var idHashes: [UInt64] = []
    /// How each receipt field is read, in slot order: taken once from `V1EntryField` (whose keys and kinds are the
    /// model's), so the loop over a record's entries reads no shared table.
    private let entryReads: [(key: V1Key, kind: V1FieldKind)] = V1EntryField.allCases.map { ($0.key, $0.kind) }
    /// How each `pending_renewal_info` field is read, in slot order.
    private let pendingReads: [(key: V1Key, kind: V1FieldKind)] = V1PendingField.allCases.map { ($0.key, $0.kind) }
    /// How each body field is read, in slot order.
    private let bodyReads: [(key: V1Key, kind: V1FieldKind)] = V1BodyField.allCases.map { ($0.key, $0.kind) }
    /// The slot of a transaction's id.
    private let transactionIdSlot = V1EntryField.transactionId.rawValue

    /// An empty reader.
    init() {
        body.reserveCapacity(V1BodyField.allCases.count)
        entries.reserveCapacity(64 * TapeRecordView.entryStride)
        pendings.reserveCapacity(4 * TapeRecordView.pendingStride)
        idHashes.reserveCapacity(64)
    }

    /// The most transactions a reader keeps room for between batches.
    static let keptEntries = 1 << 10

    /// Lets go of storage grown past what ordinary records need.
    func trim() {
        if entries.capacity > Self.keptEntries * TapeRecordView.entryStride {
            entries = []
            idHashes = []
        }
        if pendings.capacity > Self.keptEntries * TapeRecordView.pendingStride { pendings = [] }
    }

    /// Gives back a view's storage once the record is done.
    func recycle(_ view: inout TapeRecordView) {
        swap(&body, &view.body)
        swap(&entries, &view.entries)
        swap(&pendings, &view.pendings)
    }

    /// The view of the body object at `index` of `slots`' tape, by `ResponseBodyV1`'s reading (declining what it
    /// would reject).
    func read(_ slots: TapeSlots, body index: Int) throws(FastPathDeclined) -> TapeRecordView {
        let tape = slots.tape
        let r = try TapeFieldSource(slots, object: index)
        let type = try r.requiredStringToken(.notificationType)
        let unified = try r.nested(.unifiedReceipt)
        var body = self.body
        self.body = []
        body.removeAll(keepingCapacity: true)
        for (key, kind) in bodyReads {
            body.append(try Self.read(r, key, kind))
        }
        if body[V1BodyField.environment.rawValue] < 0, let unified {
            body[V1BodyField.environment.rawValue] = try Self.read(unified, .environment, .text)
        }
        var view = TapeRecordView(tape: tape, notificationType: type, body: body, entries: [], pendings: [])
        swap(&view.entries, &entries)
        swap(&view.pendings, &pendings)
        view.entries.removeAll(keepingCapacity: true)
        view.pendings.removeAll(keepingCapacity: true)
        idHashes.removeAll(keepingCapacity: true)
        do {
            if let unified { try addEntries(unified, .latestReceiptInfo, &view) }
            try addEntries(r, .latestReceiptInfo, &view)
            try addEntries(r, .latestExpiredReceiptInfo, &view)
            if let unified { try addPendings(unified, &view) }
            try addPendings(r, &view)
        } catch {
            recycle(&view)
            throw error
        }
        return view
    }

    /// One field's slot, by its kind's reading.
    private static func read(_ r: TapeFieldSource, _ key: V1Key, _ kind: V1FieldKind) throws(FastPathDeclined)
        -> Int64
    {
        switch kind {
        case .text: return Int64(try r.stringToken(key))
        case .identifier: return Int64(try r.identifierToken(key))
        case .code: return Int64(try r.codeToken(key))
        case .date:
            guard let date = try r.date(key) else { return TapeRecordView.absentDate }
            guard date != TapeRecordView.absentDate else { throw FastPathDeclined() }
            return date
        case .flag: return (try r.bool(key)).map { $0 ? 1 : 0 } ?? TapeRecordView.absent
        }
    }

    /// Adds the transactions of the list at `key`, filling the gaps of an earlier copy with the same transaction id
    /// instead (as `ResponseBodyV1` merges them).
    private func addEntries(_ r: TapeFieldSource, _ key: V1Key, _ view: inout TapeRecordView)
        throws(FastPathDeclined)
    {
        let stride = TapeRecordView.entryStride
        let reads = entryReads
        let idSlot = transactionIdSlot
        try r.forEachObject(key) { (source: TapeFieldSource) throws(FastPathDeclined) -> Void in
            let start = view.entries.count
            for (key, kind) in reads {
                view.entries.append(try Self.read(source, key, kind))
            }
            let id = view.entries[start + idSlot]
            let hash = id < 0 ? 0 : Self.hash(Int32(truncatingIfNeeded: id), view.tape)
            if id >= 0 {
                for k in self.idHashes.indices where self.idHashes[k] == hash {
                    let other = view.entries[k * stride + idSlot]
                    guard other >= 0,
                        view.same(Int32(truncatingIfNeeded: other), Int32(truncatingIfNeeded: id))
                    else { continue }
                    // `LatestReceiptInfo.fillGaps`: each field the earlier copy lacks, from this one.
                    for (slot, read) in reads.enumerated()
                    where Self.isAbsent(view.entries[k * stride + slot], read.kind) {
                        view.entries[k * stride + slot] = view.entries[start + slot]
                    }
                    view.entries.removeSubrange(start...)
                    return
                }
            }
            self.idHashes.append(hash)
        }
    }

    /// Adds the renewal entries of `pending_renewal_info`.
    private func addPendings(_ r: TapeFieldSource, _ view: inout TapeRecordView) throws(FastPathDeclined) {
        let reads = pendingReads
        try r.forEachObject(.pendingRenewalInfo) { (source: TapeFieldSource) throws(FastPathDeclined) -> Void in
            for (key, kind) in reads {
                view.pendings.append(try Self.read(source, key, kind))
            }
        }
    }

    /// Whether a slot of `kind` holds no value.
    private static func isAbsent(_ slot: Int64, _ kind: V1FieldKind) -> Bool {
        kind == .date ? slot == TapeRecordView.absentDate : slot < 0
    }

    /// A hash of a token's bytes (never 0), eight bytes a step: only compared within one record.
    private static func hash(_ token: Int32, _ tape: JSONTape) -> UInt64 {
        let t = tape.tokens[Int(token)]
        let raw = UnsafeRawPointer(tape.base)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(t.end - t.start)
        var k = t.start
        while k + 8 <= t.end {
            h = (h ^ raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0x0100_0000_01b3
            h ^= h >> 29
            k += 8
        }
        while k < t.end {
            h = (h ^ UInt64(tape.base[k])) &* 0x0100_0000_01b3
            k += 1
        }
        return h | 1
    }
}
