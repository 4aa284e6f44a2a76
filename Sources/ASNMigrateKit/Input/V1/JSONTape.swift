import Foundation

/// A flat index of one JSON document's tokens, built by a strict scan of its UTF-8 bytes without making a value tree.
///
/// The scan accepts a subset of what `JSONParser` accepts: everything it accepts is valid for `JSONParser` too, and
/// anything it declines (invalid JSON, an object key with escapes) is left to the reference path. Members whose key is
/// one of `Envelope.secretKeys` are validated and left out, as `JSONParser(skippingKeys:)` does. Offsets point into
/// the buffer the tape was built from, which must outlive every use of the tape.
struct JSONTape {
    /// What a token is.
    enum Kind: UInt8 {
        /// An object; its members follow as key (a `.string`) and value tokens.
        case object
        /// An array; its elements follow.
        case array
        /// A string without escapes: its raw bytes are its UTF-8.
        case string
        /// A string with at least one backslash escape.
        case escapedString
        /// A number literal.
        case number
        /// `true`.
        case trueLiteral
        /// `false`.
        case falseLiteral
        /// `null`.
        case null
    }

    /// One token: 12 bytes (offsets held in 32 bits), so a record of many small values costs at most six times its
    /// bytes in tokens (every value takes at least two bytes with its separator).
    struct Token {
        /// What it is.
        var kind: Kind
        /// `start`, stored in 32 bits.
        private var storedStart: Int32
        /// `end`, stored in 32 bits.
        private var storedEnd: Int32

        /// A token; `start` and `end` must lie below `JSONTape.maximumBytes`.
        @inline(__always)
        init(kind: Kind, start: Int, end: Int) {
            self.kind = kind
            storedStart = Int32(truncatingIfNeeded: start)
            storedEnd = Int32(truncatingIfNeeded: end)
        }

        /// For strings, the first content byte; for numbers, the first byte; otherwise unused.
        var start: Int {
            @inline(__always) get { Int(storedStart) }
            @inline(__always) set { storedStart = Int32(truncatingIfNeeded: newValue) }
        }

        /// For strings, the offset of the closing quote; for numbers, the byte after; for containers, the index of
        /// the token after the container's last descendant.
        var end: Int {
            @inline(__always) get { Int(storedEnd) }
            @inline(__always) set { storedEnd = Int32(truncatingIfNeeded: newValue) }
        }
    }

    /// The largest document a tape indexes (a token's offsets are 32 bits); a larger one is left to the reference
    /// path (only with `--max-record-bytes` above 2 GiB).
    static let maximumBytes = Int(Int32.max)

    /// The tokens in document order; empty after a failed build.
    private(set) var tokens: [Token] = []
    /// How many object tokens the tape holds.
    private(set) var objectCount = 0
    /// Whether a string of the document holds a byte above ASCII (a key or value; set by `build()`).
    private(set) var hasNonASCII = false
    /// The bytes the tokens point into.
    private(set) var base: UnsafePointer<UInt8>
    /// The number of bytes.
    private(set) var count: Int

    /// Scans `count` bytes at `base`; `build()` says whether they were accepted.
    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Scans `count` bytes at `base` into the capacity of `storage` (emptied by `build()`): a reader of many documents reuses
    /// one array from one to the next (`releaseTokens()` hands it back).
    init(base: UnsafePointer<UInt8>, count: Int, storage: consuming [Token]) {
        self.base = base
        self.count = count
        tokens = storage
    }

    /// The token array, for the next tape to reuse; this tape is empty afterwards.
    mutating func releaseTokens() -> [Token] {
        objectCount = 0
        var released: [Token] = []
        swap(&released, &tokens)
        return released
    }

    /// Scans the document; false when it is invalid JSON or uses something the fast path leaves to the reference.
    mutating func build() -> Bool {
        // About one token per 8 bytes covers usual JSON (a member is two tokens and rarely under 16 bytes); the array
        // grows past that. A fixed 1,024 (24 KB) for every JWS payload of a few hundred bytes was most of the bytes
        // `reconcile` requested. Emptied and reserved here, not in `init`: a reused storage is then held by the tape
        // alone, so keeping its capacity costs no copy.
        tokens.removeAll(keepingCapacity: true)
        guard count < Self.maximumBytes else { return false }
        tokens.reserveCapacity(Swift.min(1024, count / 8 + 16))
        var scanner = TapeScanner(base: base, end: count)
        let ok = scanner.document(into: &tokens)
        if !ok { tokens.removeAll(keepingCapacity: true) }
        objectCount = ok ? scanner.objects : 0
        hasNonASCII = ok && scanner.nonASCII
        return ok
    }

    /// Scans `count` bytes at `base` into this tape's token storage, reused from the previous document; says whether
    /// they were accepted, as `build()` does.
    mutating func rebuild(base: UnsafePointer<UInt8>, count: Int) -> Bool {
        self.base = base
        self.count = count
        tokens.removeAll(keepingCapacity: true)
        return build()
    }

    /// Whether the string token at `index` has exactly the bytes of `key` (no escapes).
    func stringEquals(_ index: Int, _ key: [UInt8]) -> Bool {
        key.withUnsafeBufferPointer { stringEquals(index, $0) }
    }

    /// Whether the string token at `index` has exactly the bytes `key` (no escapes).
    func stringEquals(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        guard token.kind == .string, token.end - token.start == key.count else { return false }
        guard let p = key.baseAddress else { return true }
        return memcmp(base + token.start, p, key.count) == 0
    }

    /// The index of the token after the value at `index` (the value's descendants skipped).
    @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        switch token.kind {
        case .object, .array: return token.end
        default: return index + 1
        }
    }
}

// MARK: - Scanner

/// The strict scanner behind `JSONTape`: the grammar, depth limit, string, escape and UTF-8 rules of `JSONParser`.
private struct TapeScanner {
    /// The first byte.
    let base: UnsafePointer<UInt8>
    /// The number of bytes.
    let end: Int
    /// The cursor.
    var i = 0
    /// Current nesting depth.
    var depth = 0
    /// Objects scanned.
    var objects = 0
    /// Whether a string held a byte above ASCII.
    var nonASCII = false
    /// Bit n set when a secret key is n bytes long (`secretKeyLengths`): most keys are passed over on their length.
    private let secretLengths = secretKeyLengths

    /// Creates a scanner at the start.
    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    /// One value surrounded by optional whitespace.
    mutating func document(into tokens: inout [JSONTape.Token]) -> Bool {
        skipWhitespace()
        guard value(into: &tokens) else { return false }
        skipWhitespace()
        return i == end
    }

    /// The value at the cursor, appended with its descendants.
    private mutating func value(into tokens: inout [JSONTape.Token]) -> Bool {
        guard i < end else { return false }
        switch base[i] {
        case 0x22:
            let start = i + 1
            guard let escaped = string() else { return false }
            tokens.append(JSONTape.Token(kind: escaped ? .escapedString : .string, start: start, end: i - 1))
            return true
        case 0x7B:
            return object(into: &tokens)
        case 0x5B:
            return array(into: &tokens)
        case 0x74:
            guard literal("true") else { return false }
            tokens.append(JSONTape.Token(kind: .trueLiteral, start: i - 4, end: i))
            return true
        case 0x66:
            guard literal("false") else { return false }
            tokens.append(JSONTape.Token(kind: .falseLiteral, start: i - 5, end: i))
            return true
        case 0x6E:
            guard literal("null") else { return false }
            tokens.append(JSONTape.Token(kind: .null, start: i - 4, end: i))
            return true
        case 0x2D, 0x30...0x39:
            let start = i
            guard number() else { return false }
            tokens.append(JSONTape.Token(kind: .number, start: start, end: i))
            return true
        default:
            return false
        }
    }

    /// An object; the cursor is on `{`.
    private mutating func object(into tokens: inout [JSONTape.Token]) -> Bool {
        depth += 1
        guard depth <= JSONParser.maximumDepth else { return false }
        let me = tokens.count
        objects += 1
        tokens.append(JSONTape.Token(kind: .object, start: i, end: 0))
        i += 1
        skipWhitespace()
        if i < end && base[i] == 0x7D {
            i += 1
        } else {
            while true {
                skipWhitespace()
                guard i < end, base[i] == 0x22 else { return false }
                let keyStart = i + 1
                guard let escaped = string(), !escaped else { return false }
                let keyEnd = i - 1
                skipWhitespace()
                guard i < end, base[i] == 0x3A else { return false }
                i += 1
                skipWhitespace()
                let mark = tokens.count
                tokens.append(JSONTape.Token(kind: .string, start: keyStart, end: keyEnd))
                guard value(into: &tokens) else { return false }
                if isSecret(keyStart, keyEnd) { tokens.removeSubrange(mark...) }
                guard let closed = separator(closing: 0x7D) else { return false }
                if closed { break }
            }
        }
        depth -= 1
        tokens[me].end = tokens.count
        return true
    }

    /// An array; the cursor is on `[`.
    private mutating func array(into tokens: inout [JSONTape.Token]) -> Bool {
        depth += 1
        guard depth <= JSONParser.maximumDepth else { return false }
        let me = tokens.count
        tokens.append(JSONTape.Token(kind: .array, start: i, end: 0))
        i += 1
        skipWhitespace()
        if i < end && base[i] == 0x5D {
            i += 1
        } else {
            while true {
                skipWhitespace()
                guard value(into: &tokens) else { return false }
                guard let closed = separator(closing: 0x5D) else { return false }
                if closed { break }
            }
        }
        depth -= 1
        tokens[me].end = tokens.count
        return true
    }

    /// Whether the raw key bytes name one of `Envelope.secretKeys` (the one list both paths skip).
    @inline(__always)
    private func isSecret(_ start: Int, _ keyEnd: Int) -> Bool {
        let length = keyEnd - start
        guard length >= 64 || secretLengths & (1 << UInt64(length)) != 0 else { return false }
        for key in secretKeyBytes where key.count == length {
            let same = key.withUnsafeBufferPointer { b -> Bool in
                guard let p = b.baseAddress else { return length == 0 }
                return memcmp(base + start, p, length) == 0
            }
            if same { return true }
        }
        return false
    }

    /// `,` (false) or the closing byte (true) after whitespace; nil on anything else or a trailing comma.
    private mutating func separator(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard i < end else { return nil }
        let byte = base[i]
        i += 1
        if byte == closing { return true }
        guard byte == 0x2C else { return nil }
        skipWhitespace()
        if i < end && (base[i] == 0x5D || base[i] == 0x7D) { return nil }
        return false
    }

    /// The literal `word`.
    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard i + length <= end, memcmp(base + i, word.utf8Start, length) == 0 else { return false }
        i += length
        return true
    }

    /// Skips JSON whitespace.
    @inline(__always)
    private mutating func skipWhitespace() {
        while i < end {
            guard ByteTables.isJSONSpace(base[i]) else { return }
            i += 1
        }
    }

    /// A number, by the JSON grammar.
    private mutating func number() -> Bool {
        if base[i] == 0x2D { i += 1 }
        guard i < end else { return false }
        if base[i] == 0x30 {
            i += 1
            if i < end && isDigit(base[i]) { return false }
        } else if isDigit(base[i]) {
            i += 1
            while i < end && isDigit(base[i]) { i += 1 }
        } else {
            return false
        }
        if i < end && base[i] == 0x2E {
            i += 1
            guard i < end, isDigit(base[i]) else { return false }
            while i < end && isDigit(base[i]) { i += 1 }
        }
        if i < end && (base[i] | 0x20) == 0x65 {
            i += 1
            if i < end && (base[i] == 0x2B || base[i] == 0x2D) { i += 1 }
            guard i < end, isDigit(base[i]) else { return false }
            while i < end && isDigit(base[i]) { i += 1 }
        }
        return true
    }

    /// A string; the cursor is on its opening quote and ends after the closing one. Nil when invalid, else whether it has escapes.
    private mutating func string() -> Bool? {
        i += 1
        var escaped = false
        let raw = UnsafeRawPointer(base)
        while true {
            i = ByteTables.skipPlainStringBytes(raw, from: i, end: end)
            guard i < end else { return nil }
            let byte = base[i]
            if byte == 0x22 {
                i += 1
                return escaped
            } else if byte == 0x5C {
                escaped = true
                guard escape() else { return nil }
            } else if byte < 0x20 {
                return nil
            } else if byte >= 0x80 {
                nonASCII = true
                guard utf8Sequence() else { return nil }
            } else {
                i += 1
            }
        }
    }

    /// One escape; the cursor is on the backslash.
    private mutating func escape() -> Bool {
        guard i + 1 < end else { return false }
        switch base[i + 1] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
            i += 2
            return true
        case 0x75:
            guard let unit = hex4(at: i + 2) else { return false }
            if unit >= 0xDC00 && unit <= 0xDFFF { return false }
            i += 6
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 1 < end, base[i] == 0x5C, base[i + 1] == 0x75, let low = hex4(at: i + 2), low >= 0xDC00,
                    low <= 0xDFFF
                else { return false }
                i += 6
            }
            return true
        default:
            return false
        }
    }

    /// Four hex digits at `offset`.
    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= end else { return nil }
        return ByteTables.hexValue4(base, at: offset)
    }

    /// One multi-byte UTF-8 sequence (Unicode table 3-7).
    private mutating func utf8Sequence() -> Bool {
        guard case .valid(let length) = ByteTables.utf8Sequence(base, at: i, end: end) else { return false }
        i += length
        return true
    }
}

/// Whether `byte` is an ASCII digit.
@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
    ByteTables.isDigit(byte)
}

/// `Envelope.secretKeys` as raw bytes, for comparing against key bytes in the tape without making Strings.
private let secretKeyBytes: [[UInt8]] = Envelope.secretKeys.sorted().map { Array($0.utf8) }

/// The lengths of `secretKeyBytes` as bits (a key of 64 bytes or more is always compared).
private let secretKeyLengths: UInt64 = secretKeyBytes.reduce(0) { $1.count < 64 ? $0 | 1 << UInt64($1.count) : $0 }
