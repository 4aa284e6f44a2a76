import ASNMigrateKit
import CCrypto

/// A test certificate authority shaped like Apple's App Store signing chain (root → intermediate → leaf, P-256, with
/// Apple's marker extensions on leaf and intermediate), built through libcrypto from a seed: the same seed and
/// validity give byte-identical certificates and signatures. `simulate --sign` signs with it and the tests make
/// their (good and broken) fixtures with it; `reconcile --verify-signatures --root-certificate` accepts its root.
package struct TestCertificateAuthority: Sendable {
    /// The self-signed root.
    package let root: Certificate
    /// The intermediate, issued by the root.
    package let intermediate: Certificate
    /// The signing leaf, issued by the intermediate.
    package let leaf: Certificate
    /// The root's key.
    package let rootKey: ES256SigningKey
    /// The intermediate's key.
    package let intermediateKey: ES256SigningKey
    /// The leaf's key, which signs payloads.
    package let leafKey: ES256SigningKey
    /// The base64url JWS header `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
    package let encodedHeader: String

    /// Builds the CA for `seed`, every certificate valid from `notBefore` to `notAfter` (epoch ms); `leafMarker` /
    /// `intermediateMarker` false leave out Apple's marker extensions (for negative tests).
    package init(
        seed: UInt64, notBefore: Int64, notAfter: Int64, leafMarker: Bool = true, intermediateMarker: Bool = true
    ) throws(ASNError) {
        rootKey = try Self.key(seed: seed, label: "root")
        intermediateKey = try Self.key(seed: seed, label: "intermediate")
        leafKey = try Self.key(seed: seed, label: "leaf")
        root = try Self.issue(
            subject: Self.rootName, serial: 1, key: rootKey, issuer: Self.rootName, issuerKey: rootKey,
            notBefore: notBefore, notAfter: notAfter, isCA: true, markerOID: nil)
        intermediate = try Self.issue(
            subject: Self.intermediateName, serial: 2, key: intermediateKey, issuer: Self.rootName, issuerKey: rootKey,
            notBefore: notBefore, notAfter: notAfter, isCA: true,
            markerOID: intermediateMarker ? JWSVerifier.intermediateMarkerOID : nil)
        leaf = try Self.issue(
            subject: Self.leafName, serial: 3, key: leafKey, issuer: Self.intermediateName, issuerKey: intermediateKey,
            notBefore: notBefore, notAfter: notAfter, isCA: false,
            markerOID: leafMarker ? JWSVerifier.leafMarkerOID : nil)
        encodedHeader = Self.encodedHeader(alg: "ES256", x5c: [leaf.der, intermediate.der, root.der])
    }

    // MARK: - Signing

    /// The compact JWS of `payload` (JSON bytes) under this CA's header, signed by the leaf.
    package func sign(_ payload: [UInt8]) throws(ASNError) -> String {
        try Self.sign(encodedHeader: encodedHeader, payload: payload, key: leafKey)
    }

    /// `encodedHeader.base64url(payload).signature`, signed with `key` over the first two parts.
    package static func sign(encodedHeader: String, payload: [UInt8], key: ES256SigningKey) throws(ASNError) -> String {
        let signingInput = encodedHeader + "." + Base64.encodeURL(payload)
        guard let signature = key.signJOSE(Array(signingInput.utf8)) else {
            throw ASNError(.outputFailed, "libcrypto could not sign a test payload")
        }
        return signingInput + "." + Base64.encodeURL(signature)
    }

    /// The base64url of the JWS header `{"alg":…,"x5c":[…]}` with the certificates in standard base64, as Apple writes it.
    package static func encodedHeader(alg: String, x5c: [[UInt8]]) -> String {
        var header = JSONObjectBuilder()
        header.add("alg", alg)
        header.add("x5c", json: .array(x5c.map { .string(Base64.encode($0)) }))
        return Base64.encodeURL(JSONWriter.bytes(.object(header.object)))
    }

    // MARK: - Certificates

    /// The common names of the three certificates.
    package static let rootName = "asn-migrate Test Root CA"
    /// The intermediate's common name.
    package static let intermediateName = "asn-migrate Test Intermediate CA"
    /// The leaf's common name.
    package static let leafName = "asn-migrate Test App Store Signing"

    /// A v3 certificate for `key`, named `subject`, issued by `issuer` and signed (deterministically) by `issuerKey`.
    package static func issue(
        subject: String, serial: Int, key: ES256SigningKey, issuer: String, issuerKey: ES256SigningKey,
        notBefore: Int64, notAfter: Int64, isCA: Bool, markerOID: String?
    ) throws(ASNError) -> Certificate {
        let failed = ASNError(.outputFailed, "libcrypto could not build the test certificate '\(subject)'")
        guard let x509 = X509_new() else { throw failed }
        defer { X509_free(x509) }
        guard X509_set_version(x509, 2) == 1, ASN1_INTEGER_set(X509_get_serialNumber(x509), serial) == 1,
            setName(subject, on: x509, subject: true), setName(issuer, on: x509, subject: false),
            ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore / 1000)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter / 1000)) != nil,
            X509_set_pubkey(x509, key.envelope) == 1,
            addExtension(nid: NID_basic_constraints, value: isCA ? "critical,CA:TRUE" : "critical,CA:FALSE", to: x509),
            addExtension(
                nid: NID_key_usage, value: isCA ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature", to: x509
            )
        else { throw failed }
        if let markerOID {
            guard addMarker(oid: markerOID, to: x509) else { throw failed }
        }
        // X509_sign fills in the algorithm fields (its own signature is random and is replaced just below).
        guard X509_sign(x509, issuerKey.envelope, EVP_sha256()) > 0 else { throw failed }
        let tbsLength = i2d_re_X509_tbs(x509, nil)
        guard tbsLength > 0 else { throw failed }
        var tbs = [UInt8](repeating: 0, count: Int(tbsLength))
        let written = tbs.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_re_X509_tbs(x509, &cursor)
        }
        guard written == tbsLength, let signature = issuerKey.signDER(digest: ES256SigningKey.sha256(tbs)) else {
            throw failed
        }
        let der = DER.sequence(tbs + ecdsaWithSHA256 + DER.bitString(signature))
        guard let certificate = Certificate(der: der) else { throw failed }
        return certificate
    }

    // MARK: - Private

    /// The key for `label` derived from `seed`.
    private static func key(seed: UInt64, label: String) throws(ASNError) -> ES256SigningKey {
        let bytes = Array("asn-migrate test CA \(label) \(seed)".utf8)
        guard let key = ES256SigningKey(seed: bytes) else {
            throw ASNError(.outputFailed, "libcrypto could not make the test CA's \(label) key")
        }
        return key
    }

    /// Sets a name with one common name as the certificate's subject or issuer.
    private static func setName(_ commonName: String, on x509: OpaquePointer, subject: Bool) -> Bool {
        guard let name = X509_NAME_new() else { return false }
        defer { X509_NAME_free(name) }
        guard X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, "asn-migrate tests", -1, -1, 0) == 1,
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
        else { return false }
        return (subject ? X509_set_subject_name(x509, name) : X509_set_issuer_name(x509, name)) == 1
    }

    /// Adds a standard extension given in OpenSSL's config syntax.
    private static func addExtension(nid: Int32, value: String, to x509: OpaquePointer) -> Bool {
        guard let ext = X509V3_EXT_conf_nid(nil, nil, nid, value) else { return false }
        defer { X509_EXTENSION_free(ext) }
        return X509_add_ext(x509, ext, -1) == 1
    }

    /// Adds Apple's marker extension `oid` with a DER NULL value, as Apple's certificates carry it.
    private static func addMarker(oid: String, to x509: OpaquePointer) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        guard let value = ASN1_OCTET_STRING_new() else { return false }
        defer { ASN1_OCTET_STRING_free(value) }
        let null: [UInt8] = [0x05, 0x00]
        guard ASN1_OCTET_STRING_set(value, null, 2) == 1, let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, value)
        else { return false }
        defer { X509_EXTENSION_free(ext) }
        return X509_add_ext(x509, ext, -1) == 1
    }

    /// The DER AlgorithmIdentifier of ecdsa-with-SHA256 (1.2.840.10045.4.3.2).
    private static let ecdsaWithSHA256: [UInt8] = [
        0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02
    ]
}

/// The two DER constructions the test CA assembles by hand.
private enum DER {
    /// A SEQUENCE of `content`.
    static func sequence(_ content: [UInt8]) -> [UInt8] {
        [0x30] + length(content.count) + content
    }

    /// A BIT STRING of whole bytes.
    static func bitString(_ content: [UInt8]) -> [UInt8] {
        [0x03] + length(content.count + 1) + [0x00] + content
    }

    /// A DER length.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
