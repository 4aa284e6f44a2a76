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
        for value in [
            0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF
        ] {
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

    @Test func utf8SequenceAgreesWithSwiftsDecoderOnRandomBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        var checked = 0
        for _ in 0..<50_000 {
            // A lead byte at or above 0x80 and up to three following bytes, biased towards continuation bytes.
            let lead = 0x80 | next()
            let tail = (0..<Int(next() % 4)).map { _ in next() % 3 == 0 ? next() : 0x80 | (next() & 0x3F) }
            let bytes = [lead] + tail
            let verdict = bytes.withUnsafeBufferPointer {
                ByteTables.utf8Sequence($0.baseAddress!, at: 0, end: bytes.count)
            }
            // Swift's decoder: the longest prefix that is exactly one scalar.
            let one = (1...bytes.count).first {
                String(validating: bytes[0..<$0], as: UTF8.self)?.unicodeScalars.count == 1
            }
            switch verdict {
            case .valid(let length): #expect(one == length, "\(bytes)")
            case .invalidLead, .invalidContinuation, .truncated: #expect(one == nil, "\(bytes)")
            }
            checked += 1
        }
        #expect(checked == 50_000)
    }

    @Test func utf8SequenceSaysWhatIsWrong() {
        func check(_ bytes: [UInt8]) -> ByteTables.UTF8Sequence {
            bytes.withUnsafeBufferPointer { ByteTables.utf8Sequence($0.baseAddress!, at: 0, end: bytes.count) }
        }
        #expect(check([0xC3, 0xA9]) == .valid(2))
        #expect(check([0xF0, 0x9F, 0x98, 0x80]) == .valid(4))
        #expect(check([0xC0, 0x80]) == .invalidLead) // overlong NUL
        #expect(check([0xED, 0xA0, 0x80]) == .invalidContinuation) // a surrogate
        #expect(check([0xF4, 0x90, 0x80, 0x80]) == .invalidContinuation) // above U+10FFFF
        #expect(check([0xE2, 0x82]) == .truncated)
    }

    @Test func uuidTextRoundTripsAndRefusesOtherShapes() {
        let text = "8c2e6a6f-0b1d-4e8a-9c3f-2a1b0c9d8e7f"
        let bytes = ByteTables.uuidBytes(text)
        #expect(bytes?.count == 16)
        #expect(bytes.map(ByteTables.uuidText) == text)
        #expect(ByteTables.uuidBytes(text.uppercased()) == bytes)
        #expect(ByteTables.uuidBytes(text.uppercased(), lowercaseOnly: true) == nil)
        #expect(ByteTables.uuidBytes(String(text.dropLast())) == nil)
        #expect(ByteTables.uuidBytes(text.replacingOccurrences(of: "-", with: "_")) == nil)
        #expect(ByteTables.uuidBytes("8c2e6a6f-0b1d-4e8a-9c3f-2a1b0c9d8e7g") == nil)
    }

    @Test func fixedWidthHexAndFourDigitEscapes() {
        #expect(ByteTables.hexText(0x0A, digits: 2, uppercase: true) == "0A")
        #expect(ByteTables.hexText(0xBEEF, digits: 8) == "0000beef")
        #expect(ByteTables.hexText(0x1_2345, digits: 4) == "12345")
        let digits = Array("00e9G123".utf8)
        digits.withUnsafeBufferPointer { buffer in
            #expect(ByteTables.hexValue4(buffer.baseAddress!, at: 0) == 0xE9)
            #expect(ByteTables.hexValue4(buffer.baseAddress!, at: 4) == nil)
        }
    }

    @Test func skipPlainStringBytesStopsWhereTheByteLoopStops() {
        var state: UInt64 = 7
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let count = Int(state >> 59) + 1
            var bytes = [UInt8](repeating: 0x61, count: count + 8)
            let special = Int((state >> 40) % UInt64(count + 8))
            bytes[special] = [0x22, 0x5C, 0x0A, 0xC3, 0x1F][Int((state >> 20) % 5)]
            let end = bytes.count - Int((state >> 10) % 4)
            let skipped = bytes.withUnsafeBytes { ByteTables.skipPlainStringBytes($0.baseAddress!, from: 0, end: end) }
            // The reference: whole words are skipped up to the first word holding the special byte; the bytes after
            // the last whole word before `end` are left for the caller.
            let wholeWords = end / 8 * 8
            let expected = special < wholeWords ? special : wholeWords
            #expect(skipped == expected, "\(count) \(special) \(end)")
        }
    }

    @Test func equalFindsADifferenceAtEveryPositionOfEveryLength() {
        for count in 0...40 {
            let a = (0..<count).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
            a.withUnsafeBufferPointer { pa in
                let same = Array(a)
                same.withUnsafeBufferPointer { #expect(ByteTables.equal(pa.baseAddress!, $0.baseAddress!, count)) }
                for position in 0..<count {
                    var b = a
                    b[position] ^= 0x20
                    b.withUnsafeBufferPointer { pb in
                        #expect(!ByteTables.equal(pa.baseAddress!, pb.baseAddress!, count), "\(count) \(position)")
                    }
                }
            }
        }
    }

    @Test func copyWritesExactlyTheRangeAtEveryLength() {
        for count in 0...72 {
            let source = (0..<count).map { UInt8(truncatingIfNeeded: 0x30 + $0) }
            // Guard bytes around the target must stay as they were.
            var target = [UInt8](repeating: 0xEE, count: count + 16)
            source.withUnsafeBufferPointer { s in
                target.withUnsafeMutableBufferPointer { t in
                    if let from = s.baseAddress { ByteTables.copy(from, to: t.baseAddress! + 8, count) }
                }
            }
            #expect(Array(target[8..<8 + count]) == source, "\(count)")
            #expect(
                target[..<8].allSatisfy { $0 == 0xEE } && target[(8 + count)...].allSatisfy { $0 == 0xEE }, "\(count)")
        }
    }

    @Test func digitsAreToldAndReadAsTheByteLoopDoes() {
        // Bytes just outside 0-9 (and ones whose +6 carries) at every position, among random digit strings.
        let strangers: [UInt8] = [0x2F, 0x3A, 0x3F, 0x00, 0x20, 0x40, 0x7F, 0x80, 0xF9, 0xFA, 0xFF, 0x29, 0x39 + 0x10]
        var state: UInt64 = 5
        var digitStrings = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let count = Int(state >> 59) % 19
            var bytes = (0..<count).map { UInt8(0x30 + Int((state >> UInt64(8 + $0 % 40)) % 10)) }
            if count > 0 && state & 1 == 0 {
                bytes[Int(state >> 40) % count] = strangers[Int(state >> 20) % strangers.count]
            }
            let digits = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            bytes.withUnsafeBufferPointer { buffer in
                let p = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
                #expect(ByteTables.allDigits(p, count) == digits, "\(bytes)")
                if digits {
                    digitStrings += 1
                    let expected = bytes.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
                    #expect(ByteTables.digitsValue(p, count) == expected, "\(bytes)")
                }
            }
        }
        #expect(digitStrings > 5_000)
        let largest = Array("999999999999999999".utf8)
        largest.withUnsafeBufferPointer {
            #expect(ByteTables.digitsValue($0.baseAddress!, 18) == 999_999_999_999_999_999)
        }
    }
}
