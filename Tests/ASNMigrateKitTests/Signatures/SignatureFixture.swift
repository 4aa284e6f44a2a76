import ASNSimulation
import Foundation

@testable import ASNMigrateKit

/// Signed fixtures made in the test with the simulator's test CA (never corpus copies): good and broken JWS.
enum SignatureFixture {
    /// The instant the fixtures are signed at: 2023-11-14T22:13:20Z.
    static let signedDate: Int64 = 1_700_000_000_000
    /// A validity period around `signedDate` (a year before to a year after).
    static let validity = (notBefore: signedDate - 365 * 86_400_000, notAfter: signedDate + 365 * 86_400_000)

    /// A test CA valid around `signedDate`.
    static func authority(
        seed: UInt64 = 7, leafMarker: Bool = true, intermediateMarker: Bool = true,
        notBefore: Int64 = validity.notBefore, notAfter: Int64 = validity.notAfter
    ) throws -> TestCertificateAuthority {
        try TestCertificateAuthority(
            seed: seed, notBefore: notBefore, notAfter: notAfter, leafMarker: leafMarker,
            intermediateMarker: intermediateMarker)
    }

    /// A verifier accepting only `authority`'s root.
    static func verifier(for authority: TestCertificateAuthority) -> JWSVerifier {
        JWSVerifier(roots: [authority.root.der])
    }

    /// A small transaction payload signed at `date`.
    static func transaction(
        bundleId: String = "com.example.app", environment: String = "Sandbox", date: Int64 = signedDate
    ) -> [UInt8] {
        Array(
            #"{"originalTransactionId":"2000000123456789","transactionId":"2000000123456790","bundleId":"\#(bundleId)","environment":"\#(environment)","signedDate":\#(date)}"#
                .utf8)
    }

    /// A raw V2 body `{"signedPayload": …}` for a DID_RENEW notification whose transaction info is a nested JWS.
    static func notificationBody(
        _ authority: TestCertificateAuthority, bundleId: String = "com.example.app", environment: String = "Sandbox",
        transactionEnvironment: String? = nil, appAppleId: String? = nil,
        alterNested: (String) -> String = { $0 }
    ) throws -> [UInt8] {
        let nested = alterNested(
            try authority.sign(transaction(bundleId: bundleId, environment: transactionEnvironment ?? environment)))
        let app = appAppleId.map { #""appAppleId":\#($0),"# } ?? ""
        let payload =
            #"{"notificationType":"DID_RENEW","notificationUUID":"6d0c1a4e-8d53-4c2c-9b3e-1f2a3b4c5d6e","version":"2.0","signedDate":\#(signedDate),"data":{\#(app)"bundleId":"\#(bundleId)","environment":"\#(environment)","signedTransactionInfo":"\#(nested)"}}"#
        return Array(#"{"signedPayload":"\#(try authority.sign(Array(payload.utf8)))"}"#.utf8)
    }

    // MARK: - Breaking a JWS

    /// The three parts of a compact JWS.
    static func parts(_ jws: String) -> [String] {
        jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// `jws` with one bit flipped in the decoded bytes of part `index` (0 header, 1 payload, 2 signature) at `byte`.
    static func flippingBit(in jws: String, part index: Int, byte: Int) -> String {
        var parts = parts(jws)
        var bytes = Base64.decode(parts[index]) ?? []
        bytes[byte % bytes.count] ^= 0x01
        parts[index] = Base64.encodeURL(bytes)
        return parts.joined(separator: ".")
    }

    /// `payload` signed by `key` under a header with `alg` and `x5c` as given.
    static func jws(alg: String = "ES256", x5c: [[UInt8]], payload: [UInt8], key: ES256SigningKey) throws -> String {
        try TestCertificateAuthority.sign(
            encodedHeader: TestCertificateAuthority.encodedHeader(alg: alg, x5c: x5c), payload: payload, key: key)
    }

    /// The failed check for `jws` at `date`, or nil when it verifies.
    static func failedCheck(_ jws: String, _ verifier: JWSVerifier, date: Int64? = signedDate) -> SignatureCheck? {
        var text = jws
        return text.withUTF8 { verifier.verify(UnsafeRawBufferPointer($0), signedDate: date)?.0 }
    }
}
