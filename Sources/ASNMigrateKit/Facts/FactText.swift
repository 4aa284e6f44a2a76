import Foundation

/// One text of a record's facts as a worker thread reads it, in 8 bytes and without a `String`: absent, a number
/// packed exactly as `StringPool` packs digit strings (so its pool token is the value itself), or a text of the batch's
/// `FactTexts` (a span of its bytes; a text too long for a span, kept whole). The consumer interns it
/// (`StringPool.token(_:in:)`) with no allocation for a text the pool holds.
package struct FactText: Sendable, Hashable {
    /// Absent (0), a packed number (`StringPool.numberTag` set), a span (`storedTag` set: offset in bits 31 to 61,
    /// length in the low 31) or a long text (`storedTag` and `numberTag` set: its index among the store's long texts).
    package let raw: UInt64

    /// The absent text.
    package static let absent = FactText(raw: 0)
    /// Marks a text of `FactTexts`.
    static let storedTag: UInt64 = 1 << 63
    /// The most bytes a span holds, and the most before its start.
    static let spanLimit = 0x7FFF_FFFF

    /// A text from its raw form.
    init(raw: UInt64) {
        self.raw = raw
    }

    /// Whether a text is present (an empty one is).
    package var isPresent: Bool { raw != 0 }

    /// Whether it is a text of a batch's store (a span or a long text), not absent or a packed number.
    var isStored: Bool { raw & Self.storedTag != 0 }

    /// Whether it is one of the store's long texts.
    var isLong: Bool { isStored && raw & StringPool.numberTag != 0 }

    /// The offset of a span, or the index of a long text.
    var offset: Int { isLong ? Int(raw & Self.spanLimitMask) : Int((raw & ~Self.storedTag) >> 31) }

    /// The low 31 bits.
    private static let spanLimitMask = UInt64(spanLimit)

    /// The length of a span.
    var length: Int { Int(raw & 0x7FFF_FFFF) }
}

/// The bytes of one batch's fact texts, appended one after another: a worker fills it, the consumer reads it.
package struct FactTexts: Sendable {
    /// The bytes.
    package private(set) var bytes: [UInt8] = []
    /// Texts a span cannot hold (a span's length and offset have 31 bits each), kept whole.
    private var long: [String] = []
    /// The most bytes a span holds, and the most before its start (`FactText.spanLimit`; smaller in tests).
    private let spanLimit: Int

    /// An empty store; `spanLimit` is for tests of long texts.
    package init(spanLimit: Int = FactText.spanLimit) {
        self.spanLimit = min(spanLimit, FactText.spanLimit)
    }

    /// The text of `utf8`: packed when it is a digit string `StringPool` packs, else a span of the store (a long
    /// text whole, when a span cannot hold it).
    package mutating func add(_ utf8: UnsafeRawBufferPointer) -> FactText {
        if let packed = StringPool.packedNumber(utf8) { return FactText(raw: packed) }
        guard utf8.count <= spanLimit, bytes.count <= spanLimit, long.count < spanLimit else {
            long.append(String(decoding: utf8, as: UTF8.self))
            return FactText(raw: FactText.storedTag | StringPool.numberTag | UInt64(long.count - 1))
        }
        let offset = UInt64(bytes.count)
        bytes.append(contentsOf: utf8)
        return FactText(raw: FactText.storedTag | offset << 31 | UInt64(utf8.count))
    }

    /// The text of `text` (absent for nil).
    package mutating func add(_ text: String?) -> FactText {
        guard var text else { return .absent }
        return text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// Gives the bytes of a stored text to `body` (an absent or packed text gives nil).
    package func withStored<T>(_ text: FactText, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard text.isStored else { return body(nil) }
        if text.isLong {
            var whole = long[text.offset]
            return whole.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
        return bytes.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[text.offset..<(text.offset + text.length)]))
        }
    }

    /// Gives the UTF-8 of a text to `body` (nil when absent); a packed number is written out on the stack.
    package func withBytes<T>(_ text: FactText, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard text.isPresent else { return body(nil) }
        if text.isStored { return withStored(text, body) }
        var value = text.raw & ~StringPool.numberTag
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            } while value > 0
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The text as a `String` (nil when absent).
    package func string(_ text: FactText) -> String? {
        guard text.isPresent else { return nil }
        guard text.isStored else { return String(text.raw & ~StringPool.numberTag) }
        if text.isLong { return long[text.offset] }
        return withStored(text) { String(decoding: $0 ?? UnsafeRawBufferPointer(start: nil, count: 0), as: UTF8.self) }
    }

    /// Whether the text's bytes are `word`'s.
    package func equals(_ text: FactText, _ word: StaticString) -> Bool {
        withStored(text) { span in
            guard let span, span.count == word.utf8CodeUnitCount else { return false }
            guard let base = span.baseAddress, span.count > 0 else { return true }
            return memcmp(base, word.utf8Start, span.count) == 0
        }
    }

    /// Empties the store, keeping its capacity.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        long.removeAll(keepingCapacity: true)
    }
}
