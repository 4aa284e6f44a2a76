/// One V2 notification read for `reconcile`: the decoded payload, where it was found, and a digest of its content.
package struct V2Record: Sendable, Equatable {
    /// The decoded notification; `migration` is set when the record was written by `asn-migrate migrate`.
    package var payload: ResponseBodyV2DecodedPayload
    /// The file and line (and array or history-page index) the record came from.
    package var location: SourceLocation
    /// SHA-1 of the canonical JSON of `payload` without `migration`; see `contentDigest(of:)`.
    package var contentDigest: [UInt8]
    /// Whether every JWS of the record was verified (`reconcile --verify-signatures`): false for records given decoded,
    /// and whenever signatures were not checked.
    package var signatureVerified = false

    /// Creates a record, computing its content digest from `payload`.
    package init(payload: ResponseBodyV2DecodedPayload, location: SourceLocation) {
        self.payload = payload
        self.location = location
        self.contentDigest = Self.contentDigest(of: payload)
    }

    /// Creates a record whose content digest was computed already (the fast path writes it from the record's bytes,
    /// and `payload` may then hold only the members the decoder keeps: `V2RecordDecoder.members`).
    package init(payload: ResponseBodyV2DecodedPayload, location: SourceLocation, contentDigest: [UInt8]) {
        self.payload = payload
        self.location = location
        self.contentDigest = contentDigest
    }

    /// SHA-1 of the payload's JSON as our model writes it (fixed member order, absent values left out), `migration` left out.
    ///
    /// Because it hashes the decoded model rather than the input bytes, a raw `{"signedPayload"}` body and a decoded
    /// copy of the same notification give the same digest, whatever their whitespace, key order or JWS wrapping.
    /// Members the model does not keep (`appAppleId`, `summary`, `externalPurchaseToken`, …) do not count.
    package static func contentDigest(of payload: ResponseBodyV2DecodedPayload) -> [UInt8] {
        var content = payload
        content.migration = nil
        // The model writes its members in a fixed order, so its JSON is already canonical for our purpose: no key sort
        // is needed (that sort was a fifth of reconcile's CPU), and the bytes are written straight from the model,
        // with no JSON tree in between (that tree was another tenth).
        return SHA1.digest(content.compactJSONBytes)
    }
}
