import CCrypto

/// JOSE's form of an ES256 signature (RFC 7518 §3.4): r‖s, each left-padded to 32 bytes, from libcrypto's `ECDSA_SIG`.
enum JOSESignature {
    /// The 64 bytes r‖s of `signature` (not freed here), or nil when a half does not fit 32 bytes.
    static func bytes(of signature: OpaquePointer) -> [UInt8]? {
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        return ok ? out : nil
    }
}
