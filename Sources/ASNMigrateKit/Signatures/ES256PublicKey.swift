import CCrypto

/// An EC P-256 public key held as libcrypto's `EC_KEY`, verifying ES256 (JOSE raw r‖s) signatures.
///
/// `@unchecked Sendable`: the key is never modified after creation and `ECDSA_do_verify` only reads it (each call
/// allocates its own big-number context), so any number of threads may verify with one key at once.
package final class ES256PublicKey: @unchecked Sendable {
    /// The key (`EC_KEY *`).
    private let key: OpaquePointer

    /// The leaf certificate's key; nil unless it is an EC key on P-256.
    package init?(certificate: Certificate) {
        guard let publicKey = X509_get0_pubkey(certificate.x509), EVP_PKEY_get_base_id(publicKey) == EVP_PKEY_EC,
            let ecKey = EVP_PKEY_get1_EC_KEY(publicKey)
        else { return nil }
        guard let group = EC_KEY_get0_group(ecKey), EC_GROUP_get_curve_name(group) == NID_X9_62_prime256v1 else {
            EC_KEY_free(ecKey)
            return nil
        }
        key = ecKey
    }

    /// The public half of an EC P-256 `EVP_PKEY` (an `ES256PrivateKey`'s); nil unless it is one.
    init?(envelope: OpaquePointer) {
        guard EVP_PKEY_get_base_id(envelope) == EVP_PKEY_EC, let ecKey = EVP_PKEY_get1_EC_KEY(envelope) else {
            return nil
        }
        guard let group = EC_KEY_get0_group(ecKey), EC_GROUP_get_curve_name(group) == NID_X9_62_prime256v1 else {
            EC_KEY_free(ecKey)
            return nil
        }
        key = ecKey
    }

    deinit {
        EC_KEY_free(key)
    }

    /// Whether `signature` (64 bytes: r and s, 32 bytes each, big-endian, as JOSE writes them) signs SHA-256 of `message`.
    package func verify(signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == 64, let signatureBase = signature.baseAddress else { return false }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        guard SHA256(message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, &digest) != nil else {
            return false
        }
        guard let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        let bytes = signatureBase.assumingMemoryBound(to: UInt8.self)
        guard let r = BN_bin2bn(bytes, 32, nil) else { return false }
        guard let s = BN_bin2bn(bytes + 32, 32, nil) else {
            BN_free(r)
            return false
        }
        // ECDSA_SIG_set0 takes ownership of r and s on success.
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        return ECDSA_do_verify(digest, Int32(digest.count), sig, key) == 1
    }
}
