/// A record of Apple's App Store Server API view read for `reconcile`: a transaction, or a subscription's status.
package enum V2APIRecord: Sendable, Equatable {
    /// A transaction (Get Transaction History, or a lone transaction).
    case transaction(V2Transaction)
    /// A subscription status (Get All Subscription Statuses).
    case status(V2SubscriptionStatus)

    /// Where the record was read.
    package var location: SourceLocation {
        switch self {
        case .transaction(let transaction): return transaction.location
        case .status(let status): return status.location
        }
    }
}
