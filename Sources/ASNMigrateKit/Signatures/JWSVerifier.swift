import Foundation
import Synchronization

/// Verifies App Store signed payloads (compact JWS) as Apple's `SignedDataVerifier` does, through libcrypto.
///
/// For each JWS: the header is JSON with `alg` `ES256` and an `x5c` of exactly three certificates (leaf,
/// intermediate, root); the root is byte-for-byte one of `roots`; the leaf is issued and signed by the intermediate
/// and the intermediate (a CA) by the root; the leaf carries `1.2.840.113635.100.6.11.1` and the intermediate
/// `1.2.840.113635.100.6.2.1`; the leaf key is P-256; all three certificates are valid at the payload's
/// `signedDate`; and the ECDSA signature (JOSE r‖s) over `header.payload` verifies with the leaf key.
///
/// Each distinct header (and so each distinct chain) is checked once and cached, success or failure; the validity
/// time and the signature are still checked per JWS. Safe to call from any number of threads.
package final class JWSVerifier: Sendable {
    /// The accepted roots' DER bytes.
    package let roots: [[UInt8]]
    /// The OID Apple puts on the leaf certificate of App Store signing chains.
    package static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The OID Apple puts on the intermediate certificate (Apple Worldwide Developer Relations).
    package static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// The most distinct headers remembered; beyond it chains are still checked, just not cached.
    package static let cacheLimit = 4096

    /// The verified chains (and failed ones) by header segment.
    private let cache = Mutex<[String: ChainOutcome]>([:])

    /// A verifier accepting chains that end in one of `roots` (DER); by default only Apple Root CA - G3.
    package init(roots: [[UInt8]] = [AppleRootCertificate.der]) {
        self.roots = roots
    }

    // MARK: - Verifying

    /// Verifies the compact JWS `jws`, judging certificate validity at `signedDate` (epoch ms). Throws a `.signature`
    /// error whose message starts with the failed `SignatureCheck`; `what` names the JWS and `location` locates it.
    package func verify(_ jws: String, signedDate: Int64?, what: String, at location: SourceLocation?) throws(ASNError)
    {
        var text = jws
        let failure: (SignatureCheck, String)? = text.withUTF8 { utf8 in
            verify(UnsafeRawBufferPointer(utf8), signedDate: signedDate)
        }
        if let (check, detail) = failure {
            throw check.failure("\(what): \(detail)", at: location)
        }
    }

    /// Verifies a compact JWS given as UTF-8 bytes; nil when it verifies, else the failed check and what was wrong.
    package func verify(_ jws: UnsafeRawBufferPointer, signedDate: Int64?) -> (SignatureCheck, String)? {
        guard let firstDot = Self.index(of: dot, in: jws, from: 0),
            let secondDot = Self.index(of: dot, in: jws, from: firstDot + 1),
            Self.index(of: dot, in: jws, from: secondDot + 1) == nil
        else {
            return (.header, "not a compact JWS of three dot-separated parts")
        }
        let header = String(decoding: UnsafeRawBufferPointer(rebasing: jws[0..<firstDot]), as: UTF8.self)
        let chain: VerifiedChain
        switch chainOutcome(header: header) {
        case .invalid(let check, let detail): return (check, detail)
        case .valid(let valid): chain = valid
        }
        guard let signedDate else {
            return (
                .signedDate,
                "the payload has no signedDate to check the certificates' validity at; keep the payload as Apple signed it"
            )
        }
        guard signedDate >= chain.notBefore && signedDate <= chain.notAfter else {
            return (
                .validity,
                "the certificate chain is valid from \(Timestamp.iso8601(ms: chain.notBefore)) to \(Timestamp.iso8601(ms: chain.notAfter)), not at signedDate \(Timestamp.iso8601(ms: signedDate))"
            )
        }
        guard let signature = Base64.decode(UnsafeRawBufferPointer(rebasing: jws[(secondDot + 1)...])) else {
            return (.signature, "the signature part is not base64url")
        }
        guard signature.count == 64 else {
            return (.signature, "the ES256 signature is \(signature.count) bytes, not 64 (r‖s); it was cut or altered")
        }
        let valid = signature.withUnsafeBytes {
            chain.key.verify(signature: $0, message: UnsafeRawBufferPointer(rebasing: jws[0..<secondDot]))
        }
        return valid
            ? nil
            : (
                .signature,
                "the ES256 signature over header.payload does not verify with the leaf certificate's key; the payload or the signature was altered"
            )
    }

    /// The index of the first `byte` in `buffer` at or after `start`, found with `memchr` (the generic
    /// `firstIndex(of:)` showed in profiles).
    private static func index(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = buffer.baseAddress, start < buffer.count,
            let found = memchr(base + start, Int32(byte), buffer.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    // MARK: - Chains

    /// What checking one header gave; cached.
    private enum ChainOutcome: Sendable {
        /// The chain passed every time-independent check.
        case valid(VerifiedChain)
        /// The failed check and what was wrong.
        case invalid(SignatureCheck, String)
    }

    /// A chain that passed the time-independent checks: the leaf key and the span when all three certificates are valid.
    private struct VerifiedChain: Sendable {
        /// The leaf's public key.
        let key: ES256PublicKey
        /// The latest notBefore of the three certificates (epoch ms).
        let notBefore: Int64
        /// The earliest notAfter of the three certificates (epoch ms).
        let notAfter: Int64
    }

    /// The cached outcome for `header`, checking it first when it is new.
    private func chainOutcome(header: String) -> ChainOutcome {
        if let known = cache.withLock({ $0[header] }) { return known }
        let outcome = check(header: header)
        cache.withLock { cache in
            if cache.count < Self.cacheLimit { cache[header] = outcome }
        }
        return outcome
    }

    /// Checks the header and its chain, everything except time and the payload's signature.
    private func check(header: String) -> ChainOutcome {
        guard let headerBytes = Base64.decode(header), case .object(let object)? = try? JSONParser().parse(headerBytes)
        else {
            return .invalid(
                .header, "the JWS header is not base64url JSON; keep the signed value exactly as Apple sent it")
        }
        guard case .string(let alg)? = object["alg"] else {
            return .invalid(.alg, "the JWS header has no alg; App Store payloads are signed with ES256")
        }
        guard alg == "ES256" else {
            return .invalid(
                .alg, "the JWS header's alg is \(alg), not ES256; App Store payloads are only signed with ES256")
        }
        guard case .array(let x5c)? = object["x5c"] else {
            return .invalid(.x5c, "the JWS header has no x5c certificate chain")
        }
        guard x5c.count == 3 else {
            return .invalid(
                .x5c,
                "x5c holds \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"), not 3 (leaf, intermediate, root); the chain was cut or is not Apple's"
            )
        }
        var certificates: [Certificate] = []
        for (index, element) in x5c.enumerated() {
            guard case .string(let encoded) = element, let der = Base64.decode(encoded),
                let certificate = Certificate(der: der)
            else {
                return .invalid(.x5c, "x5c[\(index)] is not a base64 DER certificate; the chain was cut or altered")
            }
            certificates.append(certificate)
        }
        let leaf = certificates[0]
        let intermediate = certificates[1]
        let root = certificates[2]
        guard roots.contains(root.der) else {
            return .invalid(
                .root,
                "the chain ends in '\(root.commonName)', which is not an accepted root (Apple Root CA - G3, or one given with --root-certificate)"
            )
        }
        if leaf.isIssued(by: leaf) {
            return .invalid(
                .chain, "the leaf certificate '\(leaf.commonName)' is self-signed, not issued by the intermediate")
        }
        guard intermediate.isCA, intermediate.isIssued(by: root) else {
            return .invalid(
                .chain,
                "x5c[1] '\(intermediate.commonName)' is not a CA certificate issued and signed by the root; the chain is out of order or altered"
            )
        }
        guard leaf.isIssued(by: intermediate) else {
            return .invalid(
                .chain,
                "x5c[0] '\(leaf.commonName)' is not issued and signed by x5c[1] '\(intermediate.commonName)'; the chain is out of order or altered"
            )
        }
        guard leaf.hasExtension(oid: Self.leafMarkerOID) else {
            return .invalid(
                .leafMarker,
                "the leaf certificate lacks Apple's marker extension \(Self.leafMarkerOID); it is not an App Store signing certificate"
            )
        }
        guard intermediate.hasExtension(oid: Self.intermediateMarkerOID) else {
            return .invalid(
                .intermediateMarker,
                "the intermediate certificate lacks Apple's marker extension \(Self.intermediateMarkerOID)")
        }
        guard let key = ES256PublicKey(certificate: leaf) else {
            return .invalid(
                .key, "the leaf certificate's key is not an EC P-256 key, so it cannot make ES256 signatures")
        }
        guard let leafTimes = leaf.validity, let intermediateTimes = intermediate.validity,
            let rootTimes = root.validity
        else {
            return .invalid(.validity, "a certificate of the chain has an unreadable validity period")
        }
        return .valid(
            VerifiedChain(
                key: key,
                notBefore: max(leafTimes.notBefore, intermediateTimes.notBefore, rootTimes.notBefore),
                notAfter: min(leafTimes.notAfter, intermediateTimes.notAfter, rootTimes.notAfter)))
    }
}

// MARK: - Private constants

/// The JWS part separator.
private let dot = UInt8(ascii: ".")
