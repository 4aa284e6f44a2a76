import Testing
@testable import ASNMigrateKit

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors, standard alphabet with padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
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
        "Zm9v\n", "Zm9*", "Zm9vYmFy!", "Zg==Zg==", "é",
    ])
    func rejectsBadInput(encoded: String) {
        #expect(Base64.decode(encoded) == nil)
    }
}
