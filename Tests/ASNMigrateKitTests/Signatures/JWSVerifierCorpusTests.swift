import Foundation
import Testing

@testable import ASNMigrateKit

/// `JWSVerifier` on the shared corpus (`../shared/corpus/v2`): every real Apple-signed JWS, top-level and nested,
/// verifies against the embedded Apple Root CA - G3 at its signedDate; Apple's library fixtures, signed by Apple's
/// own test CA, fail against Apple's root and pass with that CA given as a root. Skipped when the corpus is absent.
@Suite struct JWSVerifierCorpusTests {
    /// The corpus's `.jws` files, name → text.
    static func jwsFiles() -> [(name: String, text: String)] {
        guard let directory = V2CorpusTests.directory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".jws") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                return nil
            }
            return (name, text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Apple's library test fixtures, signed by Apple's test CA rather than Apple Root CA - G3.
    static func isAppleTestFixture(_ name: String) -> Bool { name.hasPrefix("apple-lib-mock-") }
    /// Xcode StoreKit-testing output: signed by a single self-issued Xcode certificate, no Apple chain at all.
    static func isXcode(_ name: String) -> Bool { name.hasPrefix("apple-lib-xcode-") }
    /// Real captures whose signature was cut when stored (58 of 64 bytes): they must fail, as a `signature` reject.
    static let cutSignatures: Set<String> = ["gpa-subscribed-resubscribe-00ddfd5f.jws"]

    /// Every JWS in `text`: itself, and the nested signedTransactionInfo / signedRenewalInfo, each with the
    /// signedDate to judge it at (its own, else the notification's).
    static func allJWS(_ text: String) -> [(label: String, jws: String, date: Int64?)] {
        guard let payload = decodedPayload(text) else { return [(label: "top", jws: text, date: nil)] }
        let date = V2FieldReader(payload).int64("signedDate")
        var found = [(label: "top", jws: text, date: date)]
        if case .object(let data)? = payload["data"] {
            for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                if case .string(let nested)? = data[key] {
                    let own = decodedPayload(nested).flatMap { V2FieldReader($0).int64("signedDate") }
                    found.append((label: key, jws: nested, date: own ?? date))
                }
            }
        }
        return found
    }

    /// The payload object of a compact JWS.
    static func decodedPayload(_ jws: String) -> JSONObject? {
        let parts = SignatureFixture.parts(jws)
        guard parts.count == 3, let bytes = Base64.decode(parts[1]) else { return nil }
        return (try? JSONParser().parse(bytes))?.objectValue
    }

    /// The last x5c certificate of a JWS header.
    static func lastCertificate(_ jws: String) -> [UInt8]? {
        guard let header = Base64.decode(SignatureFixture.parts(jws)[0]),
            case .object(let object)? = try? JSONParser().parse(header),
            case .array(let x5c)? = object["x5c"], case .string(let last)? = x5c.last
        else { return nil }
        return Base64.decode(last)
    }

    // MARK: - Apple-signed

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func everyRealAppleSignedJWSVerifiesAtItsSignedDate() throws {
        let files = Self.jwsFiles().filter { !Self.isAppleTestFixture($0.name) && !Self.isXcode($0.name) }
        try #require(!files.isEmpty)
        let verifier = JWSVerifier()
        var verified = 0
        for file in files where !Self.cutSignatures.contains(file.name) {
            for part in Self.allJWS(file.text) {
                #expect(
                    SignatureFixture.failedCheck(part.jws, verifier, date: part.date) == nil,
                    "\(file.name) \(part.label)")
                verified += 1
            }
        }
        #expect(verified >= 100, "the corpus holds about 45 signed notifications with nested JWS; verified \(verified)")
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func everyRealSignedNotificationDecodesAsVerifiedThroughTheDecoder() throws {
        var decoder = V2RecordDecoder()
        decoder.signatures = SignaturePolicy()
        var verified = 0
        for file in Self.jwsFiles() where !Self.isAppleTestFixture(file.name) && !Self.isXcode(file.name) {
            guard Self.decodedPayload(file.text)?["notificationType"] != nil else { continue }
            let outcomes = decoder.decode(
                RawRecord(location: SourceLocation(path: file.name, line: 1), bytes: Array(file.text.utf8)))
            #expect(outcomes.count == 1)
            if Self.cutSignatures.contains(file.name) {
                #expect(outcomes.first?.error?.reportReason.hasPrefix("signature: signature: ") == true, "\(file.name)")
            } else {
                #expect(
                    outcomes.first?.record?.signatureVerified == true,
                    "\(file.name): \(outcomes.first?.error?.reportReason ?? "")")
                verified += 1
            }
        }
        #expect(verified >= 40)
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func aRealCaptureWithACutSignatureIsASignatureReject() throws {
        for file in Self.jwsFiles() where Self.cutSignatures.contains(file.name) {
            let top = try #require(Self.allJWS(file.text).first)
            #expect(SignatureFixture.failedCheck(top.jws, JWSVerifier(), date: top.date) == .signature, "\(file.name)")
        }
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func theRealChainsAreExpiredTodayButValidAtTheirSignedDate() throws {
        let file = try #require(Self.jwsFiles().first { $0.name.hasPrefix("gpa-did-renew-") })
        let top = try #require(Self.allJWS(file.text).first)
        #expect(SignatureFixture.failedCheck(top.jws, JWSVerifier(), date: top.date) == nil)
        // 2026-01-01: Apple's 2023 leaf certificates have expired, so "now" would wrongly reject archived data.
        #expect(SignatureFixture.failedCheck(top.jws, JWSVerifier(), date: 1_767_225_600_000) == .validity)
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func everyRealChainEndsInTheEmbeddedRoot() throws {
        let files = Self.jwsFiles().filter { $0.name.hasPrefix("gpa-") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(Self.lastCertificate(file.text) == AppleRootCertificate.der, "\(file.name)")
        }
    }

    // MARK: - Apple's test CA and Xcode

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func applesLibraryFixturesFailAgainstApplesRootAndPassWithTheirTestCA() throws {
        let fixtures = Self.jwsFiles().filter { Self.isAppleTestFixture($0.name) }
        #expect(fixtures.count == 3)
        for fixture in fixtures {
            let top = try #require(Self.allJWS(fixture.text).first)
            #expect(SignatureFixture.failedCheck(top.jws, JWSVerifier(), date: top.date) == .root, "\(fixture.name)")
            let testRoot = try #require(Self.lastCertificate(fixture.text))
            // Given as PEM, as a --root-certificate file would be.
            let pem = "-----BEGIN CERTIFICATE-----\n" + Base64.encode(testRoot) + "\n-----END CERTIFICATE-----\n"
            let roots = try RootCertificateFile.parse(Array(pem.utf8), path: "testCA.pem")
            let verifier = JWSVerifier(roots: [AppleRootCertificate.der] + roots)
            #expect(SignatureFixture.failedCheck(top.jws, verifier, date: top.date) == nil, "\(fixture.name)")
        }
    }

    @Test(.enabled(if: V2CorpusTests.directory != nil, "needs ../shared/corpus/v2"))
    func xcodeSignedDataHasNoAppleChainAndIsAnX5cReject() throws {
        let files = Self.jwsFiles().filter { Self.isXcode($0.name) }
        #expect(files.count == 2)
        for file in files {
            let top = try #require(Self.allJWS(file.text).first)
            #expect(SignatureFixture.failedCheck(top.jws, JWSVerifier(), date: top.date) == .x5c, "\(file.name)")
        }
    }
}
