/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`, written for throughput.
///
/// - Numbers are validated against the JSON grammar and kept as their literal text, never converted through `Double`.
/// - Strings are fully unescaped; raw control characters, invalid UTF-8 and unpaired surrogate escapes are rejected
///   (a lone `\uD800` cannot be represented in a Swift `String`, and Foundation rejects it too).
/// - Exactly one value, optionally surrounded by whitespace; no byte-order mark, no trailing commas, no comments.
/// - Nesting deeper than `maximumDepth` is an error, so hostile input can never overflow the stack.
/// - Members whose key is in `skippingKeys` (at any depth) are validated but not materialized, and left out of their object.
///
/// Every error is an `ASNError` with code `.malformedJSON` whose message says what was expected and where:
/// a 0-based byte offset and a 1-based line and column (in bytes) within the parsed buffer.
package struct JSONParser: Sendable {
    // MARK: - Configuration

    /// The deepest nesting of arrays and objects accepted (the same limit as Foundation's `JSONSerialization`).
    package static let maximumDepth = 512

    /// Keys whose values are validated but dropped, at any depth; matched on their exact UTF-8 bytes after unescaping.
    package let skippingKeys: Set<String>

    /// The UTF-8 bytes of each skipped key, for comparison without building a `String`.
    private let skippedKeyBytes: [[UInt8]]

    /// Creates a parser that drops the members named in `skippingKeys`.
    package init(skippingKeys: Set<String> = []) {
        self.skippingKeys = skippingKeys
        self.skippedKeyBytes = skippingKeys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    // MARK: - Parsing

    /// Parses exactly one JSON value, optionally surrounded by whitespace, from `bytes`.
    package func parse(_ bytes: UnsafeRawBufferPointer) throws(ASNError) -> JSONValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ASNError(
                .malformedJSON, "malformed JSON at byte 0 (line 1, column 1): empty input, expected a JSON value")
        }
        var reader = JSONByteReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, skippedKeys: skippedKeyBytes)
        return try reader.parseDocument()
    }

    /// Parses exactly one JSON value from `bytes`.
    package func parse(_ bytes: [UInt8]) throws(ASNError) -> JSONValue {
        try withRawBytes(of: bytes) { buffer throws(ASNError) in try parse(buffer) }
    }

    /// Parses exactly one JSON value from `bytes`; offsets in errors count from the slice's start.
    package func parse(_ bytes: ArraySlice<UInt8>) throws(ASNError) -> JSONValue {
        try withRawBytes(of: bytes) { buffer throws(ASNError) in try parse(buffer) }
    }

    /// Parses exactly one JSON value from the UTF-8 of `text`.
    package func parse(_ text: String) throws(ASNError) -> JSONValue {
        var copy = text
        let result: Result<JSONValue, ASNError> = copy.withUTF8 { buffer in
            do throws(ASNError) { return .success(try parse(UnsafeRawBufferPointer(buffer))) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Validation

    /// Checks that `bytes` hold exactly one valid JSON value without building it.
    package func validate(_ bytes: UnsafeRawBufferPointer) throws(ASNError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ASNError(
                .malformedJSON, "malformed JSON at byte 0 (line 1, column 1): empty input, expected a JSON value")
        }
        var reader = JSONByteReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, skippedKeys: skippedKeyBytes)
        try reader.validateDocument()
    }

    /// Checks that `bytes` hold exactly one valid JSON value without building it.
    package func validate(_ bytes: [UInt8]) throws(ASNError) {
        try withRawBytes(of: bytes) { buffer throws(ASNError) in try validate(buffer) }
    }
}

// MARK: - Buffer access

/// Runs `body` over the raw bytes of a contiguous byte collection, keeping the typed error.
private func withRawBytes<C: Collection<UInt8>, T>(
    of bytes: C,
    _ body: (UnsafeRawBufferPointer) throws(ASNError) -> T
) throws(ASNError) -> T {
    let result: Result<T, ASNError>? = bytes.withContiguousStorageIfAvailable { buffer in
        do throws(ASNError) { return .success(try body(UnsafeRawBufferPointer(buffer))) } catch {
            return .failure(error)
        }
    }
    if let result { return try result.get() }
    let copy = Array(bytes)
    let fallback: Result<T, ASNError> = copy.withUnsafeBytes { buffer in
        do throws(ASNError) { return .success(try body(buffer)) } catch { return .failure(error) }
    }
    return try fallback.get()
}

// MARK: - Byte constants

/// ASCII bytes the grammar names.
private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let lowerE = UInt8(ascii: "e")
    static let lowerU = UInt8(ascii: "u")
}

/// A long key already built, with where its unescaped bytes are in the buffer.
private struct CachedKey {
    /// Offset of the key's first content byte.
    var start: Int
    /// Its length in bytes; 0 marks an empty slot.
    var length: Int
    /// The key.
    var key: String
}

/// The content bytes of a scanned string (between the quotes) and whether it contains escapes.
private struct StringSpan {
    /// Offset of the first content byte.
    var start: Int
    /// Offset of the closing quote.
    var end: Int
    /// Whether a backslash occurs, so the bytes must be unescaped.
    var escaped: Bool
}

// MARK: - Reader

/// The parsing state over one buffer: a cursor, the nesting depth and the keys to skip.
private struct JSONByteReader: ~Copyable {
    /// The first byte of the buffer.
    let base: UnsafePointer<UInt8>
    /// The number of bytes.
    let end: Int
    /// The UTF-8 bytes of the keys whose members are skipped.
    let skippedKeys: [[UInt8]]
    /// The cursor: offset of the next byte to read.
    var i = 0
    /// The current nesting depth of arrays and objects.
    var depth = 0
    /// Elements of the arrays being parsed, innermost last.
    var elementStack = ScratchStack<JSONValue>()
    /// Members of the objects being parsed, innermost last.
    var memberStack = ScratchStack<JSONObject.Member>()
    /// Recently built long keys, so a key repeated in many objects shares one string (direct-mapped by a hash).
    var keyCache: [CachedKey] = []

    /// Creates a reader at the start of the buffer.
    init(base: UnsafePointer<UInt8>, count: Int, skippedKeys: [[UInt8]]) {
        self.base = base
        self.end = count
        self.skippedKeys = skippedKeys
    }

    // MARK: Document

    /// Parses the single top-level value and checks nothing but whitespace follows.
    mutating func parseDocument() throws(ASNError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        try finishDocument()
        return value
    }

    /// Validates the single top-level value and checks nothing but whitespace follows.
    mutating func validateDocument() throws(ASNError) {
        skipWhitespace()
        try skipValue()
        try finishDocument()
    }

    /// Fails unless only whitespace remains.
    private mutating func finishDocument() throws(ASNError) {
        skipWhitespace()
        if i < end {
            throw failure("unexpected \(describe(base[i])) after the JSON value; only whitespace may follow it")
        }
    }

    // MARK: Values

    /// Parses the value starting at the cursor (whitespace already skipped).
    private mutating func parseValue() throws(ASNError) -> JSONValue {
        guard i < end else { throw failure("unexpected end of input, expected a JSON value") }
        switch base[i] {
        case Byte.quote:
            let span = try scanString()
            return .string(makeString(span))
        case Byte.openBrace:
            return try parseObject()
        case Byte.openBracket:
            return try parseArray()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case Byte.minus, Byte.zero...Byte.nine:
            let start = i
            try scanNumber()
            return .number(String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self))
        default:
            throw failure("unexpected \(describe(base[i])), expected a JSON value")
        }
    }

    /// Parses an array; the cursor is on `[`. Elements gather on a shared stack so the array is allocated once, at its size.
    private mutating func parseArray() throws(ASNError) -> JSONValue {
        try enterContainer()
        i += 1
        skipWhitespace()
        if i < end && base[i] == Byte.closeBracket {
            i += 1
            depth -= 1
            return .array([])
        }
        let first = elementStack.count
        while true {
            skipWhitespace()
            elementStack.push(try parseValue())
            try expectSeparator(closing: Byte.closeBracket, context: "array element")
            if base[i - 1] == Byte.closeBracket { break }
        }
        depth -= 1
        return .array(elementStack.popArray(from: first))
    }

    /// Parses an object, dropping skipped members; the cursor is on `{`. Members gather on a shared stack, like elements.
    private mutating func parseObject() throws(ASNError) -> JSONValue {
        try enterContainer()
        i += 1
        skipWhitespace()
        if i < end && base[i] == Byte.closeBrace {
            i += 1
            depth -= 1
            return .object(JSONObject())
        }
        let first = memberStack.count
        while true {
            skipWhitespace()
            let span = try scanKey()
            try expectColon()
            if skippedKeys.isEmpty {
                let key = makeKey(span)
                memberStack.push(JSONObject.Member(key: key, value: try parseValue()))
            } else if span.escaped {
                let key = makeString(span)
                if isSkipped(key) {
                    try skipValue()
                } else {
                    memberStack.push(JSONObject.Member(key: key, value: try parseValue()))
                }
            } else if isSkipped(span) {
                try skipValue()
            } else {
                let key = makeKey(span)
                memberStack.push(JSONObject.Member(key: key, value: try parseValue()))
            }
            try expectSeparator(closing: Byte.closeBrace, context: "object member")
            if base[i - 1] == Byte.closeBrace { break }
        }
        depth -= 1
        return .object(JSONObject(memberStack.popArray(from: first)))
    }

    // MARK: Skipping

    /// Validates the value at the cursor without building it.
    private mutating func skipValue() throws(ASNError) {
        guard i < end else { throw failure("unexpected end of input, expected a JSON value") }
        switch base[i] {
        case Byte.quote:
            _ = try scanString()
        case Byte.openBrace:
            try enterContainer()
            i += 1
            skipWhitespace()
            if i < end && base[i] == Byte.closeBrace {
                i += 1
            } else {
                while true {
                    skipWhitespace()
                    _ = try scanKey()
                    try expectColon()
                    try skipValue()
                    try expectSeparator(closing: Byte.closeBrace, context: "object member")
                    if base[i - 1] == Byte.closeBrace { break }
                }
            }
            depth -= 1
        case Byte.openBracket:
            try enterContainer()
            i += 1
            skipWhitespace()
            if i < end && base[i] == Byte.closeBracket {
                i += 1
            } else {
                while true {
                    skipWhitespace()
                    try skipValue()
                    try expectSeparator(closing: Byte.closeBracket, context: "array element")
                    if base[i - 1] == Byte.closeBracket { break }
                }
            }
            depth -= 1
        case UInt8(ascii: "t"):
            try expectLiteral("true")
        case UInt8(ascii: "f"):
            try expectLiteral("false")
        case UInt8(ascii: "n"):
            try expectLiteral("null")
        case Byte.minus, Byte.zero...Byte.nine:
            try scanNumber()
        default:
            throw failure("unexpected \(describe(base[i])), expected a JSON value")
        }
    }

    /// Whether the unescaped key bytes `span` name a skipped key.
    private func isSkipped(_ span: StringSpan) -> Bool {
        let length = span.end - span.start
        for key in skippedKeys where key.count == length {
            let same = key.withUnsafeBufferPointer { keyBytes in
                var k = 0
                while k < length {
                    if keyBytes[k] != base[span.start + k] { return false }
                    k += 1
                }
                return true
            }
            if same { return true }
        }
        return false
    }

    /// Whether the decoded `key` names a skipped key (compared on UTF-8 bytes).
    private func isSkipped(_ key: String) -> Bool {
        skippedKeys.contains { key.utf8.elementsEqual($0) }
    }

    // MARK: Structure

    /// Counts one more level of nesting, failing beyond the maximum.
    private mutating func enterContainer() throws(ASNError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw failure("nesting deeper than \(JSONParser.maximumDepth) arrays and objects")
        }
    }

    /// Scans an object key; the cursor must be on its opening quote.
    private mutating func scanKey() throws(ASNError) -> StringSpan {
        guard i < end else { throw failure("unexpected end of input, expected a string key in object") }
        guard base[i] == Byte.quote else {
            throw failure("unexpected \(describe(base[i])), expected a string key in object")
        }
        return try scanString()
    }

    /// Consumes whitespace, `:` and whitespace after an object key.
    private mutating func expectColon() throws(ASNError) {
        skipWhitespace()
        guard i < end else { throw failure("unexpected end of input, expected ':' after object key") }
        guard base[i] == Byte.colon else {
            throw failure("unexpected \(describe(base[i])), expected ':' after object key")
        }
        i += 1
        skipWhitespace()
    }

    /// Consumes whitespace and then `,` or the closing bracket; the caller reads which from `base[i - 1]`.
    private mutating func expectSeparator(closing: UInt8, context: String) throws(ASNError) {
        skipWhitespace()
        guard i < end else {
            throw failure(
                "unexpected end of input, expected ',' or '\(Character(Unicode.Scalar(closing)))' after \(context)")
        }
        let byte = base[i]
        guard byte == Byte.comma || byte == closing else {
            throw failure(
                "unexpected \(describe(byte)), expected ',' or '\(Character(Unicode.Scalar(closing)))' after \(context)"
            )
        }
        i += 1
        if byte == Byte.comma {
            skipWhitespace()
            if i < end && (base[i] == Byte.closeBracket || base[i] == Byte.closeBrace) {
                throw failure("unexpected \(describe(base[i])) after ','; trailing commas are not allowed")
            }
        }
    }

    /// Consumes the literal `word` (`true`, `false` or `null`).
    private mutating func expectLiteral(_ word: StaticString) throws(ASNError) {
        let count = word.utf8CodeUnitCount
        let letters = word.utf8Start
        var k = 0
        while k < count {
            guard i + k < end else { throw failure("unexpected end of input in literal '\(word)'", at: end) }
            guard base[i + k] == letters[k] else {
                throw failure("unexpected \(describe(base[i + k])) in literal, expected '\(word)'", at: i + k)
            }
            k += 1
        }
        i += count
    }

    /// Skips JSON whitespace: space, tab, line feed, carriage return.
    @inline(__always)
    private mutating func skipWhitespace() {
        while i < end {
            let byte = base[i]
            guard byte == Byte.space || byte == Byte.newline || byte == Byte.carriageReturn || byte == Byte.tab else {
                return
            }
            i += 1
        }
    }

    // MARK: Numbers

    /// Validates a number against the JSON grammar and moves past it.
    private mutating func scanNumber() throws(ASNError) {
        if base[i] == Byte.minus { i += 1 }
        guard i < end else { throw failure("unexpected end of input in number, expected a digit") }
        let first = base[i]
        if first == Byte.zero {
            i += 1
            if i < end && isDigit(base[i]) { throw failure("leading zeros are not allowed in numbers") }
        } else if isDigit(first) {
            i += 1
            while i < end && isDigit(base[i]) { i += 1 }
        } else {
            throw failure("unexpected \(describe(first)) in number, expected a digit")
        }
        if i < end && base[i] == Byte.dot {
            i += 1
            guard i < end else { throw failure("unexpected end of input in number, expected a digit after '.'") }
            guard isDigit(base[i]) else {
                throw failure("unexpected \(describe(base[i])) in number, expected a digit after '.'")
            }
            while i < end && isDigit(base[i]) { i += 1 }
        }
        if i < end && (base[i] | 0x20) == Byte.lowerE {
            i += 1
            if i < end && (base[i] == Byte.plus || base[i] == Byte.minus) { i += 1 }
            guard i < end else { throw failure("unexpected end of input in number, expected a digit in the exponent") }
            guard isDigit(base[i]) else {
                throw failure("unexpected \(describe(base[i])) in number, expected a digit in the exponent")
            }
            while i < end && isDigit(base[i]) { i += 1 }
        }
    }

    // MARK: Strings

    /// Validates a string (escapes, UTF-8, no raw control characters) and moves past its closing quote.
    private mutating func scanString() throws(ASNError) -> StringSpan {
        i += 1
        let start = i
        var escaped = false
        let raw = UnsafeRawPointer(base)
        while true {
            i = ByteTables.skipPlainStringBytes(raw, from: i, end: end)
            guard i < end else { throw failure("unexpected end of input in string, expected '\"'", at: end) }
            let byte = base[i]
            if byte == Byte.quote {
                let span = StringSpan(start: start, end: i, escaped: escaped)
                i += 1
                return span
            } else if byte == Byte.backslash {
                escaped = true
                try scanEscape()
            } else if byte < 0x20 {
                throw failure("raw control character \(describe(byte)) in string; it must be escaped")
            } else if byte >= 0x80 {
                try scanUTF8Sequence()
            } else {
                i += 1
            }
        }
    }

    /// Validates the escape at the cursor (on the backslash) and moves past it.
    private mutating func scanEscape() throws(ASNError) {
        guard i + 1 < end else { throw failure("unexpected end of input in string escape", at: end) }
        switch base[i + 1] {
        case Byte.quote, Byte.backslash, Byte.slash,
            UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
        case Byte.lowerU:
            let unit = try hexEscape(at: i)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw failure("unpaired low surrogate escape \\u\(hex4(unit)) in string")
            }
            i += 6
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 1 < end && base[i] == Byte.backslash && base[i + 1] == Byte.lowerU else {
                    throw failure(
                        "unpaired high surrogate escape \\u\(hex4(unit)) in string; a \\uDC00–\\uDFFF escape must follow",
                        at: i - 6)
                }
                let low = try hexEscape(at: i)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure(
                        "unpaired high surrogate escape \\u\(hex4(unit)) in string; a \\uDC00–\\uDFFF escape must follow",
                        at: i - 6)
                }
                i += 6
            }
        default:
            throw failure("invalid escape '\\\(describeRaw(base[i + 1]))' in string")
        }
    }

    /// The code unit of the `\uXXXX` escape whose backslash is at `offset`.
    private func hexEscape(at offset: Int) throws(ASNError) -> UInt32 {
        var value: UInt32 = 0
        var k = offset + 2
        while k < offset + 6 {
            guard k < end else {
                throw failure("unexpected end of input in \\u escape, expected 4 hex digits", at: end)
            }
            guard let digit = hexDigitValue(base[k]) else {
                throw failure("unexpected \(describe(base[k])) in \\u escape, expected 4 hex digits", at: k)
            }
            value = value << 4 | digit
            k += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at the cursor (Unicode table 3-7) and moves past it.
    private mutating func scanUTF8Sequence() throws(ASNError) {
        switch ByteTables.utf8Sequence(base, at: i, end: end) {
        case .valid(let length): i += length
        case .invalidLead: throw failure("invalid UTF-8 byte 0x\(hex2(base[i])) in string")
        case .truncated: throw failure("truncated UTF-8 sequence in string")
        case .invalidContinuation: throw failure("invalid UTF-8 sequence in string")
        }
    }

    /// Builds the `String` of an object key, reusing an equal long key built before in this document.
    private mutating func makeKey(_ span: StringSpan) -> String {
        let length = span.end - span.start
        // Up to 15 UTF-8 bytes a `String` is stored inline, so only longer keys are worth sharing.
        guard length > 15 && !span.escaped else { return makeString(span) }
        let raw = UnsafeRawPointer(base)
        let head = raw.loadUnaligned(fromByteOffset: span.start, as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: span.end - 8, as: UInt64.self)
        let mixed = ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        let slot = Int(truncatingIfNeeded: mixed >> 58)
        if keyCache.isEmpty { keyCache = Array(repeating: CachedKey(start: 0, length: 0, key: ""), count: 64) }
        let cached = keyCache[slot]
        if cached.length == length && sameBytes(cached.start, span.start, length) { return cached.key }
        let key = makeString(span)
        keyCache[slot] = CachedKey(start: span.start, length: length, key: key)
        return key
    }

    /// Whether the `length` (at least 8) bytes at offsets `first` and `second` of the buffer are equal.
    @inline(__always)
    private func sameBytes(_ first: Int, _ second: Int, _ length: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        var k = 0
        while k + 8 <= length {
            if raw.loadUnaligned(fromByteOffset: first + k, as: UInt64.self)
                != raw.loadUnaligned(fromByteOffset: second + k, as: UInt64.self)
            {
                return false
            }
            k += 8
        }
        let last = length - 8
        return raw.loadUnaligned(fromByteOffset: first + last, as: UInt64.self)
            == raw.loadUnaligned(fromByteOffset: second + last, as: UInt64.self)
    }

    /// Builds the `String` of a scanned string: straight from the bytes, or unescaped.
    private func makeString(_ span: StringSpan) -> String {
        let length = span.end - span.start
        guard span.escaped else {
            return String(decoding: UnsafeBufferPointer(start: base + span.start, count: length), as: UTF8.self)
        }
        // Unescaping never lengthens the text: each escape is at least as long as the UTF-8 it stands for.
        return String(unsafeUninitializedCapacity: length) { out in
            var r = span.start
            var w = 0
            while r < span.end {
                let byte = base[r]
                if byte != Byte.backslash {
                    out[w] = byte
                    w += 1
                    r += 1
                    continue
                }
                let escape = base[r + 1]
                r += 2
                switch escape {
                case UInt8(ascii: "b"):
                    out[w] = 0x08
                    w += 1
                case UInt8(ascii: "f"):
                    out[w] = 0x0C
                    w += 1
                case UInt8(ascii: "n"):
                    out[w] = 0x0A
                    w += 1
                case UInt8(ascii: "r"):
                    out[w] = 0x0D
                    w += 1
                case UInt8(ascii: "t"):
                    out[w] = 0x09
                    w += 1
                case Byte.lowerU:
                    var scalar = decodeHex4(r)
                    r += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        let lowUnit = decodeHex4(r + 2)
                        r += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (lowUnit - 0xDC00)
                    }
                    w = writeUTF8(scalar, to: out, at: w)
                default:
                    out[w] = escape
                    w += 1
                }
            }
            return w
        }
    }

    /// The value of four hex digits already validated, starting at `offset`.
    private func decodeHex4(_ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            value = value << 4 | (hexDigitValue(base[k]) ?? 0)
        }
        return value
    }

    // MARK: Errors

    /// A `.malformedJSON` error at `offset` (default: the cursor), with line and column.
    private func failure(_ message: String, at offset: Int? = nil) -> ASNError {
        let position = min(offset ?? i, end)
        var line = 1
        var lineStart = 0
        var k = 0
        while k < position {
            if base[k] == Byte.newline {
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return ASNError(
            .malformedJSON,
            "malformed JSON at byte \(position) (line \(line), column \(position - lineStart + 1)): \(message)")
    }
}

// MARK: - Scratch stack

/// A growable stack over manually managed memory: popping a run moves it into an exactly sized array, with no copies.
private struct ScratchStack<Element>: ~Copyable {
    /// The storage.
    private var storage: UnsafeMutablePointer<Element>
    /// How many elements the storage holds.
    private var capacity: Int
    /// How many elements are initialized, from the start of the storage.
    private(set) var count = 0

    /// Creates an empty stack with room for a few elements.
    init() {
        capacity = 32
        storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    }

    /// Destroys the elements still on the stack (left there when parsing fails) and frees the storage.
    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Pushes `element` on top.
    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Removes the elements from `start` up and returns them, in order, as an array.
    mutating func popArray(from start: Int) -> [Element] {
        let taken = count - start
        guard taken > 0 else { return [] }
        let source = storage + start
        let array = [Element](unsafeUninitializedCapacity: taken) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: taken)
            initialized = taken
        }
        count = start
        return array
    }

    /// Doubles the storage, moving the elements.
    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}

// MARK: - Byte helpers

/// Whether `byte` is an ASCII digit.
@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
    ByteTables.isDigit(byte)
}

/// The value of an ASCII hex digit, or nil.
@inline(__always)
private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    ByteTables.hexValue(byte).map(UInt32.init)
}

/// Writes `scalar` as UTF-8 into `out` at `index`; returns the index after it.
@inline(__always)
private func writeUTF8(_ scalar: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
    guard let base = out.baseAddress else { return index }
    return index + ByteTables.writeUTF8(scalar, to: base + index)
}

/// A byte as an error message shows it: `'x'` for printable ASCII, `byte 0xNN` otherwise.
private func describe(_ byte: UInt8) -> String {
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(hex2(byte))"
}

/// A byte for an escape message: the character if printable ASCII, else `0xNN`.
private func describeRaw(_ byte: UInt8) -> String {
    if byte >= 0x20 && byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
    return "0x\(hex2(byte))"
}

/// Two uppercase hex digits.
private func hex2(_ byte: UInt8) -> String {
    ByteTables.hexText(UInt64(byte), digits: 2, uppercase: true)
}

/// Four uppercase hex digits.
private func hex4(_ unit: UInt32) -> String {
    ByteTables.hexText(UInt64(unit), digits: 4, uppercase: true)
}
