/// A notificationUUID in 16 bytes: standard 8-4-4-4-12 hex UUIDs are packed; anything else is kept through the pool.
struct PackedUUID: Sendable, Hashable {
    /// High 64 bits (0 with `isText` for non-standard ids).
    var hi: UInt64
    /// Low 64 bits, or the pool token of a non-standard id.
    var lo: UInt64
    /// True when `lo` is a pool token.
    var isText: Bool

    /// The absent UUID.
    static let none = PackedUUID(hi: 0, lo: 0, isText: true)

    /// Packs `text`, interning non-standard forms.
    init(_ text: String?, pool: inout StringPool) {
        guard let text else {
            self = .none
            return
        }
        if let (hi, lo) = Self.parse(text) {
            self.init(hi: hi, lo: lo, isText: false)
        } else {
            self.init(hi: 0, lo: pool.token(text), isText: true)
        }
    }

    /// Packs a worker's fact text (spans in `texts`), interning non-standard forms.
    init(_ text: FactText, in texts: FactTexts, pool: inout StringPool) {
        guard text.isPresent else {
            self = .none
            return
        }
        if let (hi, lo) = texts.withStored(text, { $0.flatMap(Self.parse(utf8:)) }) {
            self.init(hi: hi, lo: lo, isText: false)
        } else {
            self.init(hi: 0, lo: pool.token(text, in: texts), isText: true)
        }
    }

    private init(hi: UInt64, lo: UInt64, isText: Bool) {
        self.hi = hi
        self.lo = lo
        self.isText = isText
    }

    /// Whether a UUID is present.
    var isPresent: Bool { !(isText && lo == 0) }

    /// The UUID as lowercase 8-4-4-4-12 text (or the original text).
    func text(_ pool: StringPool) -> String {
        if isText { return pool.string(lo) }
        return ByteTables.uuidText(Self.bigEndianBytes(hi: hi, lo: lo))
    }

    /// The 16 bytes of a standard lowercase UUID (big-endian), or nil for any other text.
    static func bytes(_ text: String) -> [UInt8]? {
        ByteTables.uuidBytes(text, lowercaseOnly: true)
    }

    /// The text of 16 bytes from `bytes(_:)` (nil for another length).
    static func text(bytes: [UInt8]) -> String? {
        bytes.count == 16 ? ByteTables.uuidText(bytes) : nil
    }

    /// `hi` then `lo`, big-endian.
    private static func bigEndianBytes(hi: UInt64, lo: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            let shift = UInt64(56 - 8 * i)
            bytes[i] = UInt8(truncatingIfNeeded: hi >> shift)
            bytes[i + 8] = UInt8(truncatingIfNeeded: lo >> shift)
        }
        return bytes
    }

    /// The two halves of a standard lowercase UUID, read as `bytes(_:)` reads it but straight from the text's UTF-8.
    private static func parse(_ text: String) -> (UInt64, UInt64)? {
        var text = text
        return text.withUTF8 { parse(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The two halves of a standard lowercase UUID given as UTF-8, or nil.
    private static func parse(utf8: UnsafeRawBufferPointer) -> (UInt64, UInt64)? {
        guard utf8.count == 36 else { return nil }
        var hi: UInt64 = 0
        var lo: UInt64 = 0
        var nibbles = 0
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == 0x2D else { return nil }
                continue
            }
            guard !(0x41...0x46).contains(byte), let value = ByteTables.hexValue(byte) else { return nil }
            if nibbles < 16 { hi = hi << 4 | UInt64(value) } else { lo = lo << 4 | UInt64(value) }
            nibbles += 1
        }
        return (hi, lo)
    }
}
