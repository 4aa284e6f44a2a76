import Foundation

/// The ES256 JSON Web Token of Apple's "Generating JSON Web Tokens for API requests": header `alg` ES256, `kid`,
/// `typ` JWT; claims `iss`, `iat`, `exp`, `aud` `appstoreconnect-v1`, `bid`; signed with the team's key, the
/// signature in JOSE form (r‖s).
package enum APIToken {
    /// The audience Apple requires.
    package static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts (60 minutes).
    package static let maximumLifetime: Int64 = 3600

    /// A signed token issued at `issuedAt` (epoch seconds), expiring `lifetime` seconds later (at most 60 minutes).
    package static func make(_ credentials: APICredentials, issuedAt: Int64, lifetime: Int64) throws(ASNError) -> String
    {
        var header = JSONObjectBuilder()
        header.add("alg", "ES256")
        header.add("kid", credentials.keyId)
        header.add("typ", "JWT")
        var claims = JSONObjectBuilder()
        claims.add("iss", credentials.issuerId)
        claims.add("iat", issuedAt)
        claims.add("exp", issuedAt + min(lifetime, maximumLifetime))
        claims.add("aud", audience)
        claims.add("bid", credentials.bundleId)
        let signingInput =
            Base64.encodeURL(JSONWriter.bytes(.object(header.object))) + "."
            + Base64.encodeURL(JSONWriter.bytes(.object(claims.object)))
        guard let signature = credentials.privateKey.signJOSE(Array(signingInput.utf8)) else {
            throw ASNError(.outputFailed, "libcrypto could not sign the API token with the private key")
        }
        return signingInput + "." + Base64.encodeURL(signature)
    }
}

/// Hands out the current token to concurrent requests, making a new one before the old one expires.
///
/// `@unchecked Sendable`: the token and its expiry are guarded by `lock`.
package final class APITokenSource: @unchecked Sendable {
    /// The credentials signing every token.
    private let credentials: APICredentials
    /// Lifetime of a token in seconds.
    private let lifetime: Int64
    /// How long before its expiry a token is replaced, in seconds.
    private let renewBefore: Int64
    /// The clock in epoch seconds.
    private let now: @Sendable () -> Int64
    /// Guards the current token.
    private let lock = NSLock()
    /// The current token and its expiry.
    private var current: (token: String, expires: Int64)?
    /// How many tokens were made.
    package private(set) var tokensMade = 0

    /// A source of tokens living `lifetime` seconds (default 20 minutes), each replaced `renewBefore` seconds before it expires.
    package init(
        credentials: APICredentials, lifetime: Int64 = 1200, renewBefore: Int64 = 300,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.credentials = credentials
        self.lifetime = min(lifetime, APIToken.maximumLifetime)
        self.renewBefore = renewBefore
        self.now = now
    }

    /// The token to send now.
    package func token() throws(ASNError) -> String {
        lock.lock()
        defer { lock.unlock() }
        let time = now()
        if let current, current.expires - renewBefore > time { return current.token }
        let token = try APIToken.make(credentials, issuedAt: time, lifetime: lifetime)
        current = (token, time + lifetime)
        tokensMade += 1
        return token
    }
}
