import CCrypto

/// One X.509 certificate parsed by libcrypto, owned for its lifetime, with the few questions the verifier asks of it.
///
/// `@unchecked Sendable`: the `X509` is never modified after parsing, and libcrypto 3 allows concurrent read-only use
/// of one `X509` (its lazily cached extension data is computed under libcrypto's own lock).
package final class Certificate: @unchecked Sendable {
    /// The certificate's DER bytes, as given.
    package let der: [UInt8]
    /// The parsed certificate (`X509 *`).
    let x509: OpaquePointer

    /// Parses `der`; nil when it is not one whole DER certificate.
    package init?(der: [UInt8]) {
        guard !der.isEmpty else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            // Trailing bytes mean the input was not exactly one certificate.
            guard let end = cursor, let base = buffer.baseAddress, end == base + buffer.count else {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else { return nil }
        self.der = der
        self.x509 = parsed
    }

    deinit {
        X509_free(x509)
    }

    // MARK: - Questions

    /// Whether `issuer` issued this certificate (names, key identifiers, key usage) and its signature verifies with
    /// `issuer`'s public key.
    package func isIssued(by issuer: Certificate) -> Bool {
        guard X509_check_issued(issuer.x509, x509) == X509_V_OK else { return false }
        guard let key = X509_get0_pubkey(issuer.x509) else { return false }
        return X509_verify(x509, key) == 1
    }

    /// Whether this certificate may issue others (basic constraints CA, or a v1 self-signed root).
    package var isCA: Bool {
        X509_check_ca(x509) != 0
    }

    /// Whether the certificate carries an extension with the dotted `oid`.
    package func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(x509, object, -1) >= 0
    }

    /// The validity period as epoch milliseconds (notBefore, notAfter), nil when a time cannot be read.
    package var validity: (notBefore: Int64, notAfter: Int64)? {
        guard let start = Self.epochMilliseconds(X509_get0_notBefore(x509)),
            let end = Self.epochMilliseconds(X509_get0_notAfter(x509))
        else { return nil }
        return (start, end)
    }

    /// The subject's common name, for messages.
    package var commonName: String {
        guard let name = X509_get_subject_name(x509) else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        let count = X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count))
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Private

    /// An `ASN1_TIME` as epoch milliseconds, through `ASN1_TIME_diff` from the epoch (no local time zone involved).
    private static func epochMilliseconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time, let epoch = ASN1_TIME_set(nil, 0) else { return nil }
        defer { ASN1_STRING_free(epoch) }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, epoch, time) == 1 else { return nil }
        return (Int64(days) * 86_400 + Int64(seconds)) * 1000
    }
}
