import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// `V2RecordDecoder` with a `SignaturePolicy` (reconcile --verify-signatures): signed records are verified top-level
/// and nested, decoded ones are marked unverified (or rejected under --require-signatures), and the app checks
/// (bundle ID, appAppleId, environment) are named rejects.
@Suite struct V2RecordDecoderSignatureTests {
    /// A decoder verifying against `authority`'s root.
    static func decoder(
        _ authority: TestCertificateAuthority, require: Bool = false, bundleId: String? = nil, appAppleId: String? = nil
    ) -> V2RecordDecoder {
        var decoder = V2RecordDecoder()
        decoder.signatures = SignaturePolicy(
            verifier: SignatureFixture.verifier(for: authority), requireSignatures: require,
            bundleId: bundleId, appAppleId: appAppleId)
        return decoder
    }

    /// The single outcome of decoding `bytes`.
    static func outcome(_ decoder: V2RecordDecoder, _ bytes: [UInt8]) throws -> V2ReadOutcome {
        let outcomes = decoder.decode(RawRecord(location: SourceLocation(path: "v2.jsonl", line: 1), bytes: bytes))
        try #require(outcomes.count == 1)
        return outcomes[0]
    }

    /// The check named in a `.signature` reject's message.
    static func check(_ outcome: V2ReadOutcome) -> SignatureCheck? {
        guard let error = outcome.error, error.code == .signature else { return nil }
        return SignatureCheck(rawValue: String(error.message.prefix { $0 != ":" }))
    }

    @Test func aSignedNotificationWithASignedTransactionIsVerified() throws {
        let ca = try SignatureFixture.authority()
        let outcome = try Self.outcome(Self.decoder(ca), SignatureFixture.notificationBody(ca))
        let record = try #require(outcome.record)
        #expect(record.signatureVerified)
        #expect(record.payload.data.transactionInfo?.originalTransactionId == "2000000123456789")
    }

    @Test func withoutAPolicyNothingIsVerifiedAndNothingRejected() throws {
        let ca = try SignatureFixture.authority()
        let outcome = try Self.outcome(
            V2RecordDecoder(),
            SignatureFixture.notificationBody(ca) { SignatureFixture.flippingBit(in: $0, part: 2, byte: 1) })
        #expect(outcome.record?.signatureVerified == false)
    }

    @Test func aFlippedBitInTheNestedTransactionIsASignatureRejectNamingIt() throws {
        let ca = try SignatureFixture.authority()
        let body = try SignatureFixture.notificationBody(ca) { SignatureFixture.flippingBit(in: $0, part: 2, byte: 1) }
        let outcome = try Self.outcome(Self.decoder(ca), body)
        #expect(Self.check(outcome) == .signature)
        #expect(outcome.error?.reportReason.hasPrefix("signature: signature: data.signedTransactionInfo: ") == true)
        #expect(outcome.error?.location?.key == "data.signedTransactionInfo")
    }

    @Test func aFlippedBitInTheNotificationPayloadIsASignatureReject() throws {
        let ca = try SignatureFixture.authority()
        let body = try SignatureFixture.notificationBody(ca)
        let text = String(decoding: body, as: UTF8.self)
        let jws = String(text.dropFirst(#"{"signedPayload":""#.count).dropLast(2))
        // Flip a bit inside the notificationUUID's text so the payload stays valid JSON.
        let payload = try #require(Base64.decode(SignatureFixture.parts(jws)[1]))
        let at = try #require(String(decoding: payload, as: UTF8.self).utf8.firstIndex(of: UInt8(ascii: "6")))
        let offset = String(decoding: payload, as: UTF8.self).utf8.distance(
            from: String(decoding: payload, as: UTF8.self).utf8.startIndex, to: at)
        let altered = SignatureFixture.flippingBit(in: jws, part: 1, byte: offset)
        let outcome = try Self.outcome(Self.decoder(ca), Array(#"{"signedPayload":"\#(altered)"}"#.utf8))
        #expect(Self.check(outcome) == .signature)
    }

    @Test func anotherAppsBundleIDIsABundleIdReject() throws {
        let ca = try SignatureFixture.authority()
        let body = try SignatureFixture.notificationBody(ca, bundleId: "com.other.app")
        #expect(Self.check(try Self.outcome(Self.decoder(ca, bundleId: "com.example.app"), body)) == .bundleId)
        #expect(try Self.outcome(Self.decoder(ca, bundleId: "com.other.app"), body).record?.signatureVerified == true)
    }

    @Test func anotherAppsAppleIDIsAnAppAppleIdReject() throws {
        let ca = try SignatureFixture.authority()
        let other = try SignatureFixture.notificationBody(ca, environment: "Production", appAppleId: "1234")
        #expect(Self.check(try Self.outcome(Self.decoder(ca, appAppleId: "5678"), other)) == .appAppleId)
        #expect(try Self.outcome(Self.decoder(ca, appAppleId: "1234"), other).record != nil)
        // A Production notification must carry it; Sandbox ones need not (Apple leaves it out there).
        let missing = try SignatureFixture.notificationBody(ca, environment: "Production")
        #expect(Self.check(try Self.outcome(Self.decoder(ca, appAppleId: "1234"), missing)) == .appAppleId)
        let sandbox = try SignatureFixture.notificationBody(ca, environment: "Sandbox")
        #expect(try Self.outcome(Self.decoder(ca, appAppleId: "1234"), sandbox).record != nil)
    }

    @Test func aNestedPayloadFromAnotherEnvironmentIsAnEnvironmentReject() throws {
        let ca = try SignatureFixture.authority()
        let body = try SignatureFixture.notificationBody(
            ca, environment: "Production", transactionEnvironment: "Sandbox")
        #expect(Self.check(try Self.outcome(Self.decoder(ca), body)) == .environment)
    }

    @Test func decodedRecordsAreUnverifiedOrRejectedUnderRequireSignatures() throws {
        let ca = try SignatureFixture.authority()
        let decoded = Array(
            #"{"notificationType":"DID_RENEW","notificationUUID":"1b2c3d4e-0000-4000-8000-000000000001","signedDate":1700000000000,"data":{"environment":"Sandbox"}}"#
                .utf8)
        let outcome = try Self.outcome(Self.decoder(ca), decoded)
        #expect(outcome.record?.signatureVerified == false)
        #expect(Self.check(try Self.outcome(Self.decoder(ca, require: true), decoded)) == .unsigned)
    }
}
