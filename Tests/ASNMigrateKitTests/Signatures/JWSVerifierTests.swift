import ASNSimulation
import Dispatch
import Foundation
import Testing

@testable import ASNMigrateKit

/// `JWSVerifier` on fixtures made with the test CA: the good JWS verifies, and each kind of damage or forgery is a
/// reject naming its check (every check of a JWS, plus the checks around it).
@Suite struct JWSVerifierTests {
    // MARK: - Good

    @Test func aSignatureFromTheTestCAVerifies() throws {
        let ca = try SignatureFixture.authority()
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == nil)
    }

    @Test func theSameChainIsCheckedOncePerHeaderButValidityPerRecord() throws {
        let ca = try SignatureFixture.authority()
        let verifier = SignatureFixture.verifier(for: ca)
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, verifier) == nil)
        // Same header (so a cached chain), but the date is outside the certificates' validity: still a reject.
        #expect(SignatureFixture.failedCheck(jws, verifier, date: SignatureFixture.validity.notAfter + 1) == .validity)
        #expect(
            SignatureFixture.failedCheck(jws, verifier, date: SignatureFixture.validity.notBefore - 1000) == .validity)
        #expect(SignatureFixture.failedCheck(jws, verifier) == nil)
    }

    // MARK: - Damage

    @Test(arguments: [0, 17, 40, 63])
    func oneFlippedBitInTheSignatureIsASignatureReject(byte: Int) throws {
        let ca = try SignatureFixture.authority()
        let jws = SignatureFixture.flippingBit(in: try ca.sign(SignatureFixture.transaction()), part: 2, byte: byte)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .signature)
    }

    @Test(arguments: [2, 30, 90])
    func oneFlippedBitInThePayloadIsASignatureReject(byte: Int) throws {
        let ca = try SignatureFixture.authority()
        let jws = SignatureFixture.flippingBit(in: try ca.sign(SignatureFixture.transaction()), part: 1, byte: byte)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .signature)
    }

    @Test func oneFlippedBitInACertificateIsAChainReject() throws {
        let ca = try SignatureFixture.authority()
        var leaf = ca.leaf.der
        leaf[leaf.count - 3] ^= 0x01 // inside the certificate's own signature value: it still parses
        let jws = try SignatureFixture.jws(
            x5c: [leaf, ca.intermediate.der, ca.root.der], payload: SignatureFixture.transaction(), key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .chain)
        var intermediate = ca.intermediate.der
        intermediate[intermediate.count - 3] ^= 0x01
        let jws2 = try SignatureFixture.jws(
            x5c: [ca.leaf.der, intermediate, ca.root.der], payload: SignatureFixture.transaction(), key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(jws2, SignatureFixture.verifier(for: ca)) == .chain)
    }

    @Test func aFlippedBitInTheRootIsARootReject() throws {
        let ca = try SignatureFixture.authority()
        var root = ca.root.der
        root[root.count - 3] ^= 0x01
        let jws = try SignatureFixture.jws(
            x5c: [ca.leaf.der, ca.intermediate.der, root], payload: SignatureFixture.transaction(), key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .root)
    }

    @Test func aChainInTheWrongOrderIsAChainReject() throws {
        let ca = try SignatureFixture.authority()
        let verifier = SignatureFixture.verifier(for: ca)
        let swapped = try SignatureFixture.jws(
            x5c: [ca.intermediate.der, ca.leaf.der, ca.root.der], payload: SignatureFixture.transaction(),
            key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(swapped, verifier) == .chain)
        let reversed = try SignatureFixture.jws(
            x5c: [ca.root.der, ca.intermediate.der, ca.leaf.der], payload: SignatureFixture.transaction(),
            key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(reversed, verifier) == .root)
    }

    @Test func aSelfSignedLeafIsAChainReject() throws {
        let ca = try SignatureFixture.authority()
        let name = TestCertificateAuthority.leafName
        let selfSigned = try TestCertificateAuthority.issue(
            subject: name, serial: 9, key: ca.leafKey, issuer: name, issuerKey: ca.leafKey,
            notBefore: SignatureFixture.validity.notBefore, notAfter: SignatureFixture.validity.notAfter,
            isCA: false, markerOID: JWSVerifier.leafMarkerOID)
        let jws = try SignatureFixture.jws(
            x5c: [selfSigned.der, ca.intermediate.der, ca.root.der], payload: SignatureFixture.transaction(),
            key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .chain)
    }

    @Test func aLeafWithoutTheMarkerOIDIsALeafMarkerReject() throws {
        let ca = try SignatureFixture.authority(leafMarker: false)
        #expect(!ca.leaf.hasExtension(oid: JWSVerifier.leafMarkerOID))
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .leafMarker)
    }

    @Test func anIntermediateWithoutTheMarkerOIDIsAnIntermediateMarkerReject() throws {
        let ca = try SignatureFixture.authority(intermediateMarker: false)
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .intermediateMarker)
    }

    @Test func aChainExpiredAtSignedDateIsAValidityReject() throws {
        let ca = try SignatureFixture.authority(
            notBefore: SignatureFixture.signedDate - 20 * 86_400_000, notAfter: SignatureFixture.signedDate - 86_400_000
        )
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .validity)
        // The same JWS judged at a date inside the (past) validity verifies: archived data is judged at its signedDate.
        #expect(
            SignatureFixture.failedCheck(
                jws, SignatureFixture.verifier(for: ca), date: SignatureFixture.signedDate - 10 * 86_400_000) == nil)
    }

    @Test func aMissingSignedDateIsASignedDateReject() throws {
        let ca = try SignatureFixture.authority()
        let jws = try ca.sign(SignatureFixture.transaction())
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca), date: nil) == .signedDate)
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384"])
    func anAlgOtherThanES256IsAnAlgReject(alg: String) throws {
        let ca = try SignatureFixture.authority()
        let jws = try SignatureFixture.jws(
            alg: alg, x5c: [ca.leaf.der, ca.intermediate.der, ca.root.der], payload: SignatureFixture.transaction(),
            key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .alg)
    }

    @Test func anUnsignedAlgNoneTokenWithAnEmptySignatureIsRejected() throws {
        let header = Base64.encodeURL(Array(#"{"alg":"none"}"#.utf8))
        let jws = header + "." + Base64.encodeURL(SignatureFixture.transaction()) + "."
        #expect(SignatureFixture.failedCheck(jws, JWSVerifier()) == .alg)
    }

    @Test func aTruncatedX5cIsAnX5cReject() throws {
        let ca = try SignatureFixture.authority()
        let verifier = SignatureFixture.verifier(for: ca)
        let two = try SignatureFixture.jws(
            x5c: [ca.leaf.der, ca.intermediate.der], payload: SignatureFixture.transaction(), key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(two, verifier) == .x5c)
        let cut = try SignatureFixture.jws(
            x5c: [ca.leaf.der, ca.intermediate.der, Array(ca.root.der.prefix(ca.root.der.count / 2))],
            payload: SignatureFixture.transaction(), key: ca.leafKey)
        #expect(SignatureFixture.failedCheck(cut, verifier) == .x5c)
        let none =
            Base64.encodeURL(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64.encodeURL(SignatureFixture.transaction())
            + ".AAAA"
        #expect(SignatureFixture.failedCheck(none, verifier) == .x5c)
    }

    @Test func aTestCAChainIsARootRejectAgainstApplesRoot() throws {
        let ca = try SignatureFixture.authority()
        #expect(SignatureFixture.failedCheck(try ca.sign(SignatureFixture.transaction()), JWSVerifier()) == .root)
    }

    @Test func anotherCAsLeafSigningIsRejected() throws {
        // A chain that verifies but a payload signed by a different key (another CA's leaf).
        let ca = try SignatureFixture.authority(seed: 7)
        let other = try SignatureFixture.authority(seed: 8)
        let jws = try SignatureFixture.jws(
            x5c: [ca.leaf.der, ca.intermediate.der, ca.root.der], payload: SignatureFixture.transaction(),
            key: other.leafKey)
        #expect(SignatureFixture.failedCheck(jws, SignatureFixture.verifier(for: ca)) == .signature)
    }

    @Test func headerGarbageIsAHeaderReject() throws {
        #expect(SignatureFixture.failedCheck("not-base64!.e30.AAAA", JWSVerifier()) == .header)
        #expect(SignatureFixture.failedCheck("abc.def", JWSVerifier()) == .header)
    }

    @Test func theRejectReasonNamesTheCheck() throws {
        let ca = try SignatureFixture.authority()
        let jws = SignatureFixture.flippingBit(in: try ca.sign(SignatureFixture.transaction()), part: 2, byte: 5)
        #expect(throws: ASNError.self) {
            try SignatureFixture.verifier(for: ca).verify(
                jws, signedDate: SignatureFixture.signedDate, what: "signedPayload",
                at: SourceLocation(path: "x.jsonl", line: 3))
        }
        do {
            try SignatureFixture.verifier(for: ca).verify(
                jws, signedDate: SignatureFixture.signedDate, what: "signedPayload",
                at: SourceLocation(path: "x.jsonl", line: 3))
        } catch {
            #expect(error.code == .signature)
            #expect(error.reportReason.hasPrefix("signature: signature: signedPayload: "))
            #expect(error.location?.source == "x.jsonl:3")
        }
    }

    // MARK: - Threads

    @Test func manyThreadsVerifyingAtOnceGetEachOutcomeRight() throws {
        let ca = try SignatureFixture.authority()
        let verifier = SignatureFixture.verifier(for: ca)
        let good = try (0..<8).map {
            try ca.sign(SignatureFixture.transaction(date: SignatureFixture.signedDate + Int64($0)))
        }
        let bad = good.map { SignatureFixture.flippingBit(in: $0, part: 2, byte: 9) }
        let results = Results(count: 400)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let jws = index % 2 == 0 ? good[index / 2 % 8] : bad[index / 2 % 8]
            results.set(index, SignatureFixture.failedCheck(jws, verifier))
        }
        for index in 0..<400 {
            #expect(results.get(index) == (index % 2 == 0 ? nil : .signature), "iteration \(index)")
        }
    }
}

/// Per-iteration outcomes written from several threads, each slot by one thread only.
private final class Results: @unchecked Sendable {
    /// The outcomes; each index is written once, by one thread, and read after all have joined.
    private var values: [SignatureCheck?]
    private let lock = NSLock()

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: SignatureCheck?) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }

    func get(_ index: Int) -> SignatureCheck? {
        lock.lock()
        defer { lock.unlock() }
        return values[index]
    }
}
