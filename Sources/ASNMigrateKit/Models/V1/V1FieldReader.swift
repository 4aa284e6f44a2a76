/// Reads V1 fields tolerantly, as real archives spell them, and fails with the key's path when a value cannot be read.
///
/// Empty strings count as absent. IDs are kept as text, whatever JSON kind carried them.
package struct V1FieldReader: Sendable {
    /// The object being read.
    package let object: JSONObject
    /// Where the object is, for error messages.
    package let location: SourceLocation
    /// The dotted key path of `object` within the record (empty at top level).
    package let keyPath: String

    /// Creates a reader over one JSON object.
    package init(_ object: JSONObject, location: SourceLocation, keyPath: String = "") {
        self.object = object
        self.location = location
        self.keyPath = keyPath
    }

    // MARK: - Paths and errors

    /// The dotted path of `key` within the record.
    package func path(_ key: String) -> String {
        keyPath.isEmpty ? key : "\(keyPath).\(key)"
    }

    /// A wrong-field-type error for `key`.
    package func wrongType(_ key: String, expected: String, found: JSONValue) -> ASNError {
        ASNError(
            .wrongFieldType,
            "'\(path(key))' should be \(expected) but is \(Self.describe(found)); fix or remove the field in the archive",
            at: location.with(key: path(key))
        )
    }

    /// A short, secret-free description of a JSON value for messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s):
            let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "the string \"\(shown)\""
        case .number(let n): return "the number \(n)"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    // MARK: - Values

    /// The raw value of `key`, treating JSON null and "" as absent.
    package func present(_ key: String) -> JSONValue? {
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let s) where s.isEmpty: return nil
        default: return value
        }
    }

    /// A text field; numbers and booleans are accepted and kept as their literal text.
    package func string(_ key: String) throws(ASNError) -> String? {
        guard let value = present(key) else { return nil }
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: throw wrongType(key, expected: "a string", found: value)
        }
    }

    /// An identifier (`NumericID`): a string or a JSON number of 1 to 20 digits, kept digit for digit; anything else
    /// (a sign, exponent, fraction, space, letter, another JSON kind) is a `bad_id` error naming the field.
    package func identifier(_ key: String) throws(ASNError) -> String? {
        guard let value = present(key) else { return nil }
        switch value {
        case .string(let text), .number(let text):
            guard NumericID.isValid(text) else {
                throw NumericID.failure(field: path(key), found: Self.describe(value), at: location)
            }
            return text
        default:
            throw NumericID.failure(field: path(key), found: Self.describe(value), at: location)
        }
    }

    /// A boolean written as true/false, "true"/"false", "1"/"0", 1/0 (any case).
    package func bool(_ key: String) throws(ASNError) -> Bool? {
        guard let value = present(key) else { return nil }
        switch value {
        case .bool(let b): return b
        case .number(let n) where n == "1": return true
        case .number(let n) where n == "0": return false
        case .string(let s):
            switch s.trimmingSpaces().lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: break
            }
        default: break
        }
        throw wrongType(key, expected: "a boolean (true/false or \"1\"/\"0\")", found: value)
    }

    /// A small integer code (expiration_intent, cancellation_reason, …) as text, digits only.
    package func code(_ key: String) throws(ASNError) -> String? {
        guard let value = present(key) else { return nil }
        let text: String
        switch value {
        case .string(let s): text = s.trimmingSpaces()
        case .number(let n): text = n
        default: throw wrongType(key, expected: "a numeric code", found: value)
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw wrongType(key, expected: "a numeric code", found: value)
        }
        return text
    }

    /// A date in epoch milliseconds: from `base_ms` if present, else from `base` (digits = ms, or `2021-03-01 07:00:00 Etc/GMT`, or ISO 8601).
    package func date(_ base: String) throws(ASNError) -> Int64? {
        if let ms = try millis(base + "_ms") { return ms }
        guard let value = present(base) else { return nil }
        switch value {
        case .number(let n):
            guard let ms = Int64(n) else { throw wrongType(base, expected: "a date", found: value) }
            return ms
        case .string(let s):
            let text = s.trimmingSpaces()
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let ms = Int64(text) {
                return ms
            }
            if let ms = V1Dates.parseText(text) { return ms }
            throw wrongType(base, expected: "a date (\"2021-03-01 07:00:00 Etc/GMT\" or milliseconds)", found: value)
        default:
            throw wrongType(base, expected: "a date", found: value)
        }
    }

    /// A `*_ms` field: epoch milliseconds as digits (string or number).
    package func millis(_ key: String) throws(ASNError) -> Int64? {
        guard let value = present(key) else { return nil }
        let text: String
        switch value {
        case .string(let s): text = s.trimmingSpaces()
        case .number(let n): text = n
        default: throw wrongType(key, expected: "milliseconds since 1970", found: value)
        }
        guard let ms = Int64(text) else {
            throw wrongType(key, expected: "milliseconds since 1970", found: value)
        }
        return ms
    }

    /// A nested object, or nil when absent.
    package func nested(_ key: String) throws(ASNError) -> V1FieldReader? {
        guard let value = present(key) else { return nil }
        guard case .object(let o) = value else { throw wrongType(key, expected: "an object", found: value) }
        return V1FieldReader(o, location: location, keyPath: path(key))
    }

    /// A list of objects: an array of objects, or a single object taken as a one-element list (legacy bodies).
    package func objectList(_ key: String) throws(ASNError) -> [V1FieldReader] {
        guard let value = present(key) else { return [] }
        switch value {
        case .object(let o):
            return [V1FieldReader(o, location: location, keyPath: path(key))]
        case .array(let items):
            var readers: [V1FieldReader] = []
            readers.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .object(let o) = item else {
                    throw ASNError(
                        .wrongFieldType,
                        "'\(path(key))[\(i)]' should be an object but is \(Self.describe(item)); fix or remove the entry in the archive",
                        at: location.with(key: "\(path(key))[\(i)]")
                    )
                }
                readers.append(V1FieldReader(o, location: location, keyPath: "\(path(key))[\(i)]"))
            }
            return readers
        default:
            throw wrongType(key, expected: "an array of objects", found: value)
        }
    }
}

// MARK: - Helpers

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, Self.isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return self }
        return String(scalars[start..<end])
    }

    private static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\n" || s == "\r"
    }
}
