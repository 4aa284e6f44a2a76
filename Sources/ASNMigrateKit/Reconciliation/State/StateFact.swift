/// What one record (V1 or V2, notification or API response) tells about its subscription's state: the facts the state
/// rules read, extracted once per record and never read from JSON again.
package struct StateFact: Sendable, Equatable {
    /// A transaction the record shows.
    package struct Transaction: Sendable, Equatable {
        /// `transactionId` / `transaction_id`, when known (copies of one transaction merge on it).
        package var transactionId: String?
        /// `purchaseDate`, ms.
        package var purchaseDate: Int64
        /// `expiresDate`, ms (nil: not a subscription).
        package var expiresDate: Int64?
        /// `revocationDate` (V1 `cancellation_date` of a refund or revocation, not of an upgrade), ms.
        package var revocationDate: Int64?
        /// `productId`.
        package var productId: String?

        /// Creates a transaction fact.
        package init(
            transactionId: String?, purchaseDate: Int64, expiresDate: Int64?, revocationDate: Int64?, productId: String?
        ) {
            self.transactionId = transactionId
            self.purchaseDate = purchaseDate
            self.expiresDate = expiresDate
            self.revocationDate = revocationDate
            self.productId = productId
        }
    }

    /// The renewal info the record carries (V1 `pending_renewal_info` or its legacy top-level fields, V2
    /// `JWSRenewalInfoDecodedPayload`), describing the moment of the record.
    package struct Renewal: Sendable, Equatable {
        /// `autoRenewStatus` (1 on, 0 off), when stated.
        package var autoRenewStatus: Int?
        /// `autoRenewProductId`, when stated.
        package var autoRenewProductId: String?
        /// `gracePeriodExpiresDate`: present only while in a grace period.
        package var gracePeriodExpiresDate: Int64?
        /// `isInBillingRetryPeriod`: present (true) only while in billing retry.
        package var isInBillingRetryPeriod: Bool?

        /// Creates renewal facts.
        package init(
            autoRenewStatus: Int?, autoRenewProductId: String?, gracePeriodExpiresDate: Int64?,
            isInBillingRetryPeriod: Bool?
        ) {
            self.autoRenewStatus = autoRenewStatus
            self.autoRenewProductId = autoRenewProductId
            self.gracePeriodExpiresDate = gracePeriodExpiresDate
            self.isInBillingRetryPeriod = isInBillingRetryPeriod
        }
    }

    /// The record's event time (V1) or `signedDate` (V2), ms.
    package var time: Int64
    /// The transactions of the subscription the record shows (V1: the receipt; V2: its one transaction).
    package var transactions: [Transaction]
    /// The position in `transactions` of the transaction the record is about, when one can be told.
    package var own: Int?
    /// The renewal info, nil when the record carries none.
    package var renewal: Renewal?
    /// A record only V2 sends (`Mappings/v2-only.rules`): V1 hears of what it says only through a later notification.
    package var v2Only: Bool
    /// The moment the record's facts describe, when the record itself dates it (a V1 body's own event time, for a
    /// record delivered late in an envelope); nil: `time`.
    package var moment: Int64?

    /// Creates a record's facts.
    package init(
        time: Int64, transactions: [Transaction], own: Int?, renewal: Renewal?, v2Only: Bool = false,
        moment: Int64? = nil
    ) {
        self.time = time
        self.moment = moment
        self.transactions = transactions
        self.own = own
        self.renewal = renewal
        self.v2Only = v2Only
    }

    /// The transaction the record's knowledge is dated by: its own, else the newest it shows.
    var knowledgeTransaction: Transaction? {
        if let own, transactions.indices.contains(own) { return transactions[own] }
        return transactions.max { $0.purchaseDate < $1.purchaseDate }
    }

    /// True when this record knows less than `other` about the subscription (the newest knowledge wins): its
    /// transaction is older, then it lacks a revocation `other` shows, then its expiry is earlier, then it is earlier.
    /// A late retry or a companion notification carries an older snapshot and so never overrides a newer one.
    func knowsLess(than other: StateFact) -> Bool {
        let a = knowledgeTransaction
        let b = other.knowledgeTransaction
        let pa = a?.purchaseDate ?? Int64.min
        let pb = b?.purchaseDate ?? Int64.min
        if pa != pb { return pa < pb }
        let ra = a?.revocationDate != nil
        let rb = b?.revocationDate != nil
        if ra != rb { return !ra }
        let ea = a?.expiresDate ?? Int64.min
        let eb = b?.expiresDate ?? Int64.min
        if ea != eb { return ea < eb }
        return time < other.time
    }
}
