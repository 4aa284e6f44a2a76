import Foundation

/// String helpers of the fast path: unescaping a string token, and escaping as `JSONWriter` does (bytes from `ByteTables`).
enum TapeBytes {
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
                ByteTables.appendUTF8(scalar, to: &out)
            default: out.append(escape)
            }
        }
        return out
    }

    /// Appends `utf8` as a quoted JSON string escaped exactly as `JSONWriter` does (the same `ByteTables` escaping).
    static func appendEscaped(_ utf8: [UInt8], to out: inout [UInt8]) {
        utf8.withUnsafeBufferPointer { ByteTables.appendEscapedJSONString($0, to: &out) }
    }

    // MARK: - Private

    /// Four validated hex digits at `offset`.
    private static func hex4(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 {
        ByteTables.hexValue4(base, at: offset) ?? 0
    }
}
