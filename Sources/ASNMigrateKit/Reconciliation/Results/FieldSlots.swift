/// Fixed-size storage for the compared fields' values, one slot per field of each kind (`ComparedField.row`), held
/// inline: no allocation per record. `RecordFacts` holds optionals, `FieldValues` the engine's compact form.
///
/// The capacities are the number of fields of each kind in the table; a new field of a full kind raises its count
/// here (`ComparedFieldTableTests` says which).
package struct FieldSlots<Text, Date, Number, Flag> {
    /// Text and id fields.
    package var texts: InlineArray<7, Text>
    /// Date fields.
    package var dates: InlineArray<5, Date>
    /// Number fields.
    package var numbers: InlineArray<5, Number>
    /// Flag fields.
    package var flags: InlineArray<2, Flag>

    /// Storage with every slot set to the given empty values.
    package init(text: Text, date: Date, number: Number, flag: Flag) {
        texts = InlineArray(repeating: text)
        dates = InlineArray(repeating: date)
        numbers = InlineArray(repeating: number)
        flags = InlineArray(repeating: flag)
    }
}

extension FieldSlots: Sendable where Text: Sendable, Date: Sendable, Number: Sendable, Flag: Sendable {}

extension FieldSlots: Equatable where Text: Equatable, Date: Equatable, Number: Equatable, Flag: Equatable {
    /// Slot by slot.
    package static func == (a: Self, b: Self) -> Bool {
        for i in a.texts.indices where a.texts[i] != b.texts[i] { return false }
        for i in a.dates.indices where a.dates[i] != b.dates[i] { return false }
        for i in a.numbers.indices where a.numbers[i] != b.numbers[i] { return false }
        for i in a.flags.indices where a.flags[i] != b.flags[i] { return false }
        return true
    }
}
