/// Name-based UUIDs, version 5 (RFC 9562 §5.5): SHA-1 of namespace and name, with version and variant bits set.
package enum UUIDv5 {
    // MARK: - Namespaces

    /// The RFC 9562 DNS namespace, 6ba7b810-9dad-11d1-80b4-00c04fd430c8.
    package static let dnsNamespace: [UInt8] = [
        0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8
    ]
    /// The RFC 9562 URL namespace, 6ba7b811-9dad-11d1-80b4-00c04fd430c8.
    package static let urlNamespace: [UInt8] = [
        0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8
    ]

    // MARK: - Making

    /// The version-5 UUID of `name` in `namespace` (16 bytes), as lowercase 8-4-4-4-12 text.
    package static func make(namespace: [UInt8], name: [UInt8]) -> String {
        format(makeBytes(namespace: namespace, name: name))
    }

    /// The version-5 UUID of the UTF-8 bytes of `name` in `namespace`, as lowercase text.
    package static func make(namespace: [UInt8], name: String) -> String {
        make(namespace: namespace, name: Array(name.utf8))
    }

    /// The 16 bytes of the version-5 UUID of `name` in `namespace`; the namespace must be 16 bytes.
    package static func makeBytes(namespace: [UInt8], name: [UInt8]) -> [UInt8] {
        precondition(namespace.count == 16, "a UUID namespace is 16 bytes")
        var hasher = SHA1()
        hasher.update(namespace)
        hasher.update(name)
        var bytes = Array(hasher.finalize().prefix(16))
        bytes.withUnsafeMutableBufferPointer { if let p = $0.baseAddress { markVersion5(p) } }
        return bytes
    }

    /// Sets the version (5) and variant bits in the first 16 bytes of a SHA-1 digest at `bytes`, which are then the
    /// UUID's bytes.
    package static func markVersion5(_ bytes: UnsafeMutablePointer<UInt8>) {
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
    }

    // MARK: - Text

    /// The 16 bytes of a UUID written as 8-4-4-4-12 hex digits (either case), or nil if it is not one.
    package static func bytes(of text: String) -> [UInt8]? {
        ByteTables.uuidBytes(text)
    }

    /// Lowercase 8-4-4-4-12 text of 16 UUID bytes.
    package static func format(_ bytes: [UInt8]) -> String {
        ByteTables.uuidText(bytes)
    }
}
