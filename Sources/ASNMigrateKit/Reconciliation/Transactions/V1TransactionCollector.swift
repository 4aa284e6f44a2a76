/// Gathers the V1 archive's transactions for comparison with Apple's API view: pure, fed one record's facts at a time.
///
/// Every transaction any V1 record shows (the relevant transaction of each notification and every entry of
/// `latest_receipt_info` / `latest_expired_receipt_info`) is kept once per environment + transactionId, its facts
/// merged as they grow (`V1Transaction.merge`), with the first record that showed it as its source. For the
/// subscriptions named in `statusSubscriptions`, each record's state facts (`StateFact`, about that subscription) are
/// kept too, so that the subscription's state can be rebuilt as of any instant; the record itself is not kept.
package struct V1TransactionCollector: Sendable {
    /// Environment + transactionId.
    package struct Key: Hashable, Sendable {
        /// "Production" / "Sandbox".
        package var environment: String
        /// The transactionId.
        package var transactionId: String

        /// Creates a key.
        package init(environment: String, transactionId: String) {
            self.environment = environment
            self.transactionId = transactionId
        }
    }

    /// One transaction as held: its receipt entry packed, its texts as tokens of `pool`, and what a copy's merge
    /// checks first kept beside it, so a copy that adds nothing (the usual case) is merged without unpacking.
    private struct Held: Sendable {
        var info: PackedMembers<LatestReceiptInfo>
        var environment: StringPool.Token
        var originalTransactionId: StringPool.Token
        var announced: Bool
        var source: String
        var sourceType: StringPool.Token
        var bundleId: StringPool.Token
        var expiresLearntAt: Int64?
        var upgradeLearntAt: Int64?
        /// `info.expiresDate`.
        var expiresDate: Int64?
        /// `info.isUpgraded == true`.
        var upgraded: Bool

        /// `transaction` held, its text stored in `pool`.
        init(_ transaction: V1Transaction, pool: inout StringPool) {
            info = PackedMembers(transaction.info, pool: &pool)
            environment = pool.token(transaction.environment)
            originalTransactionId = pool.token(transaction.originalTransactionId)
            announced = transaction.announced
            source = transaction.source
            sourceType = pool.token(transaction.sourceType)
            bundleId = pool.token(transaction.bundleId)
            expiresLearntAt = transaction.expiresLearntAt
            upgradeLearntAt = transaction.upgradeLearntAt
            expiresDate = transaction.info.expiresDate
            upgraded = transaction.info.isUpgraded == true
        }

        /// The transaction as it was held; `pool` must be the pool it was held with.
        func unpacked(_ pool: StringPool) -> V1Transaction {
            var t = V1Transaction(
                environment: pool.string(environment), originalTransactionId: pool.string(originalTransactionId),
                info: info.unpacked(pool), announced: announced, source: source, sourceType: pool.string(sourceType),
                bundleId: pool.text(bundleId))
            t.expiresLearntAt = expiresLearntAt
            t.upgradeLearntAt = upgradeLearntAt
            return t
        }

        /// Whether merging `entry` would change nothing but `announced`: it has no member this one lacks, no later
        /// expiry and no upgrade this one does not show (`V1Transaction.merge`'s rules then change nothing).
        func adds(_ entry: LatestReceiptInfo) -> Bool {
            if PackedMembers<LatestReceiptInfo>.presence(of: entry) & ~info.presence != 0 { return true }
            if let later = entry.expiresDate, later > (expiresDate ?? Int64.min) { return true }
            return entry.isUpgraded == true && !upgraded
        }
    }

    /// A transaction's identity as held: the tokens of its environment and its transactionId.
    private struct HeldKey: Hashable, Sendable {
        var environment: StringPool.Token
        var transactionId: StringPool.Token
    }

    /// The transactions, in the order first seen.
    private var held: [Held] = []
    /// Where each transaction is in `held`.
    private var index: [HeldKey: Int] = [:]
    /// The text of the held transactions: a transaction shown by many records' receipts, or a product named by many,
    /// is held once, and a numeric id is its number.
    private var pool = StringPool()
    /// Receipt entries without a transaction_id (they cannot be compared).
    package private(set) var withoutId = 0
    /// The earliest and latest non-inferred notification event time seen.
    package private(set) var eventRange: ClosedRange<Int64>?
    /// The state facts of every record of the subscriptions in `statusSubscriptions`, packed (`stateFacts(of:)`).
    private var stateFacts = PackedStateFacts()
    /// The subscriptions whose records are kept for the status comparison.
    package let statusSubscriptions: Set<SubscriptionKey>

    /// Creates an empty collector keeping records of `statusSubscriptions`.
    package init(statusSubscriptions: Set<SubscriptionKey> = []) {
        self.statusSubscriptions = statusSubscriptions
    }

    /// The state facts of every record of `subscription` (one of `statusSubscriptions`), in input order
    /// (`V1RecordFacts.stateFact(of:)`; records without an event time tell no state and are left out); nil when no
    /// record told any.
    package func stateFacts(of subscription: SubscriptionKey) -> [StateFact]? {
        stateFacts.facts(of: subscription, pool: pool)
    }

    /// How many transactions are held.
    package var transactionCount: Int { held.count }

    /// The transaction at `position` (in the order first seen), made from its packed form.
    package func transaction(at position: Int) -> V1Transaction {
        held[position].unpacked(pool)
    }

    /// Where `transactionId` is among a packed receipt entry's members.
    private static let transactionIdMember = PackedMembers<LatestReceiptInfo>.member { $0.transactionId = "" }

    /// The environment, subscription and transactionId of the transaction at `position`, read without unpacking it.
    package func identity(at position: Int) -> (
        environment: String, originalTransactionId: String, transactionId: String?
    ) {
        let t = held[position]
        return (
            pool.string(t.environment), pool.string(t.originalTransactionId),
            t.info.word(Self.transactionIdMember).flatMap { pool.text($0) }
        )
    }

    /// The transactions, in the order first seen, all made from their packed form (`transaction(at:)` makes one).
    package var transactions: [V1Transaction] {
        held.map { $0.unpacked(pool) }
    }

    /// Takes one V1 record's facts.
    package mutating func add(_ facts: V1RecordFacts) {
        add(facts, stateFacts: facts.stateFacts(of: statusSubscriptions))
    }

    /// Takes one V1 record's facts with its `stateFacts(of:)` for this collector's `statusSubscriptions`.
    package mutating func add(_ facts: V1RecordFacts, stateFacts kept: [(SubscriptionKey, StateFact)]) {
        if let time = facts.eventTime, !facts.eventTimeInferred {
            eventRange = eventRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        }
        if !facts.transactions.isEmpty {
            let environment = pool.token(facts.environment)
            for entry in facts.transactions {
                guard let id = entry.transactionId else {
                    withoutId += 1
                    continue
                }
                let key = HeldKey(environment: environment, transactionId: pool.token(id))
                let announces = id == facts.relevantTransactionId
                if let at = index[key] {
                    if held[at].adds(entry) {
                        var merged = held[at].unpacked(pool)
                        merged.merge(entry, at: facts.eventTime)
                        held[at] = Held(merged, pool: &pool)
                    }
                    if announces { held[at].announced = true }
                } else {
                    index[key] = held.count
                    let first = V1Transaction(
                        environment: facts.environment,
                        originalTransactionId: entry.originalTransactionId ?? facts.subscriptionId ?? "",
                        info: entry, announced: announces, source: facts.source, sourceType: facts.notificationType,
                        bundleId: facts.bundleId, learntAt: facts.eventTime)
                    held.append(Held(first, pool: &pool))
                }
            }
        }
        for (key, fact) in kept { self.stateFacts.append(fact, of: key, pool: &pool) }
    }
}

// MARK: - Reading records

extension V1TransactionCollector {
    /// The facts of one raw V1 record, read as `V1RecordMapper` reads it (secrets never parsed); nil for a record
    /// `migrate` would reject (the notification side counts those).
    package static func facts(of record: RawRecord, parser: JSONParser) -> V1RecordFacts? {
        do {
            let value = try parser.parse(record.bytes)
            let unwrapped = try Envelope.unwrap(value, parser: parser, location: record.location)
            let body = try ResponseBodyV1(unwrapped.body, location: record.location)
            return V1RecordFacts(body: body, receivedAt: unwrapped.receivedAt, location: record.location)
        } catch {
            return nil
        }
    }
}
