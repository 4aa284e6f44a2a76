import Foundation

/// Byte helpers of the fast path: hex digits, unescaping a string token, and escaping as `JSONWriter` does.
enum TapeBytes {
    /// The value of an ASCII hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        default: return nil
        }
    }

    /// The UTF-8 of a validated string's content bytes `start..<end` with its escapes resolved.
    static func unescape(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var r = start
        while r < end {
            let byte = base[r]
            if byte != 0x5C {
                out.append(byte)
                r += 1
                continue
            }
            let escape = base[r + 1]
            r += 2
            switch escape {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = hex4(base, r)
                r += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hex4(base, r + 2)
                    r += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &out)
            default: out.append(escape)
            }
        }
        return out
    }

    /// Appends `utf8` as a quoted JSON string escaped exactly as `JSONWriter` does.
    static func appendEscaped(_ utf8: [UInt8], to out: inout [UInt8]) {
        out.append(0x22)
        for byte in utf8 {
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                out.append(byte)
                continue
            }
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
                out.append(contentsOf: [0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            }
        }
        out.append(0x22)
    }

    // MARK: - Private

    /// Lowercase hex digits, as `JSONWriter` writes `\u00XX`.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Four validated hex digits at `offset`.
    private static func hex4(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in offset..<(offset + 4) { value = value << 4 | (hexValue(base[k]) ?? 0) }
        return value
    }

    /// Appends `scalar` as UTF-8.
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        if scalar < 0x80 {
            out.append(UInt8(truncatingIfNeeded: scalar))
        } else if scalar < 0x800 {
            out.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            out.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        } else {
            out.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }
}
