import Foundation
import Testing

@testable import ASNMigrateKit

/// The ES256 JWT of Apple's "Generating JSON Web Tokens for API requests", signed with a key made at run time.
@Suite struct APITokenTests {
    static func credentials() throws -> APICredentials {
        let key = try #require(ES256PrivateKey.generate())
        return APICredentials(
            keyId: "KEY123", issuerId: "57246542-96fe-1a63-e053-0824d011072a", bundleId: "com.example.app",
            privateKey: key)
    }

    static func decode(_ part: Substring) throws -> JSONObject {
        let bytes = try #require(Base64.decode(String(part)))
        guard case .object(let object) = try JSONParser().parse(bytes) else {
            throw ASNError(.notAnObject, "not an object")
        }
        return object
    }

    @Test func tokenHasApplesHeaderAndClaimsAndVerifiesWithThePublicKey() throws {
        let credentials = try Self.credentials()
        let token = try APIToken.make(credentials, issuedAt: 1_700_000_000, lifetime: 7200)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = V2FieldReader(try Self.decode(parts[0]))
        let claims = V2FieldReader(try Self.decode(parts[1]))
        #expect(header.string("alg") == "ES256" && header.string("kid") == "KEY123" && header.string("typ") == "JWT")
        #expect(
            claims.string("iss") == credentials.issuerId && claims.string("aud") == "appstoreconnect-v1"
                && claims.string("bid") == "com.example.app")
        #expect(claims.int64("iat") == 1_700_000_000)
        #expect(claims.int64("exp") == Int64(1_700_003_600), "never more than 60 minutes, even when asked for more")
        let signature = try #require(Base64.decode(String(parts[2])))
        #expect(signature.count == 64, "JOSE r||s")
        let message = Array((parts[0] + "." + parts[1]).utf8)
        let publicKey = try #require(credentials.privateKey.publicKey)
        #expect(
            signature.withUnsafeBytes { s in message.withUnsafeBytes { publicKey.verify(signature: s, message: $0) } })
        var tampered = message
        tampered[tampered.count - 1] ^= 1
        #expect(
            !signature.withUnsafeBytes { s in tampered.withUnsafeBytes { publicKey.verify(signature: s, message: $0) } }
        )
    }

    @Test func tokenIsRenewedBeforeItExpires() throws {
        let clock = Clock()
        let source = APITokenSource(
            credentials: try Self.credentials(), lifetime: 1200, renewBefore: 300, now: { clock.now })
        let first = try source.token()
        clock.now += 899
        #expect(try source.token() == first, "reused while more than 5 minutes are left")
        clock.now += 1
        let second = try source.token()
        #expect(second != first, "renewed 5 minutes before the expiry")
        #expect(source.tokensMade == 2)
    }

    @Test func keyFileReadableByOthersIsWarnedAboutAndNeverQuoted() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let key = try #require(ES256PrivateKey.generate())
        let pem = try #require(key.pkcs8PEM())
        let path = try tmp.write("AuthKey_KEY123.p8", pem)
        chmod(path, 0o600)
        #expect(try APICredentials.loadKey(path: path).warning == nil)
        chmod(path, 0o644)
        let warning = try #require(try APICredentials.loadKey(path: path).warning)
        #expect(warning.contains("chmod 600"))
        let bad = try tmp.write(
            "bad.p8", "-----BEGIN PRIVATE KEY-----\nSECRETSECRETSECRET\n-----END PRIVATE KEY-----\n")
        #expect(throws: ASNError.self) { try APICredentials.loadKey(path: bad) }
        do {
            _ = try APICredentials.loadKey(path: bad)
        } catch {
            #expect(!error.description.contains("SECRET"), "the key file's content never appears in a message")
        }
        #expect(
            !"\(key)".contains("BEGIN")
                && !"\(APICredentials(keyId: "K", issuerId: "I", bundleId: "B", privateKey: key))".contains("PRIVATE"))
    }
}

/// A settable clock for the token source.
///
/// `@unchecked Sendable`: set and read by the test's one thread only (the token source calls it synchronously).
private final class Clock: @unchecked Sendable {
    var now: Int64 = 1_700_000_000
}
