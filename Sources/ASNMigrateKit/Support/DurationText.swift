/// Durations written as number-unit pairs (`48h`, `1h30m`, `3600s`, `2d`, `500ms`), read as milliseconds.
///
/// Shared by command-line options (`ArgumentValue.durationMilliseconds`), mapping-table settings and the nightly
/// configuration file; each caller words its own error, so this lives below all of them and throws nothing.
package enum DurationText {
    /// What reading a duration gave.
    package enum Reading: Sendable, Equatable {
        /// A valid duration, in milliseconds.
        case milliseconds(Int64)
        /// Not one or more number-unit pairs with units `ms`, `s`, `m`, `h`, `d`.
        case malformed
        /// Well formed, but more milliseconds than an `Int64` holds.
        case tooLong
    }

    /// Reads `text` as one or more number-unit pairs (ASCII digits, then a unit among `ms`, `s`, `m`, `h`, `d`), or a
    /// bare `0` (zero needs no unit).
    package static func read(_ text: String) -> Reading {
        if text == "0" { return .milliseconds(0) }
        var total: Int64 = 0
        var rest = Substring(text)
        guard !rest.isEmpty else { return .malformed }
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix(while: { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(unit.count)
            guard let amount = Int64(digits), let scale = unitMilliseconds[String(unit)] else { return .malformed }
            let (product, overflowA) = amount.multipliedReportingOverflow(by: scale)
            let (sum, overflowB) = total.addingReportingOverflow(product)
            guard !overflowA, !overflowB else { return .tooLong }
            total = sum
        }
        return .milliseconds(total)
    }

    /// `text` in milliseconds, or nil when it is malformed or too long.
    package static func milliseconds(_ text: String) -> Int64? {
        if case .milliseconds(let value) = read(text) { return value }
        return nil
    }
}

// MARK: - Private constants

/// Milliseconds per duration unit.
private let unitMilliseconds: [String: Int64] = ["ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
