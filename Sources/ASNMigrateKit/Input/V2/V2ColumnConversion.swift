/// How a column map (format 2) turns a team's cell into the value a V2 field takes: `FIELD | COLUMN | CONVERSION`.
///
/// | conversion | cells | into |
/// |---|---|---|
/// | `boolean` | `t/f`, `true/false`, `yes/no`, `y/n`, `1/0`, any case | `true`/`false` for boolean fields (`isUpgraded`), `1`/`0` for integer fields (`autoRenewStatus`) |
/// | `scale N` | a decimal such as `2.99` or `-0.5` | the whole number `value × N`, exactly (`2.99` with `scale 1000` → `2990`); a result with a fraction is refused |
/// | `epoch-seconds` | seconds since 1970, optionally with a fraction | epoch milliseconds |
/// | `epoch-milliseconds` | milliseconds since 1970 | epoch milliseconds |
/// | `date` | ISO 8601 with or without zone, psql / MySQL / sqlite text (`2021-01-01 00:00:00`, `…+00`, `… UTC`, `…Z`) | epoch milliseconds; no zone is UTC |
package enum V2ColumnConversion: Sendable, Equatable {
    /// A boolean written in any of the usual spellings.
    case boolean
    /// A decimal multiplied by a whole factor, exactly (dollars to milliunits: `scale 1000`).
    case scale(Int64)
    /// Epoch seconds (with an optional fraction).
    case epochSeconds
    /// Epoch milliseconds.
    case epochMilliseconds
    /// A date as text, in any of the database forms.
    case date

    /// Parses the conversion part of a mapping line (`boolean`, `scale 1000`, `epoch-seconds`, …), or nil.
    static func parse(_ text: String) -> V2ColumnConversion? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first?.lowercased() {
        case "boolean" where words.count == 1: return .boolean
        case "epoch-seconds" where words.count == 1: return .epochSeconds
        case "epoch-milliseconds" where words.count == 1: return .epochMilliseconds
        case "date" where words.count == 1: return .date
        case "scale" where words.count == 2:
            guard let factor = Int64(words[1]), factor > 0 else { return nil }
            return .scale(factor)
        default: return nil
        }
    }

    /// The conversions a mapping line may name, for messages.
    static let spellings = "boolean, scale N, epoch-seconds, epoch-milliseconds, date"

    /// Whether this conversion can feed a field of `kind`.
    func fits(_ kind: V2ColumnMap.Kind) -> Bool {
        switch self {
        case .boolean: return kind == .boolean || kind == .integer
        case .scale: return kind == .integer
        case .epochSeconds, .epochMilliseconds, .date: return kind == .date
        }
    }

    /// The field kinds this conversion feeds, for messages.
    var fitsDescription: String {
        switch self {
        case .boolean: return "boolean or integer fields"
        case .scale: return "integer fields"
        case .epochSeconds, .epochMilliseconds, .date: return "date fields"
        }
    }

    /// What this conversion reads, for reject messages.
    var expects: String {
        switch self {
        case .boolean: return "a boolean (t/f, true/false, yes/no, y/n, 1/0)"
        case .scale(let factor): return "a decimal whose value × \(factor) is a whole number"
        case .epochSeconds: return "epoch seconds"
        case .epochMilliseconds: return "epoch milliseconds"
        case .date: return "a date (ISO 8601, or a psql, MySQL or sqlite timestamp)"
        }
    }

    /// The V2 value of a non-empty cell for a field of `kind`, or nil when the cell is not what this conversion reads.
    func apply(_ cell: String, kind: V2ColumnMap.Kind) -> JSONValue? {
        let text = cell.trimmingSpaces()
        switch self {
        case .boolean:
            guard let flag = Self.boolean(text) else { return nil }
            return kind == .boolean ? .bool(flag) : .number(flag ? "1" : "0")
        case .scale(let factor):
            return Self.scaled(text, by: factor).map { .number(String($0)) }
        case .epochSeconds:
            return Self.epochSeconds(text).map { .number(String($0)) }
        case .epochMilliseconds:
            guard let ms = Int64(text) else { return nil }
            return .number(String(ms))
        case .date:
            return Timestamp.parseDatabaseText(text).map { .number(String($0)) }
        }
    }

    // MARK: - Readers

    /// A boolean in any usual spelling, any case.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "t", "true", "y", "yes", "1": return true
        case "f", "false", "n", "no", "0": return false
        default: return nil
        }
    }

    /// `text` (an optional sign, digits, an optional fraction) times `factor`, exactly, or nil when the result has a
    /// fraction, overflows `Int64`, or the text is not a plain decimal (no exponent, no thousands separators).
    static func scaled(_ text: String, by factor: Int64) -> Int64? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        let integer = bytes.prefix(while: isDigit)
        var rest = bytes.dropFirst(integer.count)
        var fraction = rest.prefix(0)
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            fraction = rest.prefix(while: isDigit)
            rest = rest.dropFirst(fraction.count)
        }
        guard rest.isEmpty, !(integer.isEmpty && fraction.isEmpty) else { return nil }
        // value = digits / 10^fraction.count; result = digits × factor / 10^fraction.count, which must divide exactly.
        var digits: Int64 = 0
        for byte in integer + fraction {
            let (times, o1) = digits.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !o1, !o2 else { return nil }
            digits = plus
        }
        var divisor: Int64 = 1
        for _ in 0..<fraction.count {
            let (next, overflow) = divisor.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            divisor = next
        }
        var factor = factor
        while divisor > 1 && factor % 10 == 0 {
            factor /= 10
            divisor /= 10
        }
        let (product, overflow) = digits.multipliedReportingOverflow(by: factor)
        guard !overflow, product % divisor == 0 else { return nil }
        return negative ? -(product / divisor) : product / divisor
    }

    /// Epoch milliseconds of epoch seconds with an optional fraction of up to 3 digits (`1609459200`, `1609459200.5`).
    static func epochSeconds(_ text: String) -> Int64? {
        scaled(text, by: 1000)
    }
}
