/// The checks `reconcile --verify-signatures` makes on a signed payload, in the order they run; the raw value names
/// the failed check in the reject reason (`signature: <check>: …` in `rejected.csv`).
package enum SignatureCheck: String, Sendable, CaseIterable {
    /// The JWS header is base64url JSON naming `alg` and `x5c`.
    case header
    /// The header's `alg` is `ES256` (not `none`, `HS256`, …).
    case alg
    /// `x5c` holds exactly three base64 DER certificates: leaf, intermediate, root.
    case x5c
    /// The last certificate is byte-for-byte an accepted root (Apple Root CA - G3, or a `--root-certificate`).
    case root
    /// Each certificate is issued and signed by the next, the intermediate is a CA, and the leaf is not self-signed.
    case chain
    /// The leaf carries Apple's marker extension `1.2.840.113635.100.6.11.1`.
    case leafMarker = "leaf-marker"
    /// The intermediate carries Apple's marker extension `1.2.840.113635.100.6.2.1`.
    case intermediateMarker = "intermediate-marker"
    /// The leaf's key is an EC P-256 key.
    case key
    /// The payload has a `signedDate` (or its notification has one) to judge the chain's validity at.
    case signedDate = "signed-date"
    /// Every certificate of the chain is valid at the payload's `signedDate`.
    case validity
    /// The ES256 signature over `header.payload` is correct.
    case signature
    /// The payload's `bundleId` is the one given with `--bundle-id`.
    case bundleId = "bundle-id"
    /// A Production notification's `appAppleId` is the one given with `--app-apple-id`.
    case appAppleId = "app-apple-id"
    /// A nested transaction or renewal info has the notification's `environment`.
    case environment
    /// The record is signed at all (`--require-signatures` rejects decoded JSON and CSV records).
    case unsigned

    /// The reject for this check failing: code `.signature`, message `<check>: <detail>`.
    package func failure(_ detail: String, at location: SourceLocation?) -> ASNError {
        ASNError(.signature, "\(rawValue): \(detail)", at: location)
    }
}
