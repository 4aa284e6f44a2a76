/// A parsed JSON value; numbers keep their literal text so IDs never lose a digit.
package enum JSONValue: Sendable, Equatable {
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
    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array, if this value is one.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The string, if this value is one.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A short name of the value's JSON kind, for error messages.
    package var kindName: String {
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
package struct JSONObject: Sendable, Equatable {
    /// One `"key": value` member.
    package struct Member: Sendable, Equatable {
        /// The member's key, unescaped.
        package var key: String
        /// The member's value.
        package var value: JSONValue
        /// Creates a member.
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in document order (duplicates kept).
    package var members: [Member]

    /// Creates an object from members in order.
    package init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of the last member named `key`, or nil.
    package subscript(key: String) -> JSONValue? {
        var i = members.count - 1
        while i >= 0 {
            if members[i].key == key { return members[i].value }
            i -= 1
        }
        return nil
    }

    /// The keys, in document order.
    package var keys: [String] { members.map(\.key) }
}
