/// A JSON object the V2 models read their fields from: a parsed `JSONObject` (`V2FieldReader`) or a token tape over
/// the raw bytes (`TapeV2Object`). A source gives each member's scalar value; the conversions, which never fail (a
/// value of an unexpected kind is kept as its text, or dropped when it has none), are shared below, so both sources
/// read every field the same way and the models declare their keys once.
package protocol V2FieldSource {
    /// The scalar value of the member `key` (the last one when the key is repeated); nil when absent.
    func scalar(_ key: String) -> V2Scalar?
}

/// A JSON member's value as the V2 readers see it.
package enum V2Scalar: Equatable {
    /// A string.
    case string(String)
    /// A number literal, as written.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`, an object or an array.
    case other
}

extension V2FieldSource {
    /// A string field; numbers and booleans are given as their literal text.
    package func string(_ key: String) -> String? {
        scalar(key)?.string
    }

    /// An integer field (dates in ms, codes); a numeric string is accepted too.
    package func int64(_ key: String) -> Int64? {
        scalar(key)?.int64
    }

    /// An integer field as `Int`.
    package func int(_ key: String) -> Int? {
        scalar(key)?.int
    }

    /// A boolean field; "true"/"false"/1/0 are accepted too.
    package func bool(_ key: String) -> Bool? {
        scalar(key)?.bool
    }
}

extension V2Scalar {
    /// The value as a string field reads it; numbers and booleans are given as their literal text.
    package var string: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .other: return nil
        }
    }

    /// The value as an integer field reads it (dates in ms, codes); a numeric string is accepted too.
    package var int64: Int64? {
        switch self {
        case .number(let n):
            if let v = Int64(n) { return v }
            // Xcode's StoreKit testing writes fractional milliseconds (1700358336049.7297): keep the whole ms.
            if let d = Double(n), d.isFinite, abs(d) < 9.0e15 { return Int64(d.rounded(.down)) }
            return nil
        case .string(let s): return Int64(s)
        default: return nil
        }
    }

    /// The value as an `Int` field reads it.
    package var int: Int? {
        int64.map { Int(truncatingIfNeeded: $0) }
    }

    /// The value as a boolean field reads it; "true"/"false"/1/0 are accepted too.
    package var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let n): return n == "1" ? true : (n == "0" ? false : nil)
        case .string(let s):
            switch s.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        case .other: return nil
        }
    }
}

/// Visits a model's optional scalar members in order, each by its key and `inout`, so a model names each key once
/// (in its `visitMembers`) for both reading (`V2MemberReader`) and writing (every `JSONMemberSink`).
package protocol V2MemberVisitor {
    /// A string member.
    mutating func visit(_ key: String, _ value: inout String?)
    /// An integer member.
    mutating func visit(_ key: String, _ value: inout Int64?)
    /// An integer member.
    mutating func visit(_ key: String, _ value: inout Int?)
    /// A Boolean member.
    mutating func visit(_ key: String, _ value: inout Bool?)
}

/// Sets each visited member from a field source.
package struct V2MemberReader<Source: V2FieldSource>: V2MemberVisitor {
    /// Where the values come from.
    package let source: Source

    /// A reader of `source`.
    package init(_ source: Source) {
        self.source = source
    }

    /// Sets a string member.
    package mutating func visit(_ key: String, _ value: inout String?) { value = source.string(key) }
    /// Sets an integer member.
    package mutating func visit(_ key: String, _ value: inout Int64?) { value = source.int64(key) }
    /// Sets an integer member.
    package mutating func visit(_ key: String, _ value: inout Int?) { value = source.int(key) }
    /// Sets a Boolean member.
    package mutating func visit(_ key: String, _ value: inout Bool?) { value = source.bool(key) }
}
