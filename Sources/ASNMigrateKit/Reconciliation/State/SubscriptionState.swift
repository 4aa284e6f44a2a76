/// A subscription's state at an instant as one side's records imply it (`SubscriptionStateRules.derive`), or as
/// Apple's Get All Subscription Statuses states it.
package struct SubscriptionState: Sendable, Equatable {
    /// The latest transaction's transactionId, held as an id.
    package var transactionID: TransactionID?
    /// The latest transaction's productId.
    package var productId: String?
    /// The latest transaction's expiresDate.
    package var expiresDate: Int64?
    /// The newest stated autoRenewStatus (1 on, 0 off).
    package var autoRenewStatus: Int?
    /// The newest stated autoRenewProductId.
    package var autoRenewProductId: String?
    /// The grace period's end, while the newest renewal info states one.
    package var gracePeriodExpiresDate: Int64?
    /// Whether Apple retries billing at the instant (nil: no renewal info ever said).
    package var isInBillingRetryPeriod: Bool?
    /// Apple's status at the instant.
    package var status: SubscriptionStatus
    /// The newest record the state was derived from (its event time), when the state is a side's derivation.
    package var newestRecordTime: Int64?

    /// Creates a state.
    package init(productId: String?, expiresDate: Int64?, autoRenewStatus: Int?, status: SubscriptionStatus) {
        self.productId = productId
        self.expiresDate = expiresDate
        self.autoRenewStatus = autoRenewStatus
        self.status = status
    }

    /// The latest transaction's transactionId as text.
    package var transactionId: String? {
        get { transactionID?.text }
        set { transactionID = newValue.map(TransactionID.init) }
    }

    /// Equal states: every item but `newestRecordTime`, which tells where a state came from, not what it is.
    package static func == (a: SubscriptionState, b: SubscriptionState) -> Bool {
        a.transactionID == b.transactionID && a.productId == b.productId && a.expiresDate == b.expiresDate
            && a.autoRenewStatus == b.autoRenewStatus && a.autoRenewProductId == b.autoRenewProductId
            && a.gracePeriodExpiresDate == b.gracePeriodExpiresDate
            && a.isInBillingRetryPeriod == b.isInBillingRetryPeriod && a.status == b.status
    }

    /// Whether the customer has service at the instant (active or in a billing grace period).
    package var active: Bool { status.providesService }
}
