/// What one record (V1 or V2, notification or API response) tells about its subscription's state: the facts the state
/// rules read, extracted once per record and never read from JSON again.
package struct StateFact: Sendable, Equatable {
    /// A transaction the record shows.
    package struct Transaction: Sendable, Equatable {
        /// `transactionId` / `transaction_id`, when known (copies of one transaction merge on it), held as an id.
        package var transactionID: TransactionID?
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
            self.init(
                transactionID: transactionId.map(TransactionID.init), purchaseDate: purchaseDate,
                expiresDate: expiresDate, revocationDate: revocationDate, productId: productId)
        }

        /// Creates a transaction fact from an id already held as one.
        package init(
            transactionID: TransactionID?, purchaseDate: Int64, expiresDate: Int64?, revocationDate: Int64?,
            productId: String?
        ) {
            self.transactionID = transactionID
            self.purchaseDate = purchaseDate
            self.expiresDate = expiresDate
            self.revocationDate = revocationDate
            self.productId = productId
        }

        /// `transactionId` as text (reading a number's makes it; notification pairing's rules never do).
        package var transactionId: String? {
            get { transactionID?.text }
            set { transactionID = newValue.map(TransactionID.init) }
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
    package var transactions: Transactions
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
        self.init(
            time: time, transactions: Transactions(transactions), own: own, renewal: renewal, v2Only: v2Only,
            moment: moment)
    }

    /// Creates a record's facts from its transactions held as `Transactions`.
    package init(
        time: Int64, transactions: Transactions, own: Int?, renewal: Renewal?, v2Only: Bool = false,
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

    /// How much the record knows about its subscription, to tell which of two records knows less (`Knowledge.isBelow`).
    var knowledge: Knowledge {
        let t = knowledgeTransaction
        return Knowledge(
            purchaseDate: t?.purchaseDate ?? Int64.min, revoked: t?.revocationDate != nil,
            expiresDate: t?.expiresDate ?? Int64.min, time: time)
    }

    /// How much a record knows: its knowledge transaction's purchase date, whether it is revoked and its expiry, then
    /// the record's time.
    struct Knowledge: Sendable {
        /// The knowledge transaction's purchase date (`Int64.min` without one).
        var purchaseDate: Int64
        /// Whether the knowledge transaction shows a revocation.
        var revoked: Bool
        /// The knowledge transaction's expiry (`Int64.min` without one).
        var expiresDate: Int64
        /// The record's time.
        var time: Int64

        /// True when a record of this knowledge knows less than one of `other`'s about the subscription (the newest
        /// knowledge wins): its transaction is older, then it lacks a revocation `other` shows, then its expiry is
        /// earlier, then it is earlier. A late retry or a companion notification carries an older snapshot and so
        /// never overrides a newer one.
        func isBelow(_ other: Knowledge) -> Bool {
            if purchaseDate != other.purchaseDate { return purchaseDate < other.purchaseDate }
            if revoked != other.revoked { return !revoked }
            if expiresDate != other.expiresDate { return expiresDate < other.expiresDate }
            return time < other.time
        }
    }
}

extension StateFact {
    /// The transactions a record shows, one of them held inline: a notification shows one, so its facts need no array
    /// of their own (notification pairing makes one fact per record read).
    package struct Transactions: RandomAccessCollection, MutableCollection, Sendable, Equatable {
        /// The one transaction, when there is exactly one.
        private var single: Transaction?
        /// The transactions, when there are none or more than one.
        private var list: [Transaction]

        /// The transactions of `list`, in order.
        package init(_ list: [Transaction]) {
            if list.count == 1 {
                single = list[0]
                self.list = []
            } else {
                single = nil
                self.list = list
            }
        }

        /// One transaction, or none.
        package init(_ transaction: Transaction?) {
            single = transaction
            list = []
        }

        /// Always 0.
        package var startIndex: Int { 0 }
        /// The number of transactions.
        package var endIndex: Int { single == nil ? list.count : 1 }

        /// The transaction at `position`.
        package subscript(position: Int) -> Transaction {
            get {
                guard let single else { return list[position] }
                precondition(position == 0, "Index out of range")
                return single
            }
            set {
                if single == nil {
                    list[position] = newValue
                    return
                }
                precondition(position == 0, "Index out of range")
                single = newValue
            }
        }
    }
}
