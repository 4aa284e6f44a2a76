import Testing

@testable import ASNMigrateKit

@Suite struct SHA1Tests {
    /// FIPS 180 / RFC 3174 vectors.
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
    ])
    func knownVectors(message: String, expected: String) {
        #expect(SHA1.hexDigest(Array(message.utf8)) == expected)
    }

    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA1.hexDigest(message) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func digestIsTwentyBytes() {
        #expect(SHA1.digest([1, 2, 3]).count == 20)
    }

    /// Feeding the message in uneven pieces, across block boundaries, gives the one-shot digest.
    @Test(arguments: [1, 3, 63, 64, 65, 200])
    func streamingMatchesOneShot(pieceSize: Int) {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA1()
        var offset = 0
        while offset < message.count {
            let next = min(offset + pieceSize, message.count)
            hasher.update(message[offset..<next])
            offset = next
        }
        #expect(hasher.finalize() == SHA1.digest(message))
    }

    /// Lengths around the padding boundary (55, 56, 64 bytes) exercise the one- and two-block tails.
    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(SHA1.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: length)) == expected)
    }
}
