/// A deterministic, compact JSON serializer for `JSONValue`.
///
/// Output has no whitespace, keeps object members in their order (duplicates too), writes numbers as their literal
/// text (trusted to be valid JSON numbers, as the parser guarantees), and escapes strings minimally: `\"`, `\\`,
/// `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as `\u00XX` (lowercase hex); `/` and non-ASCII are written as is.
/// `canonical` additionally sorts object keys by their UTF-8 bytes and keeps only the last of duplicated keys.
package enum JSONWriter {
    // MARK: - Document order

    /// Appends the compact JSON text of `value` to `out`.
    package static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: nullBytes)
        case .bool(let flag): out.append(contentsOf: flag ? trueBytes : falseBytes)
        case .number(let text): appendRaw(text, to: &out)
        case .string(let text): appendString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON bytes of `value`.
    package static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// The compact JSON text of `value`.
    package static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    // MARK: - Canonical form

    /// The canonical bytes of `value`: compact, object keys sorted by UTF-8 bytes at every depth, last duplicate kept.
    package static func canonical(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        appendCanonical(value, to: &out)
        return out
    }

    /// Appends the canonical bytes of `value` to `out`.
    package static func appendCanonical(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendCanonical(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            // Keys compare as bytes: Swift `String` equality would merge canonically equivalent but different keys.
            var slots: [[UInt8]: Int] = [:]
            var unique: [(key: [UInt8], value: JSONValue)] = []
            unique.reserveCapacity(object.members.count)
            for member in object.members {
                let key = Array(member.key.utf8)
                if let slot = slots[key] {
                    unique[slot].value = member.value
                } else {
                    slots[key] = unique.count
                    unique.append((key, member.value))
                }
            }
            unique.sort { $0.key.lexicographicallyPrecedes($1.key) }
            out.append(UInt8(ascii: "{"))
            for (index, member) in unique.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                member.key.withUnsafeBufferPointer { appendEscaped($0, to: &out) }
                out.append(UInt8(ascii: ":"))
                appendCanonical(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            append(value, to: &out)
        }
    }

    // MARK: - Strings

    /// Appends `text` as a JSON string literal, quotes included, escaped as described on the type.
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
    }

    /// Appends the UTF-8 bytes `utf8` as a quoted, escaped JSON string literal (`ByteTables`' one escaping).
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        ByteTables.appendEscapedJSONString(utf8, to: &out)
    }

    /// Appends the UTF-8 of `text` unchanged (number literals).
    private static func appendRaw(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    // MARK: - Constants

    /// `null`.
    private static let nullBytes = Array("null".utf8)
    /// `true`.
    private static let trueBytes = Array("true".utf8)
    /// `false`.
    private static let falseBytes = Array("false".utf8)
}
