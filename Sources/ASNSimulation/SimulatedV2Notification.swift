import ASNMigrateKit

/// One V2 notification as the simulator sends it: the decoded parts, rendered to a raw body `{"signedPayload": "<JWS>"}`.
///
/// Without a signer the JWS header is `{"alg":"ES256","x5c":["SIMULATED"]}` and the signature part is a deterministic
/// placeholder; with one (`simulate --sign`) every JWS is signed by the test CA, deterministically.
package struct SimulatedV2Notification: Sendable, Equatable {
    /// `notificationType`.
    package var notificationType: String
    /// `subtype`.
    package var subtype: String?
    /// `notificationUUID`.
    package var notificationUUID: String
    /// `signedDate`, epoch ms.
    package var signedDate: Int64
    /// `data.environment`.
    package var environment: SimulationEnvironment
    /// `data.bundleVersion`.
    package var bundleVersion: String?
    /// `data.status`.
    package var status: Int?
    /// The decoded `signedTransactionInfo`.
    package var transaction: JWSTransactionDecodedPayload?
    /// The decoded `signedRenewalInfo`.
    package var renewal: JWSRenewalInfoDecodedPayload?
    /// Seeds the placeholder signatures.
    package var signatureSeed: UInt64

    /// Creates a notification.
    package init(
        notificationType: String, subtype: String?, notificationUUID: String, signedDate: Int64,
        environment: SimulationEnvironment,
        bundleVersion: String?, status: Int?, transaction: JWSTransactionDecodedPayload?,
        renewal: JWSRenewalInfoDecodedPayload?,
        signatureSeed: UInt64
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.environment = environment
        self.bundleVersion = bundleVersion
        self.status = status
        self.transaction = transaction
        self.renewal = renewal
        self.signatureSeed = signatureSeed
    }

    /// The subscription key of the record: `originalTransactionId` of the transaction, else of the renewal info.
    package var originalTransactionId: String? {
        transaction?.originalTransactionId ?? renewal?.originalTransactionId
    }

    /// The decoded `responseBodyV2DecodedPayload`, with `signedTransactionInfo` / `signedRenewalInfo` as nested JWS strings.
    package var decodedPayload: JSONObject {
        // Without a signer nothing can fail.
        (try? decodedPayload(signer: nil)) ?? JSONObject()
    }

    /// The decoded payload with the nested JWS signed by `signer` (placeholders when nil).
    package func decodedPayload(signer: TestCertificateAuthority?) throws(ASNError) -> JSONObject {
        var random = SimulationRandom(seed: signatureSeed)
        var data = JSONObjectBuilder()
        if environment == .production { data.add("appAppleId", SimulatedProduct.appAppleId) }
        data.add("bundleId", SimulatedProduct.bundleId)
        data.add("bundleVersion", bundleVersion)
        data.add("environment", environment.rawValue)
        if let transaction {
            data.add("signedTransactionInfo", try Self.jws(transaction.json, random: &random, signer: signer))
        }
        if let renewal { data.add("signedRenewalInfo", try Self.jws(renewal.json, random: &random, signer: signer)) }
        data.add("status", status)
        var b = JSONObjectBuilder()
        b.add("notificationType", notificationType)
        b.add("subtype", subtype)
        b.add("notificationUUID", notificationUUID)
        b.add("data", json: .object(data.object))
        b.add("version", "2.0")
        b.add("signedDate", signedDate)
        return b.object
    }

    /// Appends the raw V2 body line `{"signedPayload":"…"}` and a newline to `out`.
    package func appendLine(to out: inout [UInt8]) {
        // Without a signer nothing can fail.
        try? appendLine(to: &out, signer: nil)
    }

    /// Appends the raw V2 body line with every JWS signed by `signer` (placeholders when nil).
    package func appendLine(to out: inout [UInt8], signer: TestCertificateAuthority?) throws(ASNError) {
        var random = SimulationRandom(seed: signatureSeed ^ 0xA5A5_5A5A_F00D_CAFE)
        let payload = try Self.jws(try decodedPayload(signer: signer), random: &random, signer: signer)
        out.append(contentsOf: Self.linePrefix)
        out.append(contentsOf: payload.utf8)
        out.append(contentsOf: Self.lineSuffix)
    }

    // MARK: - JWS

    /// The base64url of the constant JWS header.
    package static let encodedHeader = Base64.encodeURL(Array(#"{"alg":"ES256","x5c":["SIMULATED"]}"#.utf8))

    /// `header.payload.signature` for a JSON object, with a 64-byte placeholder signature drawn from `random`.
    package static func jws(_ object: JSONObject, random: inout SimulationRandom) -> String {
        // Without a signer nothing can fail.
        (try? jws(object, random: &random, signer: nil)) ?? ""
    }

    /// The JWS of `object`: signed by `signer`, or with a placeholder signature drawn from `random` when it is nil
    /// (the random stream advances either way, so the other records stay the same).
    package static func jws(_ object: JSONObject, random: inout SimulationRandom, signer: TestCertificateAuthority?)
        throws(ASNError) -> String
    {
        var signature: [UInt8] = []
        signature.reserveCapacity(64)
        random.appendBytes(64, to: &signature)
        if let signer { return try signer.sign(JSONWriter.bytes(.object(object))) }
        return encodedHeader + "." + Base64.encodeURL(JSONWriter.bytes(.object(object))) + "."
            + Base64.encodeURL(signature)
    }

    private static let linePrefix = Array(#"{"signedPayload":""#.utf8)
    private static let lineSuffix = Array("\"}\n".utf8)
}
