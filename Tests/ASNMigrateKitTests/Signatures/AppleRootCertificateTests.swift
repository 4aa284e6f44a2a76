import Foundation
import Testing

@testable import ASNMigrateKit

/// The embedded Apple Root CA - G3 is the certificate Apple publishes (by its SHA-256 fingerprint) and parses.
@Suite struct AppleRootCertificateTests {
    @Test func theEmbeddedRootHasApplesPublishedFingerprint() {
        let hex = ES256SigningKey.sha256(AppleRootCertificate.der).map { String(format: "%02x", $0) }.joined()
        #expect(hex == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(hex == AppleRootCertificate.sha256Fingerprint)
    }

    @Test func theEmbeddedRootParsesAsApplesSelfSignedCA() throws {
        let root = try #require(Certificate(der: AppleRootCertificate.der))
        #expect(root.commonName == "Apple Root CA - G3")
        #expect(root.isCA)
        #expect(root.isIssued(by: root))
        let validity = try #require(root.validity)
        #expect(Timestamp.iso8601(ms: validity.notBefore) == "2014-04-30T18:19:06.000Z")
        #expect(Timestamp.iso8601(ms: validity.notAfter) == "2039-04-30T18:19:06.000Z")
    }
}
