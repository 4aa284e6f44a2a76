/// The `data` object of a V2 notification: app metadata, status, and the decoded transaction and renewal info.
package struct NotificationData: Sendable, Equatable, Hashable, JSONMembers {
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

    /// The keys of the transaction info: as a JWS, and decoded (as `migrate` writes it, or a team's decoded copy).
    package static let transactionKeys = (signed: "signedTransactionInfo", decoded: "transactionInfo")
    /// The keys of the renewal info: as a JWS, and decoded.
    package static let renewalKeys = (signed: "signedRenewalInfo", decoded: "renewalInfo")

    /// Data with the scalar members read from `r` (the nested info is decoded by the caller, from whichever form).
    package init<Source: V2FieldSource>(scalars r: Source) {
        var reader = V2MemberReader(r)
        visitScalars(&reader)
    }

    /// The scalar members, in the fixed order of this model's JSON (the nested info follows them): the one place
    /// their keys are named.
    package mutating func visitScalars<Visitor: V2MemberVisitor>(_ v: inout Visitor) {
        v.visit("bundleId", &bundleId)
        v.visit("bundleVersion", &bundleVersion)
        v.visit("environment", &environment)
        v.visit("status", &status)
    }

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        var scalars = self
        scalars.visitScalars(&b)
        b.add(Self.transactionKeys.decoded, object: transactionInfo)
        b.add(Self.renewalKeys.decoded, object: renewalInfo)
    }
}
