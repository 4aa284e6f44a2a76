import Testing

@testable import ASNMigrateKit

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors, standard alphabet with padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        let unpadded = String(encoded.prefix { $0 != "=" })
        #expect(Base64.encodeURL(Array(plain.utf8)) == unpadded)
        #expect(Base64.decode(unpadded) == Array(plain.utf8))
    }

    @Test func urlAlphabetUsesDashAndUnderscore() {
        #expect(Base64.encodeURL([0xFB, 0xFF, 0xFE]) == "-__-")
        #expect(Base64.encode([0xFB, 0xFF, 0xFE]) == "+//+")
        #expect(Base64.decode("-__-") == [0xFB, 0xFF, 0xFE])
        #expect(Base64.decode("+//+") == [0xFB, 0xFF, 0xFE])
    }

    @Test func decodesBytesAndSubstrings() {
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln"
        let parts = jws.split(separator: ".")
        #expect(Base64.decode(parts[0]) == Array(#"{"alg":"ES256"}"#.utf8))
        #expect(Base64.decode(Array("eyJhIjoxfQ".utf8)) == Array(#"{"a":1}"#.utf8))
    }

    @Test func roundTripsEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64.decode(Base64.encodeURL(bytes)) == bytes)
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
    }

    /// Invalid characters, impossible lengths and misplaced padding are all nil.
    @Test(arguments: [
        "A", "AAAAA", "Zg=", "Zg===", "Z===", "=", "==", "====", "Zm9v=", "Zm=9", "Zm9v YmFy",
        "Zm9v\n", "Zm9*", "Zm9vYmFy!", "Zg==Zg==", "é"
    ])
    func rejectsBadInput(encoded: String) {
        #expect(Base64.decode(encoded) == nil)
    }
}

/// The quartet decoder against a plain bit-by-bit reference, on random valid and damaged inputs.
@Suite struct Base64DifferentialTests {
    /// The reference: six bits per character into an accumulator, a byte out whenever eight are there.
    static func reference(_ encoded: [UInt8]) -> [UInt8]? {
        var count = encoded.count
        var padding = 0
        while count > 0 && padding < 2 && encoded[count - 1] == UInt8(ascii: "=") {
            count -= 1
            padding += 1
        }
        if padding > 0 && (encoded.count % 4 != 0 || (count + padding) % 4 != 0) { return nil }
        if count % 4 == 1 { return nil }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in encoded[..<count] {
            let value: Int
            if byte == UInt8(ascii: "-") {
                value = 62
            } else if byte == UInt8(ascii: "_") {
                value = 63
            } else {
                guard let found = alphabet.firstIndex(of: byte) else { return nil }
                value = found
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    @Test func agreesWithTheReferenceOnRandomInput() {
        var random = SplitMix64(seed: 12)
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8)
        var damaged = 0
        for round in 0..<3_000 {
            let length = Int(random.next() % 40)
            var encoded = (0..<length).map { _ in characters[Int(random.next() % UInt64(characters.count))] }
            if round % 3 == 0, !encoded.isEmpty {
                encoded[Int(random.next() % UInt64(encoded.count))] =
                    [UInt8(ascii: "="), UInt8(ascii: "."), 0x20, 0xC3, 0][Int(random.next() % 5)]
            }
            if round % 5 == 0 { encoded += Array(repeating: UInt8(ascii: "="), count: Int(random.next() % 3)) }
            let expected = Self.reference(encoded)
            if expected == nil { damaged += 1 }
            #expect(Base64.decode(encoded) == expected, "\(String(decoding: encoded, as: UTF8.self))")
        }
        #expect(damaged > 300 && damaged < 2_700, "both valid and invalid inputs are exercised")
    }
}
