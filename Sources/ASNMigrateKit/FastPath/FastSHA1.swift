import Foundation

/// One-shot SHA-1 over contiguous bytes, for speed: an unrolled Swift implementation. `SHA1` (the reference) is what it
/// is tested against. (A run-time libcrypto was tried and is 5x faster, but the design card allows system C libraries
/// only through a system-library target where an issue asks for one, so it is left out.)
enum FastSHA1 {
    /// The 20-byte digest of `count` bytes at `bytes`.
    static func digest(_ bytes: UnsafeRawPointer, count: Int) -> [UInt8] {
        swiftDigest(bytes, count: count)
    }

    /// The digest computed in Swift, whatever the system offers.
    static func swiftDigest(_ bytes: UnsafeRawPointer, count: Int) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var offset = 0
        while count - offset >= 64 {
            compress(&h, bytes + offset)
            offset += 64
        }
        // The tail: the remaining bytes, 0x80, zeros, and the bit length, in one or two blocks.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            guard let block = tail.baseAddress else { return }
            let rest = count - offset
            block.initialize(repeating: 0, count: 128)
            if rest > 0 { block.initialize(from: (bytes + offset).assumingMemoryBound(to: UInt8.self), count: rest) }
            block[rest] = 0x80
            let blocks = rest + 9 <= 64 ? 1 : 2
            let bits = UInt64(count) &* 8
            for k in 0..<8 { block[blocks * 64 - 1 - k] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k))) }
            compress(&h, UnsafeRawPointer(block))
            if blocks == 2 { compress(&h, UnsafeRawPointer(block + 64)) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    // MARK: - Private

    /// Processes one 64-byte block: 80 rounds unrolled, the schedule in 16 locals (generated code).
    @inline(__always)
    private static func compress(_ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawPointer) {
        var w0 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        var w1 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        var w2 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        var w3 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        var w4 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        var w5 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
        var w6 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        var w7 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
        var w8 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        var w9 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
        var w10 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
        var w11 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
        var w12 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
        var w13 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        var w14 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
        var w15 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
        var a = h.0, b = h.1, c = h.2, d = h.3, e = h.4
        e = rotl5(a) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w0; b = rotl30(b)
        d = rotl5(e) &+ ((a & b) | (~a & c)) &+ d &+ 0x5A82_7999 &+ w1; a = rotl30(a)
        c = rotl5(d) &+ ((e & a) | (~e & b)) &+ c &+ 0x5A82_7999 &+ w2; e = rotl30(e)
        b = rotl5(c) &+ ((d & e) | (~d & a)) &+ b &+ 0x5A82_7999 &+ w3; d = rotl30(d)
        a = rotl5(b) &+ ((c & d) | (~c & e)) &+ a &+ 0x5A82_7999 &+ w4; c = rotl30(c)
        e = rotl5(a) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w5; b = rotl30(b)
        d = rotl5(e) &+ ((a & b) | (~a & c)) &+ d &+ 0x5A82_7999 &+ w6; a = rotl30(a)
        c = rotl5(d) &+ ((e & a) | (~e & b)) &+ c &+ 0x5A82_7999 &+ w7; e = rotl30(e)
        b = rotl5(c) &+ ((d & e) | (~d & a)) &+ b &+ 0x5A82_7999 &+ w8; d = rotl30(d)
        a = rotl5(b) &+ ((c & d) | (~c & e)) &+ a &+ 0x5A82_7999 &+ w9; c = rotl30(c)
        e = rotl5(a) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w10; b = rotl30(b)
        d = rotl5(e) &+ ((a & b) | (~a & c)) &+ d &+ 0x5A82_7999 &+ w11; a = rotl30(a)
        c = rotl5(d) &+ ((e & a) | (~e & b)) &+ c &+ 0x5A82_7999 &+ w12; e = rotl30(e)
        b = rotl5(c) &+ ((d & e) | (~d & a)) &+ b &+ 0x5A82_7999 &+ w13; d = rotl30(d)
        a = rotl5(b) &+ ((c & d) | (~c & e)) &+ a &+ 0x5A82_7999 &+ w14; c = rotl30(c)
        e = rotl5(a) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w15; b = rotl30(b)
        w0 = rotl1(w13 ^ w8 ^ w2 ^ w0)
        d = rotl5(e) &+ ((a & b) | (~a & c)) &+ d &+ 0x5A82_7999 &+ w0; a = rotl30(a)
        w1 = rotl1(w14 ^ w9 ^ w3 ^ w1)
        c = rotl5(d) &+ ((e & a) | (~e & b)) &+ c &+ 0x5A82_7999 &+ w1; e = rotl30(e)
        w2 = rotl1(w15 ^ w10 ^ w4 ^ w2)
        b = rotl5(c) &+ ((d & e) | (~d & a)) &+ b &+ 0x5A82_7999 &+ w2; d = rotl30(d)
        w3 = rotl1(w0 ^ w11 ^ w5 ^ w3)
        a = rotl5(b) &+ ((c & d) | (~c & e)) &+ a &+ 0x5A82_7999 &+ w3; c = rotl30(c)
        w4 = rotl1(w1 ^ w12 ^ w6 ^ w4)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w4; b = rotl30(b)
        w5 = rotl1(w2 ^ w13 ^ w7 ^ w5)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0x6ED9_EBA1 &+ w5; a = rotl30(a)
        w6 = rotl1(w3 ^ w14 ^ w8 ^ w6)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0x6ED9_EBA1 &+ w6; e = rotl30(e)
        w7 = rotl1(w4 ^ w15 ^ w9 ^ w7)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0x6ED9_EBA1 &+ w7; d = rotl30(d)
        w8 = rotl1(w5 ^ w0 ^ w10 ^ w8)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0x6ED9_EBA1 &+ w8; c = rotl30(c)
        w9 = rotl1(w6 ^ w1 ^ w11 ^ w9)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w9; b = rotl30(b)
        w10 = rotl1(w7 ^ w2 ^ w12 ^ w10)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0x6ED9_EBA1 &+ w10; a = rotl30(a)
        w11 = rotl1(w8 ^ w3 ^ w13 ^ w11)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0x6ED9_EBA1 &+ w11; e = rotl30(e)
        w12 = rotl1(w9 ^ w4 ^ w14 ^ w12)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0x6ED9_EBA1 &+ w12; d = rotl30(d)
        w13 = rotl1(w10 ^ w5 ^ w15 ^ w13)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0x6ED9_EBA1 &+ w13; c = rotl30(c)
        w14 = rotl1(w11 ^ w6 ^ w0 ^ w14)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w14; b = rotl30(b)
        w15 = rotl1(w12 ^ w7 ^ w1 ^ w15)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0x6ED9_EBA1 &+ w15; a = rotl30(a)
        w0 = rotl1(w13 ^ w8 ^ w2 ^ w0)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0x6ED9_EBA1 &+ w0; e = rotl30(e)
        w1 = rotl1(w14 ^ w9 ^ w3 ^ w1)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0x6ED9_EBA1 &+ w1; d = rotl30(d)
        w2 = rotl1(w15 ^ w10 ^ w4 ^ w2)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0x6ED9_EBA1 &+ w2; c = rotl30(c)
        w3 = rotl1(w0 ^ w11 ^ w5 ^ w3)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w3; b = rotl30(b)
        w4 = rotl1(w1 ^ w12 ^ w6 ^ w4)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0x6ED9_EBA1 &+ w4; a = rotl30(a)
        w5 = rotl1(w2 ^ w13 ^ w7 ^ w5)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0x6ED9_EBA1 &+ w5; e = rotl30(e)
        w6 = rotl1(w3 ^ w14 ^ w8 ^ w6)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0x6ED9_EBA1 &+ w6; d = rotl30(d)
        w7 = rotl1(w4 ^ w15 ^ w9 ^ w7)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0x6ED9_EBA1 &+ w7; c = rotl30(c)
        w8 = rotl1(w5 ^ w0 ^ w10 ^ w8)
        e = rotl5(a) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w8; b = rotl30(b)
        w9 = rotl1(w6 ^ w1 ^ w11 ^ w9)
        d = rotl5(e) &+ ((a & b) | (a & c) | (b & c)) &+ d &+ 0x8F1B_BCDC &+ w9; a = rotl30(a)
        w10 = rotl1(w7 ^ w2 ^ w12 ^ w10)
        c = rotl5(d) &+ ((e & a) | (e & b) | (a & b)) &+ c &+ 0x8F1B_BCDC &+ w10; e = rotl30(e)
        w11 = rotl1(w8 ^ w3 ^ w13 ^ w11)
        b = rotl5(c) &+ ((d & e) | (d & a) | (e & a)) &+ b &+ 0x8F1B_BCDC &+ w11; d = rotl30(d)
        w12 = rotl1(w9 ^ w4 ^ w14 ^ w12)
        a = rotl5(b) &+ ((c & d) | (c & e) | (d & e)) &+ a &+ 0x8F1B_BCDC &+ w12; c = rotl30(c)
        w13 = rotl1(w10 ^ w5 ^ w15 ^ w13)
        e = rotl5(a) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w13; b = rotl30(b)
        w14 = rotl1(w11 ^ w6 ^ w0 ^ w14)
        d = rotl5(e) &+ ((a & b) | (a & c) | (b & c)) &+ d &+ 0x8F1B_BCDC &+ w14; a = rotl30(a)
        w15 = rotl1(w12 ^ w7 ^ w1 ^ w15)
        c = rotl5(d) &+ ((e & a) | (e & b) | (a & b)) &+ c &+ 0x8F1B_BCDC &+ w15; e = rotl30(e)
        w0 = rotl1(w13 ^ w8 ^ w2 ^ w0)
        b = rotl5(c) &+ ((d & e) | (d & a) | (e & a)) &+ b &+ 0x8F1B_BCDC &+ w0; d = rotl30(d)
        w1 = rotl1(w14 ^ w9 ^ w3 ^ w1)
        a = rotl5(b) &+ ((c & d) | (c & e) | (d & e)) &+ a &+ 0x8F1B_BCDC &+ w1; c = rotl30(c)
        w2 = rotl1(w15 ^ w10 ^ w4 ^ w2)
        e = rotl5(a) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w2; b = rotl30(b)
        w3 = rotl1(w0 ^ w11 ^ w5 ^ w3)
        d = rotl5(e) &+ ((a & b) | (a & c) | (b & c)) &+ d &+ 0x8F1B_BCDC &+ w3; a = rotl30(a)
        w4 = rotl1(w1 ^ w12 ^ w6 ^ w4)
        c = rotl5(d) &+ ((e & a) | (e & b) | (a & b)) &+ c &+ 0x8F1B_BCDC &+ w4; e = rotl30(e)
        w5 = rotl1(w2 ^ w13 ^ w7 ^ w5)
        b = rotl5(c) &+ ((d & e) | (d & a) | (e & a)) &+ b &+ 0x8F1B_BCDC &+ w5; d = rotl30(d)
        w6 = rotl1(w3 ^ w14 ^ w8 ^ w6)
        a = rotl5(b) &+ ((c & d) | (c & e) | (d & e)) &+ a &+ 0x8F1B_BCDC &+ w6; c = rotl30(c)
        w7 = rotl1(w4 ^ w15 ^ w9 ^ w7)
        e = rotl5(a) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w7; b = rotl30(b)
        w8 = rotl1(w5 ^ w0 ^ w10 ^ w8)
        d = rotl5(e) &+ ((a & b) | (a & c) | (b & c)) &+ d &+ 0x8F1B_BCDC &+ w8; a = rotl30(a)
        w9 = rotl1(w6 ^ w1 ^ w11 ^ w9)
        c = rotl5(d) &+ ((e & a) | (e & b) | (a & b)) &+ c &+ 0x8F1B_BCDC &+ w9; e = rotl30(e)
        w10 = rotl1(w7 ^ w2 ^ w12 ^ w10)
        b = rotl5(c) &+ ((d & e) | (d & a) | (e & a)) &+ b &+ 0x8F1B_BCDC &+ w10; d = rotl30(d)
        w11 = rotl1(w8 ^ w3 ^ w13 ^ w11)
        a = rotl5(b) &+ ((c & d) | (c & e) | (d & e)) &+ a &+ 0x8F1B_BCDC &+ w11; c = rotl30(c)
        w12 = rotl1(w9 ^ w4 ^ w14 ^ w12)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w12; b = rotl30(b)
        w13 = rotl1(w10 ^ w5 ^ w15 ^ w13)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0xCA62_C1D6 &+ w13; a = rotl30(a)
        w14 = rotl1(w11 ^ w6 ^ w0 ^ w14)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0xCA62_C1D6 &+ w14; e = rotl30(e)
        w15 = rotl1(w12 ^ w7 ^ w1 ^ w15)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0xCA62_C1D6 &+ w15; d = rotl30(d)
        w0 = rotl1(w13 ^ w8 ^ w2 ^ w0)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0xCA62_C1D6 &+ w0; c = rotl30(c)
        w1 = rotl1(w14 ^ w9 ^ w3 ^ w1)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w1; b = rotl30(b)
        w2 = rotl1(w15 ^ w10 ^ w4 ^ w2)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0xCA62_C1D6 &+ w2; a = rotl30(a)
        w3 = rotl1(w0 ^ w11 ^ w5 ^ w3)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0xCA62_C1D6 &+ w3; e = rotl30(e)
        w4 = rotl1(w1 ^ w12 ^ w6 ^ w4)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0xCA62_C1D6 &+ w4; d = rotl30(d)
        w5 = rotl1(w2 ^ w13 ^ w7 ^ w5)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0xCA62_C1D6 &+ w5; c = rotl30(c)
        w6 = rotl1(w3 ^ w14 ^ w8 ^ w6)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w6; b = rotl30(b)
        w7 = rotl1(w4 ^ w15 ^ w9 ^ w7)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0xCA62_C1D6 &+ w7; a = rotl30(a)
        w8 = rotl1(w5 ^ w0 ^ w10 ^ w8)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0xCA62_C1D6 &+ w8; e = rotl30(e)
        w9 = rotl1(w6 ^ w1 ^ w11 ^ w9)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0xCA62_C1D6 &+ w9; d = rotl30(d)
        w10 = rotl1(w7 ^ w2 ^ w12 ^ w10)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0xCA62_C1D6 &+ w10; c = rotl30(c)
        w11 = rotl1(w8 ^ w3 ^ w13 ^ w11)
        e = rotl5(a) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w11; b = rotl30(b)
        w12 = rotl1(w9 ^ w4 ^ w14 ^ w12)
        d = rotl5(e) &+ (a ^ b ^ c) &+ d &+ 0xCA62_C1D6 &+ w12; a = rotl30(a)
        w13 = rotl1(w10 ^ w5 ^ w15 ^ w13)
        c = rotl5(d) &+ (e ^ a ^ b) &+ c &+ 0xCA62_C1D6 &+ w13; e = rotl30(e)
        w14 = rotl1(w11 ^ w6 ^ w0 ^ w14)
        b = rotl5(c) &+ (d ^ e ^ a) &+ b &+ 0xCA62_C1D6 &+ w14; d = rotl30(d)
        w15 = rotl1(w12 ^ w7 ^ w1 ^ w15)
        a = rotl5(b) &+ (c ^ d ^ e) &+ a &+ 0xCA62_C1D6 &+ w15; c = rotl30(c)
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }

    /// Rotations.
    @inline(__always) private static func rotl1(_ x: UInt32) -> UInt32 { x << 1 | x >> 31 }
    /// Rotate left by 5.
    @inline(__always) private static func rotl5(_ x: UInt32) -> UInt32 { x << 5 | x >> 27 }
    /// Rotate left by 30.
    @inline(__always) private static func rotl30(_ x: UInt32) -> UInt32 { x << 30 | x >> 2 }
}

