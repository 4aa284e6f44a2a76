import Foundation

/// The slots of the objects read from one tape: for each object, the value index of the last member of every
/// `V1Key` (and its `_ms` form), or -1. Shared by the `TapeFieldSource`s of one record; one allocation, room for
/// every object of the tape, so reading a slot is a plain load.
final class TapeSlots {
    /// The tape being read.
    private(set) var tape: JSONTape
    /// `V1Keys.slotCount` slots for each object of the tape.
    private(set) var slots: UnsafeMutablePointer<Int32>
    /// How many objects the slots have room for.
    private var capacity: Int
    /// Objects filled so far.
    private var filled = 0

    /// Slots over a built tape.
    init(tape: JSONTape) {
        self.tape = tape
        capacity = max(1, tape.objectCount)
        slots = .allocate(capacity: capacity * V1Keys.slotCount)
    }

    /// Frees the slots.
    deinit {
        slots.deallocate()
    }

    /// Scans the `count` bytes at `base` into the tape this object owns (its token storage reused) and makes room
    /// for its objects' slots, growing only when a document has more objects than any before; false when the tape
    /// declines the bytes. Sources made before are void afterwards.
    func load(base: UnsafePointer<UInt8>, count: Int) -> Bool {
        filled = 0
        guard tape.rebuild(base: base, count: count) else { return false }
        if tape.objectCount > capacity {
            slots.deallocate()
            capacity = max(tape.objectCount, capacity * 2)
            slots = .allocate(capacity: capacity * V1Keys.slotCount)
        }
        return true
    }

    /// Fills the slots of the object at `object`; returns where they start (nil when each object was filled already,
    /// which the decoding never does).
    func fill(_ object: Int) -> Int? {
        guard filled < capacity else { return nil }
        let base = filled * V1Keys.slotCount
        filled += 1
        let mine = slots + base
        mine.initialize(repeating: -1, count: V1Keys.slotCount)
        let tape = self.tape
        let bytes = tape.base
        tape.tokens.withUnsafeBufferPointer { tokens in
            let end = tokens[object].end
            var k = object + 1
            while k < end {
                let key = tokens[k]
                if let slot = V1Keys.table.lookup(bytes + key.start, key.end - key.start) {
                    mine[slot] = Int32(truncatingIfNeeded: k + 1)
                }
                let value = tokens[k + 1]
                k = value.kind == .object || value.kind == .array ? value.end : k + 2
            }
        }
        return base
    }
}

/// One object of a tape as a `V1FieldSource`: `V1FieldReader`'s rules over the raw bytes. Anything the reader would
/// throw on, or that is unusual (escaped strings in fields, legacy spellings of booleans, trimmed spaces), declines,
/// so the reference path gives the exact outcome and message.
struct TapeFieldSource: V1FieldSource {
    /// The record's slots (and tape).
    let record: TapeSlots
    /// Where this object's slots start.
    private(set) var base: Int
    /// The tape, held here so reading a field does not go through the record's (mutable) storage.
    private let tape: JSONTape
    /// This object's slots.
    private var mine: UnsafeMutablePointer<Int32>

    /// The object at `object` of `record`; declines if the record has no room left (never in practice).
    init(_ record: TapeSlots, object: Int) throws(FastPathDeclined) {
        guard let base = record.fill(object) else { throw FastPathDeclined() }
        self.record = record
        self.base = base
        tape = record.tape
        mine = record.slots + base
    }

    /// Makes this source the object at `object` of the same record (a list's next entry), without a new source's
    /// retains of the record and tape.
    private mutating func move(to object: Int) throws(FastPathDeclined) {
        guard let base = record.fill(object) else { throw FastPathDeclined() }
        self.base = base
        mine = record.slots + base
    }

    // MARK: - V1FieldSource

    /// `V1FieldReader.requiredString`, for a plain non-empty string.
    func requiredString(_ key: V1Key) throws(FastPathDeclined) -> String {
        text(Int(try requiredStringToken(key)))
    }

    /// `requiredString(_:)` as the token of its raw bytes.
    func requiredStringToken(_ key: V1Key) throws(FastPathDeclined) -> Int32 {
        let index = valueIndex(V1Keys.slot(key))
        guard index >= 0, tape.tokens[index].kind == .string, let value = present(index) else {
            throw FastPathDeclined()
        }
        return Int32(truncatingIfNeeded: value)
    }

    /// `V1FieldReader.string`.
    func string(_ key: V1Key) throws(FastPathDeclined) -> String? {
        let index = try stringToken(key)
        return index < 0 ? nil : text(Int(index))
    }

    /// `string(_:)` as the token whose raw bytes are the text (a plain string, a number or a literal), or -1.
    func stringToken(_ key: V1Key) throws(FastPathDeclined) -> Int32 {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return -1 }
        switch tape.tokens[index].kind {
        case .string, .number, .trueLiteral, .falseLiteral: return Int32(truncatingIfNeeded: index)
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.identifier`.
    func identifier(_ key: V1Key) throws(FastPathDeclined) -> String? {
        let index = try identifierToken(key)
        return index < 0 ? nil : text(Int(index))
    }

    /// `identifier(_:)` as the token of its raw digits, or -1.
    func identifierToken(_ key: V1Key) throws(FastPathDeclined) -> Int32 {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return -1 }
        let token = tape.tokens[index]
        switch token.kind {
        case .string, .number:
            // Raw digits only; anything else (escapes included) goes to the reference path, which decides.
            guard NumericID.isValid(tape.base, from: token.start, to: token.end) else { throw FastPathDeclined() }
            return Int32(truncatingIfNeeded: index)
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.bool`, for the usual spellings.
    func bool(_ key: V1Key) throws(FastPathDeclined) -> Bool? {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return nil }
        let token = tape.tokens[index]
        switch token.kind {
        case .trueLiteral: return true
        case .falseLiteral: return false
        case .string, .number:
            let length = token.end - token.start
            let p = tape.base + token.start
            if length == 1 && p[0] == 0x31 { return true }
            if length == 1 && p[0] == 0x30 { return false }
            if token.kind == .string {
                if length == 4 && memcmp(p, "true", 4) == 0 { return true }
                if length == 5 && memcmp(p, "false", 5) == 0 { return false }
            }
            throw FastPathDeclined()
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.code`.
    func code(_ key: V1Key) throws(FastPathDeclined) -> String? {
        let index = try codeToken(key)
        return index < 0 ? nil : text(Int(index))
    }

    /// `code(_:)` as the token of its raw digits, or -1.
    func codeToken(_ key: V1Key) throws(FastPathDeclined) -> Int32 {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return -1 }
        switch tape.tokens[index].kind {
        case .string, .number:
            guard allDigits(index) else { throw FastPathDeclined() }
            return Int32(truncatingIfNeeded: index)
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.date`: the `_ms` field, else the base field (digits, or the text forms).
    func date(_ key: V1Key) throws(FastPathDeclined) -> Int64? {
        if let index = present(valueIndex(V1Keys.millisecondsSlot(key))) {
            return try digitsValue(index)
        }
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return nil }
        switch tape.tokens[index].kind {
        case .number: return try digitsValue(index)
        case .string:
            guard !hasOuterSpace(index) else { throw FastPathDeclined() }
            if allDigits(index) { return try digitsValue(index) }
            guard let ms = V1Dates.parseText(text(index)) else { throw FastPathDeclined() }
            return ms
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.nested`.
    func nested(_ key: V1Key) throws(FastPathDeclined) -> TapeFieldSource? {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return nil }
        guard tape.tokens[index].kind == .object else { throw FastPathDeclined() }
        return try TapeFieldSource(record, object: index)
    }

    /// `V1FieldReader.objectList`: the entries of a list, or a single object.
    func objectList(_ key: V1Key) throws(FastPathDeclined) -> [TapeFieldSource] {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return [] }
        let token = tape.tokens[index]
        switch token.kind {
        case .object: return [try TapeFieldSource(record, object: index)]
        case .array:
            var objects: [TapeFieldSource] = []
            var k = index + 1
            while k < token.end {
                guard tape.tokens[k].kind == .object else { throw FastPathDeclined() }
                objects.append(try TapeFieldSource(record, object: k))
                k = tape.next(after: k)
            }
            return objects
        default: throw FastPathDeclined()
        }
    }

    /// `objectList(_:)` without the array: calls `body` with each entry of a list, or a single object, in order.
    func forEachObject(
        _ key: V1Key, _ body: (TapeFieldSource) throws(FastPathDeclined) -> Void
    ) throws(FastPathDeclined) {
        guard let index = present(valueIndex(V1Keys.slot(key))) else { return }
        let token = tape.tokens[index]
        switch token.kind {
        case .object: try body(try TapeFieldSource(record, object: index))
        case .array:
            var k = index + 1
            guard k < token.end else { return }
            guard tape.tokens[k].kind == .object else { throw FastPathDeclined() }
            // One source moved along the list: each entry is read before the next is filled.
            var source = try TapeFieldSource(record, object: k)
            while true {
                try body(source)
                k = tape.next(after: k)
                guard k < token.end else { return }
                guard tape.tokens[k].kind == .object else { throw FastPathDeclined() }
                try source.move(to: k)
            }
        default: throw FastPathDeclined()
        }
    }

    // MARK: - Private

    /// The value index in `slot` of this object, or -1.
    @inline(__always)
    private func valueIndex(_ slot: Int) -> Int {
        Int(mine[slot])
    }

    /// The value index unless absent, null or "".
    private func present(_ index: Int) -> Int? {
        guard index >= 0 else { return nil }
        let token = tape.tokens[index]
        if token.kind == .null { return nil }
        if token.kind == .string && token.start == token.end { return nil }
        return index
    }

    /// The raw bytes of a string or number token as a String.
    private func text(_ index: Int) -> String {
        let token = tape.tokens[index]
        return String(
            decoding: UnsafeBufferPointer(start: tape.base + token.start, count: token.end - token.start), as: UTF8.self
        )
    }

    /// Whether the token's bytes are all ASCII digits (at least one, at most `limit`).
    private func allDigits(_ index: Int, limit: Int = .max) -> Bool {
        let token = tape.tokens[index]
        let length = token.end - token.start
        guard length > 0, length <= limit else { return false }
        return ByteTables.allDigits(tape.base + token.start, length)
    }

    /// Whether a string token starts or ends with a space (which `trimmingSpaces` would remove).
    private func hasOuterSpace(_ index: Int) -> Bool {
        let token = tape.tokens[index]
        return tape.base[token.start] == 0x20 || tape.base[token.end - 1] == 0x20
    }

    /// The value of a string or number token of 1 to 18 digits.
    private func digitsValue(_ index: Int) throws(FastPathDeclined) -> Int64 {
        let token = tape.tokens[index]
        guard token.kind == .string || token.kind == .number, allDigits(index, limit: 18) else {
            throw FastPathDeclined()
        }
        return ByteTables.digitsValue(tape.base + token.start, token.end - token.start)
    }
}

/// Thrown when the fast path leaves a record to the reference path.
struct FastPathDeclined: Error {}
