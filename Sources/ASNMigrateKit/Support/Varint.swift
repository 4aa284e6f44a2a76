/// LEB128 variable-length integers (7 bits a byte, low bits first) and their zigzag form for signed values.
package enum Varint {
    /// Appends `value` as an unsigned varint.
    package static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Appends `value` zigzag-encoded (small magnitudes, either sign, take few bytes).
    package static func appendSigned(_ value: Int64, to out: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &out)
    }

    /// Reads varints from bytes, failing (nil) on a truncated or over-long value.
    package struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var offset = 0

        /// A reader at the start of `bytes`.
        package init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// Whether every byte was read.
        package var isAtEnd: Bool { offset == bytes.count }

        /// How many bytes were read.
        package var position: Int { offset }

        /// The next `count` raw bytes, or nil when fewer are left.
        package mutating func bytes(_ count: UInt64) -> UnsafeRawBufferPointer? {
            guard count <= UInt64(bytes.count - offset) else { return nil }
            defer { offset += Int(count) }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(count))])
        }

        /// The next raw byte.
        package mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// The next unsigned varint.
        package mutating func next() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let b = bytes[offset]
                offset += 1
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        /// The next zigzag-encoded signed varint.
        package mutating func nextSigned() -> Int64? {
            next().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) }
        }
    }
}
