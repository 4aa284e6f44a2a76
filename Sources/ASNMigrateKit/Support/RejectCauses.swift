/// Rejects counted by cause (`ASNError.causeKey`) and side: one entry per distinct cause with its count and first
/// occurrence, in order of first appearance, so a run shows every problem at once instead of the first one 13,619 times.
public struct RejectCauses: Sendable, Equatable {
    /// One distinct cause.
    public struct Cause: Sendable, Equatable {
        /// `v1` or `v2`.
        public var side: String
        /// `ASNError.causeKey` of the rejects counted.
        public var key: String
        /// How many rejects had this cause.
        public var count: Int
        /// The first reject's error (its message and location).
        public var first: ASNError

        /// Where the first reject was: `path:line`, `path[index]` or `path`.
        public var firstSource: String { first.location?.source ?? "" }

        /// One line for the console and `summary.csv`: the first message, the count and first location, then the
        /// advice after the message's first `; `, for example `v2 wrong_field_type: column 'auto_renew' (…) holds 't',
        /// which is not a whole number: 13,619 rejected, first at events.csv:2; add a boolean conversion (…)`.
        public var line: String {
            let message = first.message
            let head: Substring, tail: Substring
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
    public private(set) var causes: [Cause] = []
    private var positions: [String: Int] = [:]

    /// Creates an empty count.
    public init() {}

    /// Counts one reject of `side`.
    public mutating func add(side: String, _ error: ASNError) {
        let key = side + "\u{0}" + error.causeKey
        if let position = positions[key] {
            causes[position].count += 1
        } else {
            positions[key] = causes.count
            causes.append(Cause(side: side, key: error.causeKey, count: 1, first: error))
        }
    }

    /// The console lines for grouped rejects: a heading and one indented line per cause; none without rejects.
    public static func consoleLines(_ causes: [Cause]) -> [String] {
        guard !causes.isEmpty else { return [] }
        return ["  rejects by cause (\(causes.count) distinct):"] + causes.map { "    \($0.line)" }
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
