/// Validation of option values: enumerated words, whole numbers and durations, each failing with a usage error.
public enum ArgumentValue {
    // MARK: - Validators

    /// `text` if it is one of `allowed`, else a usage error naming the allowed values (and the closest one).
    public static func choice(_ text: String, option: String, among allowed: [String]) throws(ASNError) -> String {
        guard !allowed.contains(text) else { return text }
        var message = "option '\(option)' must be one of: \(allowed.joined(separator: ", ")) (got '\(text)'"
        if let suggestion = Suggestion.closest(to: text, among: allowed) { message += "; did you mean '\(suggestion)'?" }
        throw ASNError(.usage, message + ")")
    }

    /// `text` as a whole number within `range` (if any), else a usage error.
    public static func integer(_ text: String, option: String, in range: ClosedRange<Int>? = nil) throws(ASNError) -> Int {
        guard let number = Int(text) else {
            throw ASNError(.usage, "option '\(option)' needs a whole number (got '\(text)')")
        }
        if let range, !range.contains(number) {
            throw ASNError(.usage, "option '\(option)' must be between \(range.lowerBound) and \(range.upperBound) (got \(number))")
        }
        return number
    }

    /// `text` as milliseconds: one or more number-unit pairs with units `ms`, `s`, `m`, `h`, `d` (`48h`, `1h30m`), else a usage error.
    public static func durationMilliseconds(_ text: String, option: String) throws(ASNError) -> Int64 {
        let failure = ASNError(.usage, "option '\(option)' needs a duration such as 48h, 90m, 3600s or 2d (got '\(text)')")
        var total: Int64 = 0
        var rest = Substring(text)
        guard !rest.isEmpty else { throw failure }
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix(while: { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(unit.count)
            guard let amount = Int64(digits), let scale = unitMilliseconds[String(unit)] else { throw failure }
            let (product, overflowA) = amount.multipliedReportingOverflow(by: scale)
            let (sum, overflowB) = total.addingReportingOverflow(product)
            guard !overflowA, !overflowB else { throw ASNError(.usage, "option '\(option)' duration '\(text)' is too long") }
            total = sum
        }
        return total
    }

    /// Checks a value against an option's declared kind.
    static func validate(_ text: String, for spec: OptionSpec) throws(ASNError) {
        switch spec.valueKind {
        case .text: break
        case .choice(let allowed): _ = try choice(text, option: spec.long, among: allowed)
        case .integer(let range): _ = try integer(text, option: spec.long, in: range)
        case .duration: _ = try durationMilliseconds(text, option: spec.long)
        }
    }
}

// MARK: - Private constants

/// Milliseconds per duration unit.
private let unitMilliseconds: [String: Int64] = ["ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
