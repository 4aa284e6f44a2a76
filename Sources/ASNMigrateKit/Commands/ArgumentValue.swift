/// Validation of option values: enumerated words, whole numbers and durations, each failing with a usage error.
package enum ArgumentValue {
    // MARK: - Validators

    /// `text` if it is one of `allowed`, else a usage error naming the allowed values (and the closest one).
    package static func choice(_ text: String, option: String, among allowed: [String]) throws(ASNError) -> String {
        guard !allowed.contains(text) else { return text }
        var message = "option '\(option)' must be one of: \(allowed.joined(separator: ", ")) (got '\(text)'"
        if let suggestion = Suggestion.closest(to: text, among: allowed) {
            message += "; did you mean '\(suggestion)'?"
        }
        throw ASNError(.usage, message + ")")
    }

    /// `text` as a whole number within `range` (if any), else a usage error.
    package static func integer(_ text: String, option: String, in range: ClosedRange<Int>? = nil) throws(ASNError)
        -> Int
    {
        guard let number = Int(text) else {
            throw ASNError(.usage, "option '\(option)' needs a whole number (got '\(text)')")
        }
        if let range, !range.contains(number) {
            throw ASNError(
                .usage, "option '\(option)' must be between \(range.lowerBound) and \(range.upperBound) (got \(number))"
            )
        }
        return number
    }

    /// `text` as milliseconds: one or more number-unit pairs with units `ms`, `s`, `m`, `h`, `d` (`48h`, `1h30m`), else a usage error.
    package static func durationMilliseconds(_ text: String, option: String) throws(ASNError) -> Int64 {
        switch DurationText.read(text) {
        case .milliseconds(let value): return value
        case .malformed:
            throw ASNError(.usage, "option '\(option)' needs a duration such as 48h, 90m, 3600s or 2d (got '\(text)')")
        case .tooLong: throw ASNError(.usage, "option '\(option)' duration '\(text)' is too long")
        }
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
