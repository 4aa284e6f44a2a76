/// Reads V2 JSON fields without ever failing: a value of an unexpected kind is kept as its text, or dropped when it has none.
package struct V2FieldReader: Sendable, V2FieldSource {
    /// The object being read.
    package let object: JSONObject

    /// Creates a reader.
    package init(_ object: JSONObject) {
        self.object = object
    }

    /// The scalar value of the member `key` (the last one when repeated).
    package func scalar(_ key: String) -> V2Scalar? {
        switch object[key] {
        case nil: return nil
        case .string(let s)?: return .string(s)
        case .number(let n)?: return .number(n)
        case .bool(let b)?: return .bool(b)
        default: return .other
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
