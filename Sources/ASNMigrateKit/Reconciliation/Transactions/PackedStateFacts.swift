/// The state facts a `V1TransactionCollector` keeps for the status comparison, packed: every record's facts about a
/// kept subscription in one flat array, linked per subscription in input order, their transactions in another, text
/// as `StringPool` tokens and absent values as flags. `facts(of:pool:)` gives back exactly the facts appended.
struct PackedStateFacts: Sendable {
    /// One record's facts.
    private struct Fact: Sendable {
        var time: Int64
        var moment: Int64
        var own: Int
        var first: Int
        var count: Int
        /// The subscription's next fact, -1 for its last.
        var next: Int
        var autoRenewStatus: Int
        var autoRenewProductId: StringPool.Token
        var gracePeriodExpiresDate: Int64
        var flags: UInt8
    }

    /// One transaction a record's facts show.
    private struct Transaction: Sendable {
        var transactionId: StringPool.Token
        var productId: StringPool.Token
        var purchaseDate: Int64
        var expiresDate: Int64
        var revocationDate: Int64
        var flags: UInt8
    }

    /// A subscription's first and last fact.
    private struct Ends: Sendable {
        var first: Int
        var last: Int
    }

    // Fact flags: which optional values are present.
    private static let hasMoment: UInt8 = 1 << 0
    private static let hasOwn: UInt8 = 1 << 1
    private static let hasRenewal: UInt8 = 1 << 2
    private static let hasAutoRenewStatus: UInt8 = 1 << 3
    private static let hasGracePeriod: UInt8 = 1 << 4
    private static let hasBillingRetry: UInt8 = 1 << 5
    private static let billingRetry: UInt8 = 1 << 6
    private static let v2Only: UInt8 = 1 << 7
    // Transaction flags.
    private static let hasExpires: UInt8 = 1 << 0
    private static let hasRevocation: UInt8 = 1 << 1

    private var facts: [Fact] = []
    private var transactions: [Transaction] = []
    private var ends: [SubscriptionKey: Ends] = [:]

    /// Creates an empty set.
    init() {}

    /// Appends `fact`, a record's facts about subscription `key`, storing its text in `pool`.
    mutating func append(_ fact: StateFact, of key: SubscriptionKey, pool: inout StringPool) {
        var flags: UInt8 = 0
        func flag(_ present: Bool, _ bit: UInt8) {
            if present { flags |= bit }
        }
        flag(fact.moment != nil, Self.hasMoment)
        flag(fact.own != nil, Self.hasOwn)
        flag(fact.renewal != nil, Self.hasRenewal)
        flag(fact.renewal?.autoRenewStatus != nil, Self.hasAutoRenewStatus)
        flag(fact.renewal?.gracePeriodExpiresDate != nil, Self.hasGracePeriod)
        flag(fact.renewal?.isInBillingRetryPeriod != nil, Self.hasBillingRetry)
        flag(fact.renewal?.isInBillingRetryPeriod == true, Self.billingRetry)
        flag(fact.v2Only, Self.v2Only)
        let at = facts.count
        facts.append(
            Fact(
                time: fact.time, moment: fact.moment ?? 0, own: fact.own ?? 0, first: transactions.count,
                count: fact.transactions.count, next: -1, autoRenewStatus: fact.renewal?.autoRenewStatus ?? 0,
                autoRenewProductId: pool.token(fact.renewal?.autoRenewProductId),
                gracePeriodExpiresDate: fact.renewal?.gracePeriodExpiresDate ?? 0, flags: flags))
        for t in fact.transactions {
            transactions.append(
                Transaction(
                    transactionId: pool.token(t.transactionId), productId: pool.token(t.productId),
                    purchaseDate: t.purchaseDate, expiresDate: t.expiresDate ?? 0,
                    revocationDate: t.revocationDate ?? 0,
                    flags: (t.expiresDate != nil ? Self.hasExpires : 0)
                        | (t.revocationDate != nil ? Self.hasRevocation : 0)
                ))
        }
        if let previous = ends[key] {
            facts[previous.last].next = at
            ends[key] = Ends(first: previous.first, last: at)
        } else {
            ends[key] = Ends(first: at, last: at)
        }
    }

    /// The facts appended about subscription `key`, in order; nil when none were. `pool` is the pool they were
    /// appended with.
    func facts(of key: SubscriptionKey, pool: StringPool) -> [StateFact]? {
        guard var at = ends[key]?.first else { return nil }
        var found: [StateFact] = []
        while at >= 0 {
            let f = facts[at]
            let shown = transactions[f.first..<(f.first + f.count)].map { t in
                StateFact.Transaction(
                    transactionId: pool.text(t.transactionId), purchaseDate: t.purchaseDate,
                    expiresDate: t.flags & Self.hasExpires != 0 ? t.expiresDate : nil,
                    revocationDate: t.flags & Self.hasRevocation != 0 ? t.revocationDate : nil,
                    productId: pool.text(t.productId))
            }
            let renewal =
                f.flags & Self.hasRenewal == 0
                ? nil
                : StateFact.Renewal(
                    autoRenewStatus: f.flags & Self.hasAutoRenewStatus != 0 ? f.autoRenewStatus : nil,
                    autoRenewProductId: pool.text(f.autoRenewProductId),
                    gracePeriodExpiresDate: f.flags & Self.hasGracePeriod != 0 ? f.gracePeriodExpiresDate : nil,
                    isInBillingRetryPeriod: f.flags & Self.hasBillingRetry != 0 ? f.flags & Self.billingRetry != 0 : nil
                )
            found.append(
                StateFact(
                    time: f.time, transactions: shown, own: f.flags & Self.hasOwn != 0 ? f.own : nil, renewal: renewal,
                    v2Only: f.flags & Self.v2Only != 0, moment: f.flags & Self.hasMoment != 0 ? f.moment : nil))
            at = f.next
        }
        return found
    }
}
