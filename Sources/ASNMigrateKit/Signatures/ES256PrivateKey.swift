import CCrypto

/// An EC P-256 private key from an App Store Connect `.p8` file (PKCS#8 PEM), signing ES256 JWTs through libcrypto.
///
/// Unlike `ES256SigningKey` (the simulator's deterministic test key), signatures use libcrypto's random nonces: this
/// is the key that authenticates real API requests. The key's bytes never leave this type; its description says
/// nothing about them.
///
/// `@unchecked Sendable`: the key is never modified after creation; each signature gets its own digest context, so
/// threads may sign at once.
package final class ES256PrivateKey: @unchecked Sendable, CustomStringConvertible {
    /// The key (`EVP_PKEY *`).
    private let key: OpaquePointer

    /// The key in `pem` (a PKCS#8 `-----BEGIN PRIVATE KEY-----` block, as App Store Connect's `.p8` holds); nil unless
    /// it is an EC key on P-256.
    package init?(pem: [UInt8]) {
        let parsed: OpaquePointer? = pem.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let parsed else { return nil }
        guard Self.isP256(parsed) else {
            EVP_PKEY_free(parsed)
            return nil
        }
        key = parsed
    }

    /// Takes ownership of an `EVP_PKEY`.
    private init(owning key: OpaquePointer) {
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A fresh random P-256 key (for tests and examples: never a key App Store Connect knows); nil if libcrypto fails.
    package static func generate() -> ES256PrivateKey? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &generated) == 1, let generated
        else { return nil }
        return ES256PrivateKey(owning: generated)
    }

    /// The key as a PKCS#8 PEM block, as a `.p8` file holds it (for tests writing a key file).
    package func pkcs8PEM() -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The matching public key, to verify what this key signs.
    package var publicKey: ES256PublicKey? {
        ES256PublicKey(envelope: key)
    }

    /// The JOSE ES256 signature of `message`: SHA-256, ECDSA P-256, r‖s as 64 bytes.
    package func signJOSE(_ message: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1, length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { return nil }
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)
        }
        guard let signature else { return nil }
        defer { ECDSA_SIG_free(signature) }
        return JOSESignature.bytes(of: signature)
    }

    /// Says what the key is, never its bytes.
    package var description: String { "ES256 private key (P-256)" }

    /// Whether `key` is an EC key on P-256.
    private static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, let ecKey = EVP_PKEY_get1_EC_KEY(key) else { return false }
        defer { EC_KEY_free(ecKey) }
        guard let group = EC_KEY_get0_group(ecKey) else { return false }
        return EC_GROUP_get_curve_name(group) == NID_X9_62_prime256v1
    }
}
