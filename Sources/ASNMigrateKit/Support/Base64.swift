/// Base64 for JWS: a lenient decoder (base64url or standard alphabet, padded or not) and strict encoders.
package enum Base64 {
    // MARK: - Decoding

    /// Decodes base64url or standard base64, with or without `=` padding; nil on any other character or an impossible length.
    ///
    /// Padding, when present, must complete the last quartet (total length a multiple of 4) and stand only at the end.
    /// Unused low bits of the last character are ignored, as most decoders do.
    package static func decode(_ encoded: some Collection<UInt8>) -> [UInt8]? {
        let decoded: [UInt8]?? = encoded.withContiguousStorageIfAvailable { decode(UnsafeRawBufferPointer($0)) }
        if let decoded { return decoded }
        return Array(encoded).withUnsafeBytes { decode($0) }
    }

    /// Decodes the UTF-8 of `text` as `decode(_:)` does bytes.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var copy = String(text)
        return copy.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the bytes of `buffer` as `decode(_:)` does, into `out` (replacing its contents, reusing its capacity);
    /// false, with `out` unspecified, where `decode(_:)` gives nil.
    package static func decode(_ buffer: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        guard let decoded = decode(buffer, appendingTo: &out) else { return false }
        return decoded
    }

    /// Decodes the bytes of `buffer` as `decode(_:)` does.
    package static func decode(_ buffer: UnsafeRawBufferPointer) -> [UInt8]? {
        var out: [UInt8] = []
        guard decode(buffer, appendingTo: &out) == true else { return nil }
        return out
    }

    /// Appends the decoded bytes of `buffer` to `out`: nil for an impossible length, false for a character outside
    /// the alphabets, true when decoded.
    private static func decode(_ buffer: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) -> Bool? {
        var count = buffer.count
        var padding = 0
        while count > 0 && padding < 2 && buffer[count - 1] == UInt8(ascii: "=") {
            count -= 1
            padding += 1
        }
        if padding > 0 && buffer.count % 4 != 0 { return nil }
        if count % 4 == 1 { return nil }
        if padding > 0 && (count + padding) % 4 != 0 { return nil }
        // Whole quartets give 3 bytes each; a last partial one of 2 or 3 characters gives 1 or 2 (its unused low bits
        // are ignored). Every value is looked up first and checked once at the end: valid values are below 64, the
        // table's 0xFF marks anything else, so OR-ing them shows an invalid character in the top bits.
        let quartets = count / 4
        let rest = count % 4
        let outCount = quartets * 3 + (rest == 0 ? 0 : rest - 1)
        var seen: UInt8 = 0
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: outCount))
        out.withUnsafeMutableBufferPointer { whole in
            let output = UnsafeMutableBufferPointer(rebasing: whole[start...])
            decodeTable.withUnsafeBufferPointer { table in
                var i = 0
                var o = 0
                for _ in 0..<quartets {
                    let a = table[Int(buffer[i])]
                    let b = table[Int(buffer[i + 1])]
                    let c = table[Int(buffer[i + 2])]
                    let d = table[Int(buffer[i + 3])]
                    seen |= a | b | c | d
                    let bits = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[o] = UInt8(truncatingIfNeeded: bits >> 16)
                    output[o + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    output[o + 2] = UInt8(truncatingIfNeeded: bits)
                    i += 4
                    o += 3
                }
                if rest >= 2 {
                    let a = table[Int(buffer[i])]
                    let b = table[Int(buffer[i + 1])]
                    let c = rest == 3 ? table[Int(buffer[i + 2])] : 0
                    seen |= a | b | c
                    let bits = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    output[o] = UInt8(truncatingIfNeeded: bits >> 16)
                    if rest == 3 { output[o + 1] = UInt8(truncatingIfNeeded: bits >> 8) }
                }
            }
        }
        return seen & 0xC0 == 0
    }

    // MARK: - Encoding

    /// base64url (RFC 4648 §5) without padding, as JWS uses.
    package static func encodeURL(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes), alphabet: urlAlphabet, padded: false)
    }

    /// Standard base64 (RFC 4648 §4) with `=` padding.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes), alphabet: standardAlphabet, padded: true)
    }

    /// Encodes with the given 64-character alphabet, optionally padded.
    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
            out.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let chunk = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            if padded { out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")]) }
        } else if rest == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
            if padded { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Tables

    /// The standard alphabet, `A–Z a–z 0–9 + /`.
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The URL-safe alphabet, `A–Z a–z 0–9 - _`.
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Byte → 6-bit value for both alphabets, 0xFF for anything else.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in standardAlphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()
}
