import Foundation

/// What identifies a team's API key to App Store Server API: the key id, the issuer id, the app's bundle id and the
/// private key itself. Its description never shows the key.
package struct APICredentials: Sendable, CustomStringConvertible {
    /// The key's id from App Store Connect (`kid`).
    package var keyId: String
    /// The issuer id from App Store Connect (`iss`).
    package var issuerId: String
    /// The app's bundle id (`bid`).
    package var bundleId: String
    /// The private key.
    package var privateKey: ES256PrivateKey

    /// Creates credentials.
    package init(keyId: String, issuerId: String, bundleId: String, privateKey: ES256PrivateKey) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.privateKey = privateKey
    }

    /// Names the ids, never the key.
    package var description: String { "key \(keyId), issuer \(issuerId), bundle \(bundleId)" }

    /// Reads the `.p8` key at `path`; the warning (a key readable by group or others) is returned for the console.
    /// Throws `.unreadableInput` when the file cannot be read or holds no EC P-256 PKCS#8 key; the message never
    /// quotes the file's content.
    package static func loadKey(path: String) throws(ASNError) -> (key: ES256PrivateKey, warning: String?) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ASNError(
                .unreadableInput,
                "cannot read the private key '\(ConsoleText.path(path))': \(String(cString: strerror(errno))); give the AuthKey_KEYID.p8 file downloaded from App Store Connect",
                at: SourceLocation(path: path))
        }
        let warning: String? =
            (info.st_mode & 0o077) != 0
            ? "warning: the private key '\(ConsoleText.path(path))' can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))); restrict it with 'chmod 600 \(path)'"
            : nil
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ASNError(
                .unreadableInput, "cannot read the private key '\(ConsoleText.path(path))'; check its permissions",
                at: SourceLocation(path: path))
        }
        var bytes = Array(data)
        defer { for i in bytes.indices { bytes[i] = 0 } }
        guard let key = ES256PrivateKey(pem: bytes) else {
            throw ASNError(
                .unreadableInput,
                "'\(ConsoleText.path(path))' does not hold an EC P-256 private key in PKCS#8 PEM form (-----BEGIN PRIVATE KEY-----); give the .p8 file App Store Connect let you download",
                at: SourceLocation(path: path))
        }
        return (key, warning)
    }
}
