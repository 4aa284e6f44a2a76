/// Interns text as compact 64-bit tokens so a million records fit in little memory.
///
/// Token 0 means absent. Digit strings up to 18 digits without a leading zero are packed as numbers (no table entry);
/// everything else is stored once in the table. A token turns back into exactly the original text.
package struct StringPool: Sendable {
    /// A compact handle for a piece of text (0 = absent).
    package typealias Token = UInt64

    private static let numberTag: UInt64 = 1 << 62
    private static let stringTag: UInt64 = 1 << 63
    private var strings: [String] = []
    private var index: [String: UInt64] = [:]

    /// Creates an empty pool.
    package init() {}

    /// The token for `text` (0 for nil).
    package mutating func token(_ text: String?) -> Token {
        guard let text else { return 0 }
        if let packed = Self.packNumber(text) { return packed }
        if let existing = index[text] { return existing }
        let token = Self.stringTag | UInt64(strings.count)
        strings.append(text)
        index[text] = token
        return token
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

    private static func packNumber(_ text: String) -> Token? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
        if utf8.count > 1, utf8.first == 0x30 { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
        }
        return numberTag | value
    }
}
