/// The `data` object of a V2 notification: app metadata, status, and the decoded transaction and renewal info.
package struct NotificationData: Sendable, Equatable, Hashable {
    /// `bundleId`.
    package var bundleId: String?
    /// `bundleVersion`.
    package var bundleVersion: String?
    /// `environment` ("Production", "Sandbox"), raw.
    package var environment: String?
    /// `status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    package var status: Int?
    /// The decoded `signedTransactionInfo`.
    package var transactionInfo: JWSTransactionDecodedPayload?
    /// The decoded `signedRenewalInfo`.
    package var renewalInfo: JWSRenewalInfoDecodedPayload?

    /// Creates empty data.
    package init() {}

    /// The data as an ordered JSON object (`transactionInfo` / `renewalInfo` decoded), absent values left out.
    package var json: JSONObject {
        var b = JSONObjectBuilder()
        b.add("bundleId", bundleId)
        b.add("bundleVersion", bundleVersion)
        b.add("environment", environment)
        b.add("status", status)
        b.add("transactionInfo", json: transactionInfo.map { .object($0.json) })
        b.add("renewalInfo", json: renewalInfo.map { .object($0.json) })
        return b.object
    }
}
