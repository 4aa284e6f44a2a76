/// One object of a `JSONTape`, read as a V2 field source: keys matched as bytes, values made straight from the bytes,
/// with no JSON tree. The tape's buffer must outlive it.
struct TapeV2Object: V2FieldSource {
    /// The tape.
    let tape: JSONTape
    /// The object's token.
    let index: Int

    /// The value token of the last member named `key`, or nil when absent.
    func member(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { bytes in
            var found: Int?
            var i = index + 1
            let end = tape.tokens[index].end
            while i < end {
                if tape.stringEquals(i, bytes) { found = i + 1 }
                i = tape.next(after: i + 1)
            }
            return found
        }
    }

    /// The kind of the token at `index`.
    func kind(_ index: Int) -> JSONTape.Kind { tape.tokens[index].kind }

    /// The object at value token `index`.
    func object(at index: Int) -> TapeV2Object { TapeV2Object(tape: tape, index: index) }

    /// The raw bytes of the unescaped string token at `index`.
    func rawString(at index: Int) -> UnsafeRawBufferPointer {
        let token = tape.tokens[index]
        return UnsafeRawBufferPointer(start: tape.base + token.start, count: token.end - token.start)
    }

    /// The text of the string token at `index`, escapes resolved.
    func text(at index: Int) -> String {
        let token = tape.tokens[index]
        if token.kind == .escapedString {
            return String(decoding: TapeBytes.unescape(tape.base, token.start, token.end), as: UTF8.self)
        }
        return String(
            decoding: UnsafeBufferPointer(start: tape.base + token.start, count: token.end - token.start), as: UTF8.self
        )
    }

    /// The scalar value of the member `key` (the last one when repeated).
    func scalar(_ key: String) -> V2Scalar? {
        member(key).map(scalar(at:))
    }

    /// The scalar value of the value token at `value`.
    func scalar(at value: Int) -> V2Scalar {
        switch kind(value) {
        case .string, .escapedString: return .string(text(at: value))
        case .number: return .number(text(at: value))
        case .trueLiteral: return .bool(true)
        case .falseLiteral: return .bool(false)
        case .null, .object, .array: return .other
        }
    }
}
