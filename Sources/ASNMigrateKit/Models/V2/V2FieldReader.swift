/// Reads V2 JSON fields without ever failing: a value of an unexpected kind is kept as its text, or dropped when it has none.
package struct V2FieldReader: Sendable {
    /// The object being read.
    package let object: JSONObject

    /// Creates a reader.
    package init(_ object: JSONObject) {
        self.object = object
    }

    /// A string field; numbers and booleans are given as their literal text.
    package func string(_ key: String) -> String? {
        switch object[key] {
        case .string(let s)?: return s
        case .number(let n)?: return n
        case .bool(let b)?: return b ? "true" : "false"
        default: return nil
        }
    }

    /// An integer field (dates in ms, codes); a numeric string is accepted too.
    package func int64(_ key: String) -> Int64? {
        switch object[key] {
        case .number(let n)?:
            if let v = Int64(n) { return v }
            // Xcode's StoreKit testing writes fractional milliseconds (1700358336049.7297): keep the whole ms.
            if let d = Double(n), d.isFinite, abs(d) < 9.0e15 { return Int64(d.rounded(.down)) }
            return nil
        case .string(let s)?: return Int64(s)
        default: return nil
        }
    }

    /// An integer field as `Int`.
    package func int(_ key: String) -> Int? {
        int64(key).map { Int(truncatingIfNeeded: $0) }
    }

    /// A boolean field; "true"/"false"/1/0 are accepted too.
    package func bool(_ key: String) -> Bool? {
        switch object[key] {
        case .bool(let b)?: return b
        case .number(let n)?: return n == "1" ? true : (n == "0" ? false : nil)
        case .string(let s)?:
            switch s.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        default: return nil
        }
    }
}

/// Builds ordered JSON objects, leaving out absent values.
package struct JSONObjectBuilder: Sendable, JSONMemberSink {
    /// The members so far.
    package private(set) var object = JSONObject()

    /// Creates an empty builder.
    package init() {}

    /// Adds a string member when present.
    package mutating func add(_ key: String, _ value: String?) {
        if let value { object.members.append(.init(key: key, value: .string(value))) }
    }

    /// Adds an integer member when present.
    package mutating func add(_ key: String, _ value: Int64?) {
        if let value { object.members.append(.init(key: key, value: .number(String(value)))) }
    }

    /// Adds an integer member when present.
    package mutating func add(_ key: String, _ value: Int?) {
        if let value { object.members.append(.init(key: key, value: .number(String(value)))) }
    }

    /// Adds a boolean member when present.
    package mutating func add(_ key: String, _ value: Bool?) {
        if let value { object.members.append(.init(key: key, value: .bool(value))) }
    }

    /// Adds an object member, from a model, when present.
    package mutating func add<Member: JSONMembers>(_ key: String, object value: Member?) {
        if let value { object.members.append(.init(key: key, value: .object(value.json))) }
    }

    /// Adds any JSON member when present.
    package mutating func add(_ key: String, json value: JSONValue?) {
        if let value { object.members.append(.init(key: key, value: value)) }
    }
}
