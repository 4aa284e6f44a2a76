/// Rejects counted by cause (`ASNError.causeKey`) and side: one entry per distinct cause with its count and first
/// occurrence, in order of first appearance, so a run shows every problem at once instead of the first one 13,619 times.
package struct RejectCauses: Sendable, Equatable {
    /// One distinct cause.
    package struct Cause: Sendable, Equatable {
        /// `v1` or `v2`.
        package var side: String
        /// The cause the rejects were counted under (`RejectCauses.key`: `ASNError.causeKey`, digit runs as `#`).
        package var key: String
        /// How many rejects had this cause.
        package var count: Int
        /// The first reject's error (its message and location).
        package var first: ASNError

        /// Where the first reject was: `path:line`, `path[index]` or `path`.
        package var firstSource: String { first.location?.source ?? "" }

        /// One line for the console and `summary.csv`: the first message, the count and first location, then the
        /// advice after the message's first `; `, for example `v2 wrong_field_type: column 'auto_renew' (…) holds 't',
        /// which is not a whole number: 13,619 rejected, first at events.csv:2; add a boolean conversion (…)`.
        package var line: String {
            let message = first.message
            let head: Substring
            let tail: Substring
            if let split = message.range(of: "; ") {
                head = message[..<split.lowerBound]
                tail = message[split.lowerBound...]
            } else {
                head = message[...]
                tail = ""
            }
            let at = firstSource.isEmpty ? "" : ", first at \(firstSource)"
            return "\(side) \(first.code.rawValue): \(head): \(RejectCauses.grouped(count)) rejected\(at)\(tail)"
        }
    }

    /// The causes, in order of first appearance.
    package private(set) var causes: [Cause] = []
    private var positions: [String: Int] = [:]

    /// Creates an empty count.
    package init() {}

    /// Counts one reject of `side`.
    package mutating func add(side: String, _ error: ASNError) {
        let cause = Self.key(error)
        let key = side + "\u{0}" + cause
        if let position = positions[key] {
            causes[position].count += 1
        } else {
            positions[key] = causes.count
            causes.append(Cause(side: side, key: cause, count: 1, first: error))
        }
    }

    /// The cause a reject is counted under: `ASNError.causeKey` with every run of digits written `#`, so that messages
    /// differing only in a byte offset, line, column or array index (`malformed JSON at byte 586 (line 1, column 587)`)
    /// are one cause. Digits that are part of a word (`V1`, `V2`, `base64`, `ES256`) are names, not numbers, and stay.
    package static func key(_ error: ASNError) -> String {
        var out = ""
        var inDigits = false
        var keepDigits = false
        var previous: Unicode.Scalar?
        for scalar in error.causeKey.unicodeScalars {
            let isDigit = scalar.value >= 0x30 && scalar.value <= 0x39
            if isDigit && !inDigits { keepDigits = previous.map(isLetter) ?? false }
            if isDigit && !keepDigits {
                if !inDigits { out.append("#") }
            } else {
                out.unicodeScalars.append(scalar)
            }
            inDigits = isDigit
            previous = scalar
        }
        return out
    }

    /// Whether `scalar` is an ASCII letter.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 0x41 && scalar.value <= 0x5A) || (scalar.value >= 0x61 && scalar.value <= 0x7A)
    }

    /// The console lines for grouped rejects: a heading and one indented line per cause; none without rejects.
    package static func consoleLines(_ causes: [Cause]) -> [String] {
        guard !causes.isEmpty else { return [] }
        return ["  rejects by cause (\(causes.count) distinct):"] + causes.map { "    " + ConsoleText.line($0.line) }
    }

    /// `13619` as `13,619`.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 && c != "-" && digits[i - 1] != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}
