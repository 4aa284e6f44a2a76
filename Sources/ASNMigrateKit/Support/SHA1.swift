import CCrypto

/// SHA-1 (FIPS 180-4) through libcrypto, which uses the CPU's SHA instructions where it has them: the UUIDv5 of
/// migrated records and the content digest of V2 records. One-shot over a sequence or raw bytes, or streaming.
///
/// It replaced two Swift implementations (a reference and an unrolled one); libcrypto's gives the same bytes (the
/// FIPS vectors and every golden file are unchanged) at several times the speed.
package struct SHA1: Sendable {
    /// The running libcrypto state.
    private var context = SHA_CTX()

    /// A fresh hasher.
    package init() {
        SHA1_Init(&context)
    }

    // MARK: - One-shot

    /// The 20-byte digest of `bytes`.
    package static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ buffer in digest(UnsafeRawBufferPointer(buffer)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { digest($0) }
    }

    /// The 20-byte digest of the bytes of `buffer`.
    package static func digest(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        // The low-level calls on a context of our own: libcrypto 3's one-shot `SHA1()` fetches and frees a digest
        // context on the heap at every call (four allocations a V2 record).
        var hasher = SHA1()
        hasher.update(buffer)
        return hasher.finalize()
    }

    /// `prefix64(digest(buffer))`, without an array.
    package static func prefix64(of buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = SHA1()
        hasher.update(buffer)
        var out: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &out) { raw -> UInt64 in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            hasher.finalize(into: base)
            return prefix64(UnsafeRawBufferPointer(rebasing: raw[0..<8]))
        }
    }

    /// The 20-byte digest of `count` bytes at `bytes`.
    package static func digest(_ bytes: UnsafeRawPointer, count: Int) -> [UInt8] {
        digest(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The digest as 40 lowercase hex digits.
    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hex(digest(bytes))
    }

    /// The first 8 bytes of a digest as a big-endian integer (fewer bytes: those there are): a content fingerprint.
    package static func prefix64(_ digest: some Sequence<UInt8>) -> UInt64 {
        digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A digest (or any bytes) as lowercase hex digits, two per byte.
    package static func hex(_ digest: some Sequence<UInt8>) -> String {
        ByteTables.hexString(digest)
    }

    // MARK: - Streaming

    /// Feeds more bytes.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ buffer in update(UnsafeRawBufferPointer(buffer)) }) == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Feeds the bytes of `buffer`.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        SHA1_Update(&context, base, buffer.count)
    }

    /// Feeds `count` bytes at `bytes`.
    package mutating func update(_ bytes: UnsafeRawPointer, count: Int) {
        guard count > 0 else { return }
        SHA1_Update(&context, bytes, count)
    }

    /// Writes the digest of everything fed to the 20 bytes at `out`, without an array; the hasher must not be used
    /// afterwards.
    package mutating func finalize(into out: UnsafeMutablePointer<UInt8>) {
        SHA1_Final(out, &context)
    }

    /// The digest of everything fed; the hasher must not be used afterwards.
    package mutating func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        SHA1_Final(&out, &context)
        return out
    }
}
