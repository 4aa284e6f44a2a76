import Testing

@testable import ASNMigrateKit

@Suite struct UUIDv5Tests {
    /// RFC 9562 appendix A.4 vector, and others checked against Python's `uuid.uuid5`.
    @Test(arguments: [
        ("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com", "2ed6657d-e927-568b-95e1-2665a8aea6a2"),
        ("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
        ("6ba7b811-9dad-11d1-80b4-00c04fd430c8", "https://example.com/é", "20ecd233-a9e7-5067-a96f-fd6600ca3fda")
    ])
    func publishedVectors(namespace: String, name: String, expected: String) throws {
        let namespaceBytes = try #require(UUIDv5.bytes(of: namespace))
        #expect(UUIDv5.make(namespace: namespaceBytes, name: Array(name.utf8)) == expected)
        #expect(UUIDv5.make(namespace: namespaceBytes, name: name) == expected)
    }

    @Test func namespaceConstantsMatchTheirText() {
        #expect(UUIDv5.format(UUIDv5.dnsNamespace) == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        #expect(UUIDv5.format(UUIDv5.urlNamespace) == "6ba7b811-9dad-11d1-80b4-00c04fd430c8")
    }

    @Test func versionAndVariantBitsAreSet() {
        let bytes = UUIDv5.makeBytes(namespace: UUIDv5.dnsNamespace, name: [0xFF, 0x00])
        #expect(bytes.count == 16)
        #expect(bytes[6] >> 4 == 5)
        #expect(bytes[8] >> 6 == 0b10)
    }

    @Test func parsingAcceptsUppercase() {
        #expect(UUIDv5.bytes(of: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8") == UUIDv5.dnsNamespace)
    }

    @Test(arguments: [
        "", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810x9dad-11d1-80b4-00c04fd430c8",
        "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "6ba7b8109dad11d180b400c04fd430c8"
    ])
    func parsingRejectsMalformedText(text: String) {
        #expect(UUIDv5.bytes(of: text) == nil)
    }
}
