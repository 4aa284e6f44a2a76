/// A parsed JSON value; numbers keep their literal text so IDs never lose a digit.
public enum JSONValue: Sendable, Equatable {
    /// JSON `null`.
    case null
    /// JSON `true` / `false`.
    case bool(Bool)
    /// A JSON number, kept as its exact literal text (for example `"140000650438622"`).
    case number(String)
    /// A JSON string, unescaped.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object, members in document order.
    case object(JSONObject)

    // MARK: - Accessors

    /// The object, if this value is one.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array, if this value is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The string, if this value is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A short name of the value's JSON kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object: members in document order; lookup takes the last of duplicated keys, as Foundation does.
public struct JSONObject: Sendable, Equatable {
    /// One `"key": value` member.
    public struct Member: Sendable, Equatable {
        /// The member's key, unescaped.
        public var key: String
        /// The member's value.
        public var value: JSONValue
        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in document order (duplicates kept).
    public var members: [Member]

    /// Creates an object from members in order.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of the last member named `key`, or nil.
    public subscript(key: String) -> JSONValue? {
        var i = members.count - 1
        while i >= 0 {
            if members[i].key == key { return members[i].value }
            i -= 1
        }
        return nil
    }

    /// The keys, in document order.
    public var keys: [String] { members.map(\.key) }
}
