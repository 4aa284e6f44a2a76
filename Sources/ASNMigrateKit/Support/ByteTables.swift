/// The byte helpers every scanner and writer shares, declared once: ASCII classes, hex digits, the eight-bytes-at-a-time
/// (SWAR) searches for special string bytes, UUID text, UTF-8 writing and JSON string escaping.
///
/// The JSON parser, the fast path's tape scanner and canonical writer, the record splitter, the CSV writer and the
/// UUID and digest formatting all take them from here.
package enum ByteTables {
    // MARK: - ASCII classes

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// JSON whitespace: space, tab, carriage return, line feed.
    @inline(__always)
    package static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Bytes that force a CSV cell to be quoted: `,`, `"`, CR and LF.
    @inline(__always)
    package static func isCSVSpecial(_ byte: UInt8) -> Bool {
        byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A
    }

    // MARK: - Hex

    /// Lowercase hex digits, as UUIDs, digests and `\u00XX` escapes are written.
    package static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The value of an ASCII hex digit (either case), or nil.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x61...0x66: return byte &- 0x61 &+ 10
        case 0x41...0x46: return byte &- 0x41 &+ 10
        default: return nil
        }
    }

    /// Appends the two lowercase hex digits of `byte`.
    @inline(__always)
    package static func appendHex(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(lowerHexDigits[Int(byte >> 4)])
        out.append(lowerHexDigits[Int(byte & 0x0F)])
    }

    /// Bytes as lowercase hex text, two digits per byte.
    package static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes { appendHex(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of four hex digits at `base[offset..<offset+4]`, or nil when one is not a hex digit (`\uXXXX`).
    @inline(__always)
    package static func hexValue4(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            guard let digit = hexValue(base[k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `value` as exactly `digits` hex digits (zero-padded), as messages show bytes, code units and checksums.
    package static func hexText(_ value: UInt64, digits: Int, uppercase: Bool = false) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    // MARK: - UUIDs

    /// The 16 bytes of a UUID written as 8-4-4-4-12 hex digits, or nil if it is not one; with `lowercaseOnly`,
    /// uppercase digits also give nil (so a text that would not round-trip is kept as text).
    package static func uuidBytes(_ text: String, lowercaseOnly: Bool = false) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(16)
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard utf8[index] == 0x2D else { return nil }
                index += 1
                continue
            }
            let pair = (utf8[index], utf8[index + 1])
            if lowercaseOnly && ((0x41...0x46).contains(pair.0) || (0x41...0x46).contains(pair.1)) { return nil }
            guard let high = hexValue(pair.0), let low = hexValue(pair.1) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Lowercase 8-4-4-4-12 text of 16 UUID bytes.
    package static func uuidText(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(0x2D) }
            appendHex(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: - Eight bytes at a time (SWAR)

    /// `0x01` in every byte of a word.
    package static let ones: UInt64 = 0x0101_0101_0101_0101
    /// `0x80` in every byte of a word.
    package static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit set in (at least) the lowest byte of `word` equal to `byte`; zero if none. Bits above the first
    /// match may be spurious (borrows), so only the lowest set bit is meaningful.
    @inline(__always)
    package static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// The high bit set in the lowest byte of `word` that is `"`, `\`, < 0x20 or ≥ 0x80, the bytes that end the fast
    /// scan of a JSON string; zero if none (only the lowest set bit is meaningful).
    @inline(__always)
    package static func specialStringBytes(_ word: UInt64) -> UInt64 {
        let control = (word &- ones &* 0x20) & ~word
        return (matches(word, 0x22) | matches(word, 0x5C) | control | word) & highs
    }

    /// Whether `count` bytes at `a` and `b` are equal, compared eight at a time inline (short keys would spend more
    /// on calling `memcmp` than on comparing); the last bytes as one word overlapping the one before, not one by one.
    /// Reads only inside the two ranges.
    @inline(__always)
    package static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        if count >= 8 {
            var k = 0
            while k &+ 8 < count {
                if ra.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                    != rb.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                {
                    return false
                }
                k &+= 8
            }
            return ra.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == rb.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
                && ra.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == rb.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        var k = 0
        while k < count {
            if a[k] != b[k] { return false }
            k &+= 1
        }
        return true
    }

    /// Copies `count` bytes from `source` to `target` (which must not overlap): runs of up to 32 bytes (a date's
    /// text, most ids and names) with overlapping word moves inline, longer ones through `memmove`. Reads and writes
    /// only inside the two ranges.
    @inline(__always)
    package static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, _ count: Int) {
        let s = UnsafeRawPointer(source)
        let t = UnsafeMutableRawPointer(target)
        if count > 16 && count <= 32 {
            let head0 = s.loadUnaligned(as: UInt64.self)
            let head1 = s.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let tail0 = s.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
            let tail1 = s.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            t.storeBytes(of: head0, as: UInt64.self)
            t.storeBytes(of: head1, toByteOffset: 8, as: UInt64.self)
            t.storeBytes(of: tail0, toByteOffset: count &- 16, as: UInt64.self)
            t.storeBytes(of: tail1, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 8 && count <= 16 {
            let head = s.loadUnaligned(as: UInt64.self)
            let tail = s.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            t.storeBytes(of: head, as: UInt64.self)
            t.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = s.loadUnaligned(as: UInt32.self)
            let tail = s.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            t.storeBytes(of: head, as: UInt32.self)
            t.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count < 4 {
            for k in 0..<count { target[k] = source[k] }
        } else {
            target.update(from: source, count: count)
        }
    }

    /// Compares `la` bytes at `a` with `lb` bytes at `b` as unsigned bytes, shorter prefix first (as `memcmp` then
    /// length): negative, zero or positive. Eight bytes at a time inline.
    @inline(__always)
    package static func compare(_ a: UnsafePointer<UInt8>, _ la: Int, _ b: UnsafePointer<UInt8>, _ lb: Int) -> Int {
        let common = min(la, lb)
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        var k = 0
        while k &+ 8 <= common {
            let x = UInt64(bigEndian: ra.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            let y = UInt64(bigEndian: rb.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            if x != y { return x < y ? -1 : 1 }
            k &+= 8
        }
        while k < common {
            if a[k] != b[k] { return a[k] < b[k] ? -1 : 1 }
            k &+= 1
        }
        return la &- lb
    }

    /// Whether the `count` bytes at `p` are all ASCII digits, eight at a time (true for none).
    @inline(__always)
    package static func allDigits(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        var k = 0
        while k &+ 8 <= count {
            guard isEightDigits(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))) else {
                return false
            }
            k &+= 8
        }
        while k < count {
            if p[k] &- 0x30 >= 10 { return false }
            k &+= 1
        }
        return true
    }

    /// Whether every byte of `word` is an ASCII digit: the high nibbles are all 3, and adding 6 to each byte keeps
    /// them so (a byte that carries into the next one already fails the first test).
    @inline(__always)
    package static func isEightDigits(_ word: UInt64) -> Bool {
        (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
            == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits, first in the lowest byte of `word` (`isEightDigits` must hold): pairs, then
    /// fours, then the eight, combined by three multiplications instead of eight.
    @inline(__always)
    package static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        // Swift shifts before it multiplies: the parentheses keep C's order.
        var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    /// The value of the `count` ASCII digits at `p` (all digits, at most 18, so it fits), eight at a time.
    @inline(__always)
    package static func digitsValue(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64 {
        let raw = UnsafeRawPointer(p)
        var value: Int64 = 0
        var k = 0
        while k &+ 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            value = value &* 100_000_000 &+ Int64(truncatingIfNeeded: eightDigitsValue(word))
            k &+= 8
        }
        while k < count {
            value = value &* 10 &+ Int64(p[k] &- 0x30)
            k &+= 1
        }
        return value
    }

    /// From `offset`, skips eight bytes at a time while none is a quote, a backslash, a control character or
    /// non-ASCII; returns the offset of the first such byte, or where fewer than eight bytes are left before `end`.
    /// Two words are looked at per step (their masks joined, one branch): about a third faster on the usual 10–40
    /// byte values and on a receipt's long base64 blob than one word a step.
    @inline(__always)
    package static func skipPlainStringBytes(_ raw: UnsafeRawPointer, from offset: Int, end: Int) -> Int {
        var i = offset
        while i &+ 16 <= end {
            let low = specialStringBytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            let high = specialStringBytes(
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)))
            if low | high != 0 {
                if low != 0 { return i &+ (low.trailingZeroBitCount &>> 3) }
                return i &+ 8 &+ (high.trailingZeroBitCount &>> 3)
            }
            i &+= 16
        }
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let mask = specialStringBytes(word)
            if mask != 0 { return i &+ (mask.trailingZeroBitCount &>> 3) }
            i &+= 8
        }
        return i
    }

    // MARK: - UTF-8

    /// Writes `scalar` as UTF-8 at `out`; returns how many bytes (1 to 4).
    @inline(__always)
    package static func writeUTF8(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if scalar < 0x80 {
            out[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        } else if scalar < 0x800 {
            out[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        } else if scalar < 0x10000 {
            out[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        } else {
            out[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// Appends `scalar` as UTF-8.
    @inline(__always)
    package static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            guard let p = buffer.baseAddress else { return }
            let count = writeUTF8(scalar, to: p)
            out.append(contentsOf: UnsafeBufferPointer(start: p, count: count))
        }
    }

    /// What a multi-byte UTF-8 sequence reads as: its length, or what is wrong with it.
    package enum UTF8Sequence: Equatable, Sendable {
        /// A well-formed sequence of this many bytes.
        case valid(Int)
        /// The first byte cannot start a multi-byte sequence.
        case invalidLead
        /// The sequence runs past the end of the input.
        case truncated
        /// A continuation byte is out of its allowed range.
        case invalidContinuation
    }

    /// Checks the multi-byte UTF-8 sequence starting at `base[offset]` against Unicode table 3-7 (no overlong
    /// forms, no surrogates, nothing above U+10FFFF), reading no byte at or after `end`.
    @inline(__always)
    package static func utf8Sequence(_ base: UnsafePointer<UInt8>, at offset: Int, end: Int) -> UTF8Sequence {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch base[offset] {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return .invalidLead
        }
        guard offset + length <= end else { return .truncated }
        let second = base[offset + 1]
        guard second >= low && second <= high else { return .invalidContinuation }
        var k = 2
        while k < length {
            guard base[offset + k] & 0xC0 == 0x80 else { return .invalidContinuation }
            k += 1
        }
        return .valid(length)
    }

    // MARK: - JSON string escaping

    /// Appends the UTF-8 bytes `utf8` as a quoted JSON string, escaped minimally: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`,
    /// `\t`, other control characters as `\u00XX` (lowercase hex); `/` and non-ASCII as is.
    package static func appendEscapedJSONString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(0x22)
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index += 1
                continue
            }
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            out.append(0x5C)
            switch byte {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x08: out.append(0x62)
            case 0x0C: out.append(0x66)
            case 0x0A: out.append(0x6E)
            case 0x0D: out.append(0x72)
            case 0x09: out.append(0x74)
            default:
                out.append(contentsOf: [0x75, 0x30, 0x30])
                appendHex(byte, to: &out)
            }
            index += 1
            runStart = index
        }
        if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
        out.append(0x22)
    }
}
