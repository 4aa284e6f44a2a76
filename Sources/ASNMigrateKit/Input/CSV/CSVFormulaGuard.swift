/// The spreadsheet formula guard of the CSV files this tool writes, declared once for the writer and the reader.
///
/// A cell whose first byte is `=`, `+`, `-`, `@`, tab or CR is written with a `'` in front, so that a spreadsheet
/// shows it as text instead of evaluating it. Reading undoes exactly that: a leading `'` followed by one of those
/// bytes is removed; any other leading `'` stays. So that every value survives the round trip, a value that itself
/// starts with one or more `'` and then one of those bytes (`'=x`) gets one more `'` too (`''=x`), and reading
/// removes one `'` from any cell made of `'`s then one of those bytes.
package enum CSVFormulaGuard {
    /// First bytes that make a spreadsheet treat a cell as a formula.
    package static let leaders: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D
    ]

    /// The guard byte put in front of such a cell.
    package static let mark = UInt8(ascii: "'")

    /// `cell` as written: with `'` in front when it starts with a formula leader (after any `'`s).
    package static func guarded(_ cell: String) -> String {
        needsGuard(cell) ? "'" + cell : cell
    }

    /// `cell` as read back: without the `'` the writer put in front; anything else unchanged.
    package static func unguarded(_ cell: String) -> String {
        guard cell.utf8.first == mark, needsGuard(cell) else { return cell }
        return String(cell.dropFirst())
    }

    /// Whether `cell` is `'`s (any number, none included) followed by a formula leader.
    private static func needsGuard(_ cell: String) -> Bool {
        guard let first = cell.utf8.first(where: { $0 != mark }) else { return false }
        return leaders.contains(first)
    }
}
