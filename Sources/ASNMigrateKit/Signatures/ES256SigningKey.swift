import CCrypto

/// An EC P-256 private key derived from a seed, making deterministic ES256 signatures (for the simulator's test CA).
///
/// libcrypto 3.0 has no deterministic ECDSA (RFC 6979 came in 3.2), so the nonce k is derived here from the private
/// key, the digest and a counter with SHA-256, and handed to `ECDSA_do_sign_ex` with k⁻¹ and r precomputed: the same
/// key and message always give the same signature, and different messages get unrelated nonces. Not for production keys.
///
/// `@unchecked Sendable`: the key is never modified after creation; signing only reads it (each call has its own
/// big-number context), so threads may sign with one key at once.
package final class ES256SigningKey: @unchecked Sendable {
    /// The key pair (`EC_KEY *`).
    let key: OpaquePointer
    /// The same key as an `EVP_PKEY *`, for certificate building.
    package let envelope: OpaquePointer
    /// The private scalar, 32 bytes big-endian, for nonce derivation.
    private let secret: [UInt8]

    /// The key whose private scalar is SHA-256 of `seed` reduced into [1, n-1]; nil if libcrypto fails.
    package init?(seed: [UInt8]) {
        guard let key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1) else { return nil }
        guard let group = EC_KEY_get0_group(key), let context = BN_CTX_new() else {
            EC_KEY_free(key)
            return nil
        }
        defer { BN_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(seed, seed.count, &digest)
        guard let order = EC_GROUP_get0_order(group), let scalar = Self.scalar(digest, order: order, context: context)
        else {
            EC_KEY_free(key)
            return nil
        }
        defer { BN_clear_free(scalar) }
        guard let point = EC_POINT_new(group) else {
            EC_KEY_free(key)
            return nil
        }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, scalar, nil, nil, context) == 1, EC_KEY_set_private_key(key, scalar) == 1,
            EC_KEY_set_public_key(key, point) == 1, let envelope = EVP_PKEY_new()
        else {
            EC_KEY_free(key)
            return nil
        }
        guard EVP_PKEY_set1_EC_KEY(envelope, key) == 1 else {
            EVP_PKEY_free(envelope)
            EC_KEY_free(key)
            return nil
        }
        var secret = [UInt8](repeating: 0, count: 32)
        _ = BN_bn2binpad(scalar, &secret, 32)
        self.key = key
        self.envelope = envelope
        self.secret = secret
    }

    deinit {
        EVP_PKEY_free(envelope)
        EC_KEY_free(key)
    }

    // MARK: - Signing

    /// The JOSE ES256 signature of `message`: r‖s, 64 bytes.
    package func signJOSE(_ message: some Collection<UInt8>) -> [UInt8]? {
        guard let signature = sign(digest: Self.sha256(message)) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        return JOSESignature.bytes(of: signature)
    }

    /// The DER `ECDSA-Sig-Value` of a SHA-256 `digest`, as X.509 certificates hold it.
    package func signDER(digest: [UInt8]) -> [UInt8]? {
        guard let signature = sign(digest: digest) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? out : nil
    }

    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let array = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(array, array.count, &digest)
        return digest
    }

    // MARK: - Private

    /// An `ECDSA_SIG` over `digest` with the derived nonce; the caller frees it.
    private func sign(digest: [UInt8]) -> OpaquePointer? {
        guard let group = EC_KEY_get0_group(key), let order = EC_GROUP_get0_order(group), let context = BN_CTX_new()
        else { return nil }
        defer { BN_CTX_free(context) }
        for counter in UInt8(0)..<UInt8(16) {
            let k = Self.scalar(Self.sha256(secret + digest + [counter]), order: order, context: context)
            guard let k else { continue }
            defer { BN_clear_free(k) }
            guard let point = EC_POINT_new(group) else { return nil }
            defer { EC_POINT_free(point) }
            guard let x = BN_new(), let r = BN_new() else { return nil }
            defer {
                BN_free(x)
                BN_free(r)
            }
            guard EC_POINT_mul(group, point, k, nil, nil, context) == 1,
                EC_POINT_get_affine_coordinates(group, point, x, nil, context) == 1,
                BN_nnmod(r, x, order, context) == 1, BN_is_zero(r) == 0,
                let kInverse = BN_mod_inverse(nil, k, order, context)
            else { continue }
            defer { BN_clear_free(kInverse) }
            if let signature = ECDSA_do_sign_ex(digest, Int32(digest.count), kInverse, r, key) { return signature }
        }
        return nil
    }

    /// `bytes` as a big number reduced into [1, n-1]; the caller frees it.
    private static func scalar(_ bytes: [UInt8], order: OpaquePointer, context: OpaquePointer) -> OpaquePointer? {
        guard let value = BN_bin2bn(bytes, Int32(bytes.count), nil), let range = BN_dup(order) else { return nil }
        defer { BN_free(range) }
        guard BN_sub_word(range, 1) == 1, BN_nnmod(value, value, range, context) == 1, BN_add_word(value, 1) == 1 else {
            BN_free(value)
            return nil
        }
        return value
    }
}
