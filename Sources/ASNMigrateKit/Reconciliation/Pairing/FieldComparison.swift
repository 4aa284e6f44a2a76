/// The one comparison of a compared field's two values (`ComparedValue`), used by the API view's transactions and by
/// both state comparisons; notification pairing compares the engine's compact values (`FieldValues`) by the same table.
package enum FieldComparison {
    /// The report cells of one field's two values: dates as ISO 8601 (the second within `tolerance` of the first
    /// written as the first, so they compare equal), numbers in decimal, flags `true`/`false` (absent is `false`), text
    /// as is (absent is empty).
    package static func cells(_ mine: ComparedValue, _ theirs: ComparedValue, tolerance: Int64) -> (String, String) {
        let date = { (ms: Int64?) in ms.map(Timestamp.iso8601(ms:)) ?? "" }
        switch (mine, theirs) {
        case (.text(let a), .text(let b)): return (a, b)
        case (.date(let a), .date(let b)):
            return (date(a), TimeTolerance.equal(a, b, tolerance: tolerance) ? date(a) : date(b))
        case (.number(let a), .number(let b)): return (a.map(String.init) ?? "", b.map(String.init) ?? "")
        case (.flag(let a), .flag(let b)): return (String(a == true), String(b == true))
        default: return ("", "")
        }
    }

    /// The cells of two values that differ, or nil when they are equal (dates within `tolerance`), or when `when` is
    /// `.whenV1States` and the first side holds no value. Equal values are told without writing their cells, so
    /// comparing costs no text unless a row is made.
    package static func difference(
        _ mine: ComparedValue, _ theirs: ComparedValue, tolerance: Int64,
        when: ComparedField.APIViewComparison = .always
    ) -> (String, String)? {
        if when == .whenV1States, mine.isAbsent { return nil }
        if equal(mine, theirs, tolerance: tolerance) { return nil }
        let (left, right) = cells(mine, theirs, tolerance: tolerance)
        return left != right ? (left, right) : nil
    }

    /// Whether two values give the same cells (`cells`), told from the values themselves.
    private static func equal(_ mine: ComparedValue, _ theirs: ComparedValue, tolerance: Int64) -> Bool {
        switch (mine, theirs) {
        case (.text(let a), .text(let b)): return a == b
        case (.date(let a), .date(let b)): return TimeTolerance.equal(a, b, tolerance: tolerance)
        case (.number(let a), .number(let b)): return a == b
        case (.flag(let a), .flag(let b)): return (a == true) == (b == true)
        default: return true
        }
    }
}

extension ComparedValue {
    /// Whether the value's cell is empty: no text, date or number (a flag's cell is never empty).
    package var isAbsent: Bool {
        switch self {
        case .text(let text): return text.isEmpty
        case .date(let date): return date == nil
        case .number(let number): return number == nil
        case .flag: return false
        }
    }
}
