import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// The simulator's test CA: shaped like Apple's chain, and deterministic (same seed → same bytes), so `simulate --sign`
/// output is byte-identical across runs.
@Suite struct TestCertificateAuthorityTests {
    @Test func theChainHasApplesShape() throws {
        let ca = try SignatureFixture.authority()
        #expect(ca.root.isCA && ca.intermediate.isCA && !ca.leaf.isCA)
        #expect(ca.root.isIssued(by: ca.root))
        #expect(ca.intermediate.isIssued(by: ca.root))
        #expect(ca.leaf.isIssued(by: ca.intermediate))
        #expect(!ca.leaf.isIssued(by: ca.root))
        #expect(
            ca.leaf.hasExtension(oid: JWSVerifier.leafMarkerOID)
                && !ca.leaf.hasExtension(oid: JWSVerifier.intermediateMarkerOID))
        #expect(
            ca.intermediate.hasExtension(oid: JWSVerifier.intermediateMarkerOID)
                && !ca.intermediate.hasExtension(oid: JWSVerifier.leafMarkerOID))
        #expect(ES256PublicKey(certificate: ca.leaf) != nil)
        let validity = try #require(ca.leaf.validity)
        #expect(
            validity.notBefore == SignatureFixture.validity.notBefore
                && validity.notAfter == SignatureFixture.validity.notAfter)
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() throws {
        let a = try SignatureFixture.authority(seed: 42)
        let b = try SignatureFixture.authority(seed: 42)
        let c = try SignatureFixture.authority(seed: 43)
        #expect(a.root.der == b.root.der && a.intermediate.der == b.intermediate.der && a.leaf.der == b.leaf.der)
        #expect(try a.sign(SignatureFixture.transaction()) == b.sign(SignatureFixture.transaction()))
        #expect(a.root.der != c.root.der)
        #expect(try a.sign(SignatureFixture.transaction()) != c.sign(SignatureFixture.transaction()))
        // Different messages get different nonces (r differs), or the key could be recovered from two signatures.
        let one = try #require(a.leafKey.signJOSE(Array("one".utf8)))
        let two = try #require(a.leafKey.signJOSE(Array("two".utf8)))
        #expect(one.prefix(32) != two.prefix(32))
    }

    @Test func signaturesVerifyWithThePublicKey() throws {
        let ca = try SignatureFixture.authority()
        let key = try #require(ES256PublicKey(certificate: ca.leaf))
        let message = Array("header.payload".utf8)
        let signature = try #require(ca.leafKey.signJOSE(message))
        #expect(signature.withUnsafeBytes { s in message.withUnsafeBytes { key.verify(signature: s, message: $0) } })
        var wrong = signature
        wrong[0] ^= 0x80
        #expect(!wrong.withUnsafeBytes { s in message.withUnsafeBytes { key.verify(signature: s, message: $0) } })
    }
}
