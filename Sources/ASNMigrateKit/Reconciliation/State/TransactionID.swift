/// A transaction id as the state rules hold it: a canonical decimal number (1 to 18 digits, no leading zero) inline,
/// any other text as given. Apple's ids are such numbers, so comparing, hashing and ordering them makes no text, and a
/// caller holding the number already (notification pairing's interned tokens) makes none either.
///
/// Exactly one value per text: `TransactionID(text).text == text`, and two ids are equal when their texts are.
package enum TransactionID: Hashable, Sendable {
    /// A canonical decimal number.
    case number(UInt64)
    /// Any other text (an empty one included).
    case text(String)

    /// The id of `text`: a number when `text` is one in canonical form, else the text.
    package init(_ text: String) {
        self = Self.canonicalNumber(text).map(TransactionID.number) ?? .text(text)
    }

    /// The id's text.
    package var text: String {
        switch self {
        case .number(let value): return String(value)
        case .text(let text): return text
        }
    }

    /// `IdentifierOrder.less` of the two ids' texts (nil as ""), told without making text when both are numbers.
    package static func less(_ a: TransactionID?, _ b: TransactionID?) -> Bool {
        if case .number(let x)? = a, case .number(let y)? = b { return x < y }
        return IdentifierOrder.less(a?.text ?? "", b?.text ?? "")
    }

    /// The value of a canonical decimal number of at most 18 digits, else nil.
    private static func canonicalNumber(_ text: String) -> UInt64? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18, utf8.count == 1 || utf8.first != 0x30 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value &* 10 &+ UInt64(byte &- 0x30)
        }
        return value
    }
}
