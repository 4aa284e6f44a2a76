import Testing
@testable import ASNMigrateKit

/// The shared byte helpers against plain references: the SWAR searches against a byte-by-byte loop, UTF-8 writing
/// against Swift's own encoding, hex against `String(radix:)`.
@Suite struct ByteTablesTests {
    /// Words with each interesting byte at each position, plus pseudo-random words.
    static let words: [UInt64] = {
        var all: [UInt64] = []
        let plain: UInt64 = 0x6161_6161_6161_6161
        for special: UInt64 in [0x22, 0x5C, 0x0A, 0x00, 0x1F, 0x20, 0x7F, 0x80, 0xFF, 0x21, 0x5B] {
            for position in 0..<8 {
                let shift = UInt64(position * 8)
                all.append(plain & ~(0xFF << shift) | special << shift)
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            all.append(state)
        }
        return all
    }()

    /// The index of the first byte of `word` (little-endian) satisfying `test`, or nil.
    static func firstIndex(_ word: UInt64, _ test: (UInt8) -> Bool) -> Int? {
        (0..<8).first { test(UInt8(truncatingIfNeeded: word >> UInt64($0 * 8))) }
    }

    /// The byte index the lowest set high bit of `mask` points at, or nil.
    static func lowest(_ mask: UInt64) -> Int? {
        mask == 0 ? nil : mask.trailingZeroBitCount >> 3
    }

    @Test func specialStringBytesFindsTheFirstQuoteBackslashControlOrNonASCII() {
        for word in Self.words {
            let expected = Self.firstIndex(word) { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 }
            #expect(Self.lowest(ByteTables.specialStringBytes(word)) == expected, "word \(String(word, radix: 16))")
        }
    }

    @Test(arguments: [UInt8(0x22), 0x5C, 0x0A, 0x00, 0xFF])
    func matchesFindsTheFirstEqualByte(_ byte: UInt8) {
        for word in Self.words {
            #expect(Self.lowest(ByteTables.matches(word, byte)) == Self.firstIndex(word) { $0 == byte })
        }
    }

    @Test func writesUTF8AsSwiftEncodesIt() {
        for value in [0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF] {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            var out: [UInt8] = []
            ByteTables.appendUTF8(UInt32(value), to: &out)
            #expect(out == Array(String(Character(scalar)).utf8), "U+\(String(value, radix: 16))")
        }
    }

    @Test func hexDigitsRoundTrip() {
        for byte in UInt8.min...UInt8.max {
            let text = ByteTables.hexString([byte])
            #expect(text == (byte < 16 ? "0" : "") + String(byte, radix: 16))
            let digits = Array(text.utf8)
            #expect(ByteTables.hexValue(digits[0]).map { $0 << 4 | (ByteTables.hexValue(digits[1]) ?? 0xFF) } == byte)
            #expect(ByteTables.hexValue(Array(text.uppercased().utf8)[1]) == byte & 0x0F)
        }
        for byte in UInt8.min...UInt8.max where !"0123456789abcdefABCDEF".utf8.contains(byte) {
            #expect(ByteTables.hexValue(byte) == nil)
        }
    }

    @Test func escapesJSONStringsMinimally() {
        let text = "a\"b\\c/d\u{08}\u{0C}\n\r\t\u{01}\u{1F} é😀"
        var out: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { ByteTables.appendEscapedJSONString($0, to: &out) }
        #expect(String(decoding: out, as: UTF8.self) == #""a\"b\\c/d\b\f\n\r\t\u0001\u001f é😀""#)
    }

    @Test func classifiesCSVSpecialAndJSONSpaceBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(ByteTables.isCSVSpecial(byte) == [0x2C, 0x22, 0x0D, 0x0A].contains(byte))
            #expect(ByteTables.isJSONSpace(byte) == [0x20, 0x09, 0x0D, 0x0A].contains(byte))
            #expect(ByteTables.isDigit(byte) == (byte >= 0x30 && byte <= 0x39))
        }
    }
}
