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

    /// The transactions, in the order first seen.
    package private(set) var transactions: [V1Transaction] = []
    /// Where each transaction is in `transactions`.
    package private(set) var index: [Key: Int] = [:]
    /// Receipt entries without a transaction_id (they cannot be compared).
    package private(set) var withoutId = 0
    /// The earliest and latest non-inferred notification event time seen.
    package private(set) var eventRange: ClosedRange<Int64>?
    /// The state facts of every record of the subscriptions in `statusSubscriptions` (`V1RecordFacts.stateFact(of:)`;
    /// records without an event time tell no state and are left out), in input order.
    package private(set) var stateFactsBySubscription: [SubscriptionKey: [StateFact]] = [:]
    /// One copy of each repeated text the kept transactions and state facts hold: a transaction shown by many records'
    /// receipts, or a product named by many, is held once.
    private var strings = SharedStrings()
    /// The subscriptions whose records are kept for the status comparison.
    package let statusSubscriptions: Set<SubscriptionKey>

    /// Creates an empty collector keeping records of `statusSubscriptions`.
    package init(statusSubscriptions: Set<SubscriptionKey> = []) {
        self.statusSubscriptions = statusSubscriptions
    }

    /// Takes one V1 record's facts.
    package mutating func add(_ facts: V1RecordFacts) {
        if let time = facts.eventTime, !facts.eventTimeInferred {
            eventRange = eventRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        }
        for entry in facts.transactions {
            guard let id = entry.transactionId else {
                withoutId += 1
                continue
            }
            let key = Key(environment: facts.environment, transactionId: id)
            let announces = id == facts.relevantTransactionId
            if let at = index[key] {
                transactions[at].merge(entry, at: facts.eventTime)
                if announces { transactions[at].announced = true }
            } else {
                index[key] = transactions.count
                var info = entry
                info.shareText(&strings)
                // The state facts below hold every transaction id once already: the transaction shares that copy.
                if !statusSubscriptions.isEmpty { info.transactionId = strings.share(info.transactionId) }
                transactions.append(
                    V1Transaction(
                        environment: strings.share(facts.environment),
                        originalTransactionId: strings.share(entry.originalTransactionId ?? facts.subscriptionId ?? ""),
                        info: info, announced: announces, source: facts.source,
                        sourceType: strings.share(facts.notificationType), bundleId: strings.share(facts.bundleId),
                        learntAt: facts.eventTime))
            }
        }
        if !statusSubscriptions.isEmpty {
            var subscriptions = Set(facts.transactions.compactMap { $0.originalTransactionId })
            if let id = facts.subscriptionId { subscriptions.insert(id) }
            for id in subscriptions {
                let key = SubscriptionKey(environment: facts.environment, originalTransactionId: id)
                guard statusSubscriptions.contains(key), var fact = facts.stateFact(of: id) else { continue }
                for at in fact.transactions.indices {
                    fact.transactions[at].transactionId = strings.share(fact.transactions[at].transactionId)
                    fact.transactions[at].productId = strings.share(fact.transactions[at].productId)
                }
                let renewalProduct = strings.share(fact.renewal?.autoRenewProductId)
                fact.renewal?.autoRenewProductId = renewalProduct
                stateFactsBySubscription[key, default: []].append(fact)
            }
        }
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
