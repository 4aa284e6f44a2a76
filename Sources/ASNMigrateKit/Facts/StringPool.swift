import Foundation

/// Interns text as compact 64-bit tokens so a million records fit in little memory.
///
/// Token 0 means absent. Digit strings up to 18 digits without a leading zero are packed as numbers (no table entry);
/// everything else is stored once in the table. A token turns back into exactly the original text. Text is found by
/// its UTF-8 bytes (`token(bytes:)`), so interning a text the pool holds allocates nothing.
package struct StringPool: Sendable {
    /// A compact handle for a piece of text (0 = absent).
    package typealias Token = UInt64

    /// Marks a packed number.
    static let numberTag: UInt64 = 1 << 62
    /// Marks a stored string.
    private static let stringTag: UInt64 = 1 << 63
    /// The stored strings, by index.
    private var strings: [String] = []
    /// Open addressing over `strings`: index + 1 of each stored string at its hash's slot (0 = empty); a power of two.
    private var slots: [Int32] = Array(repeating: 0, count: 64)
    /// The hash of each stored string, for growing `slots` without hashing again.
    private var hashes: [UInt64] = []

    /// Creates an empty pool.
    package init() {}

    /// The token for `text` (0 for nil).
    package mutating func token(_ text: String?) -> Token {
        guard let text else { return 0 }
        var utf8 = text
        return utf8.withUTF8 { token(bytes: UnsafeRawBufferPointer($0), text: text) }
    }

    /// The token for the text whose UTF-8 is `bytes`.
    package mutating func token(bytes: UnsafeRawBufferPointer) -> Token {
        token(bytes: bytes, text: nil)
    }

    /// The token of a worker's fact text, whose spans are in `texts`.
    package mutating func token(_ text: FactText, in texts: FactTexts) -> Token {
        guard text.isStored else { return text.raw }
        return texts.withStored(text) { span in
            token(bytes: span ?? UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// The text of a token (nil for 0).
    package func text(_ token: Token) -> String? {
        if token == 0 { return nil }
        if token & Self.stringTag != 0 {
            let i = Int(token & ~Self.stringTag)
            return i < strings.count ? strings[i] : nil
        }
        return String(token & ~Self.numberTag)
    }

    /// The text of a token, or "" for absent.
    package func string(_ token: Token) -> String {
        text(token) ?? ""
    }

    /// How many distinct non-numeric strings are stored.
    package var count: Int { strings.count }

    /// The packed token of a digit string `StringPool` packs (1 to 18 digits, no leading zero but "0"), else nil.
    static func packedNumber(_ utf8: UnsafeRawBufferPointer) -> Token? {
        guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
        if utf8.count > 1, utf8[0] == 0x30 { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
        }
        return numberTag | value
    }

    // MARK: - Private

    /// Finds or stores the text of `bytes` (`text`, when the caller has it as a `String` already).
    private mutating func token(bytes: UnsafeRawBufferPointer, text: String?) -> Token {
        if let packed = Self.packedNumber(bytes) { return packed }
        // FNV-1a: the texts are short, and `Hasher`'s seeding cost more than the bytes (one lookup a field a record).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            if hashes[stored - 1] == hash, Self.equal(strings[stored - 1], bytes) {
                return Self.stringTag | UInt64(stored - 1)
            }
            slot = (slot + 1) & mask
        }
        let index = strings.count
        strings.append(text ?? String(decoding: bytes, as: UTF8.self))
        hashes.append(hash)
        slots[slot] = Int32(truncatingIfNeeded: index + 1)
        if strings.count * 2 > slots.count { grow() }
        return Self.stringTag | UInt64(index)
    }

    /// Doubles `slots`, placing every stored string again.
    private mutating func grow() {
        var grown = [Int32](repeating: 0, count: slots.count * 2)
        let mask = grown.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = Int32(truncatingIfNeeded: index + 1)
        }
        slots = grown
    }

    /// Whether `string`'s UTF-8 is `bytes`.
    private static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let utf8 = string.utf8
        guard utf8.count == bytes.count else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ stored -> Bool in
            guard let a = stored.baseAddress, let b = bytes.baseAddress, !bytes.isEmpty else { return true }
            return memcmp(a, b, bytes.count) == 0
        }) {
            return same
        }
        return utf8.elementsEqual(bytes)
    }
}
