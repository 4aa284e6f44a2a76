/// One subscription's status from a Get All Subscription Statuses response (`data[].lastTransactions[]`).
package struct V2SubscriptionStatus: Sendable, Equatable {
    /// "Production" / "Sandbox" (or Apple's other spelling kept raw), from the response.
    package var environment: String
    /// The subscription's `originalTransactionId`.
    package var originalTransactionId: String
    /// The group the subscription belongs to.
    package var subscriptionGroupIdentifier: String?
    /// Apple's `status`: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    package var status: Int?
    /// The decoded `signedTransactionInfo`: the subscription's last transaction.
    package var transaction: JWSTransactionDecodedPayload?
    /// The decoded `signedRenewalInfo`.
    package var renewal: JWSRenewalInfoDecodedPayload?
    /// When the response was fetched (epoch ms): its `fetchedAt`/`receivedAt` member, else the newest `signedDate` inside it.
    package var fetchedAt: Int64?
    /// The file and line (and entry index) it came from.
    package var location: SourceLocation

    /// Creates a status record.
    package init(
        environment: String, originalTransactionId: String, subscriptionGroupIdentifier: String?, status: Int?,
        transaction: JWSTransactionDecodedPayload?, renewal: JWSRenewalInfoDecodedPayload?, fetchedAt: Int64?,
        location: SourceLocation
    ) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.status = status
        self.transaction = transaction
        self.renewal = renewal
        self.fetchedAt = fetchedAt
        self.location = location
    }
}
