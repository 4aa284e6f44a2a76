import Foundation

/// One text of a record's facts as a worker thread reads it, in 8 bytes and without a `String`: absent, a number
/// packed exactly as `StringPool` packs digit strings (so its pool token is the value itself), or a span of the batch's
/// `FactTexts`. The consumer interns it (`StringPool.token(_:in:)`) with no allocation for a text the pool holds.
package struct FactText: Sendable, Hashable {
    /// Absent (0), a packed number (`StringPool.numberTag` set) or a span (`spanTag` set: offset in the high bits,
    /// length in the low 31).
    package let raw: UInt64

    /// The absent text.
    package static let absent = FactText(raw: 0)
    /// Marks a span of `FactTexts`.
    static let spanTag: UInt64 = 1 << 63

    /// A text from its raw form.
    init(raw: UInt64) {
        self.raw = raw
    }

    /// Whether a text is present (an empty one is).
    package var isPresent: Bool { raw != 0 }

    /// Whether it is a span of a batch's texts.
    var isSpan: Bool { raw & Self.spanTag != 0 }

    /// The offset of a span.
    var offset: Int { Int((raw & ~Self.spanTag) >> 31) }

    /// The length of a span.
    var length: Int { Int(raw & 0x7FFF_FFFF) }
}

/// The bytes of one batch's fact texts, appended one after another: a worker fills it, the consumer reads it.
package struct FactTexts: Sendable {
    /// The bytes.
    package private(set) var bytes: [UInt8] = []

    /// An empty store.
    package init() {}

    /// The text of `utf8`: packed when it is a digit string `StringPool` packs, else a span of the store.
    package mutating func add(_ utf8: UnsafeRawBufferPointer) -> FactText {
        if let packed = StringPool.packedNumber(utf8) { return FactText(raw: packed) }
        guard utf8.count <= 0x7FFF_FFFF else { return add(String(decoding: utf8.prefix(0x7FFF_FFFF), as: UTF8.self)) }
        let offset = UInt64(bytes.count)
        bytes.append(contentsOf: utf8)
        return FactText(raw: FactText.spanTag | offset << 31 | UInt64(utf8.count))
    }

    /// The text of `text` (absent for nil).
    package mutating func add(_ text: String?) -> FactText {
        guard var text else { return .absent }
        return text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// Gives the bytes of a span to `body` (an absent or packed text gives nil).
    package func withSpan<T>(_ text: FactText, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard text.isSpan else { return body(nil) }
        return bytes.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[text.offset..<(text.offset + text.length)]))
        }
    }

    /// Gives the UTF-8 of a text to `body` (nil when absent); a packed number is written out on the stack.
    package func withBytes<T>(_ text: FactText, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard text.isPresent else { return body(nil) }
        if text.isSpan { return withSpan(text, body) }
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
        guard text.isSpan else { return String(text.raw & ~StringPool.numberTag) }
        return withSpan(text) { String(decoding: $0 ?? UnsafeRawBufferPointer(start: nil, count: 0), as: UTF8.self) }
    }

    /// Whether the text's bytes are `word`'s.
    package func equals(_ text: FactText, _ word: StaticString) -> Bool {
        withSpan(text) { span in
            guard let span, span.count == word.utf8CodeUnitCount else { return false }
            guard let base = span.baseAddress, span.count > 0 else { return true }
            return memcmp(base, word.utf8Start, span.count) == 0
        }
    }

    /// Empties the store, keeping its capacity.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}
