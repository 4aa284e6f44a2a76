/// The compared values of one record, compactly: text as pool tokens, dates as ms, small numbers as Int32, flags as
/// Int8, one slot per field of the V2 field table (`ComparedField.row`).
package struct FieldValues: Sendable, Equatable {
    /// Absent marker for dates.
    package static let noDate = Int64.min
    /// Absent marker for numbers.
    package static let noNumber = Int32.min

    /// The values: texts as tokens (0 absent), dates in ms (`noDate`), numbers (`noNumber`), flags (1 true, 0 false,
    /// -1 absent).
    private var slots = FieldSlots<StringPool.Token, Int64, Int32, Int8>(
        text: 0, date: noDate, number: noNumber, flag: -1)

    /// Extracts the compared values of a record's facts, interning text into `pool`.
    init(_ f: RecordFacts, pool: inout StringPool) {
        for i in slots.texts.indices { slots.texts[i] = pool.token(f.compared.texts[i]) }
        for i in slots.dates.indices { slots.dates[i] = f.compared.dates[i] ?? Self.noDate }
        for i in slots.numbers.indices { slots.numbers[i] = Self.number(f.compared.numbers[i]) }
        for i in slots.flags.indices { slots.flags[i] = f.compared.flags[i].map { $0 ? 1 : 0 } ?? -1 }
    }

    /// Extracts the compared values of a worker's packed facts (texts in `texts`), interning text into `pool`.
    init(_ f: PackedFacts, texts: FactTexts, pool: inout StringPool) {
        for i in slots.texts.indices { slots.texts[i] = pool.token(f.compared.texts[i], in: texts) }
        for i in slots.dates.indices { slots.dates[i] = f.compared.dates[i] ?? Self.noDate }
        for i in slots.numbers.indices { slots.numbers[i] = Self.number(f.compared.numbers[i]) }
        for i in slots.flags.indices { slots.flags[i] = f.compared.flags[i].map { $0 ? 1 : 0 } ?? -1 }
    }

    /// The value of one field as report text, or nil when absent.
    func text(_ field: ComparedField, pool: StringPool) -> String? {
        guard let s = field.slot else { return nil }
        switch s.storage {
        case .texts: return pool.text(slots.texts[s.slot])
        case .dates: return Self.date(slots.dates[s.slot])
        case .numbers: return Self.numberText(slots.numbers[s.slot])
        case .flags: return Self.boolText(slots.flags[s.slot])
        }
    }

    /// Whether a field is present.
    func has(_ field: ComparedField) -> Bool {
        guard let s = field.slot else { return false }
        switch s.storage {
        case .texts: return slots.texts[s.slot] != 0
        case .dates: return slots.dates[s.slot] != Self.noDate
        case .numbers: return slots.numbers[s.slot] != Self.noNumber
        case .flags: return slots.flags[s.slot] >= 0
        }
    }

    /// Whether a field has the same value in both (tokens are canonical, so equal text means equal token).
    func same(_ field: ComparedField, as other: FieldValues) -> Bool {
        guard let s = field.slot else { return true }
        switch s.storage {
        case .texts: return slots.texts[s.slot] == other.slots.texts[s.slot]
        case .dates: return slots.dates[s.slot] == other.slots.dates[s.slot]
        case .numbers: return slots.numbers[s.slot] == other.slots.numbers[s.slot]
        case .flags: return slots.flags[s.slot] == other.slots.flags[s.slot]
        }
    }

    /// The pool token of a text or id field (0 when absent or not text).
    func token(_ field: ComparedField) -> StringPool.Token {
        field.textSlot.map { slots.texts[$0] } ?? 0
    }

    /// The value of a date field, ms (nil for other fields or when absent).
    func date(_ field: ComparedField) -> Int64? {
        guard let slot = field.dateSlot, slots.dates[slot] != Self.noDate else { return nil }
        return slots.dates[slot]
    }

    /// The value of a number field (nil for other fields or when absent).
    func number(_ field: ComparedField) -> Int? {
        guard let slot = field.numberSlot, slots.numbers[slot] != Self.noNumber else { return nil }
        return Int(slots.numbers[slot])
    }

    /// The value of a flag field (nil for other fields or when absent).
    func flag(_ field: ComparedField) -> Bool? {
        guard let slot = field.flagSlot, slots.flags[slot] >= 0 else { return nil }
        return slots.flags[slot] == 1
    }

    // MARK: - Private

    private static func number(_ value: Int?) -> Int32 {
        guard let value, let narrow = Int32(exactly: value), narrow != noNumber else { return noNumber }
        return narrow
    }

    private static func date(_ ms: Int64) -> String? {
        ms == noDate ? nil : Timestamp.iso8601(ms: ms)
    }

    private static func numberText(_ n: Int32) -> String? {
        n == noNumber ? nil : String(n)
    }

    private static func boolText(_ b: Int8) -> String? {
        b < 0 ? nil : (b == 1 ? "true" : "false")
    }
}
