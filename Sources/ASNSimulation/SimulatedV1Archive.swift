import ASNMigrateKit

/// What one subscriber's V1 lines tell about transactions, read as `reconcile` reads them against Apple's API view
/// (`V1TransactionCollector.facts`), so the simulator can tell what a lost V1 notification or a perturbed API view
/// changes in that comparison.
///
/// Records are taken in the order `reconcile` reads them: by the UTC month file of their delivery, then in the order
/// written (the subscriber's records are written in time order). Retries repeat a record's facts and change nothing.
package struct SimulatedV1Archive: Sendable {
    /// One transaction as the V1 lines show it.
    package struct Seen: Sendable, Equatable {
        /// The transaction merged over every written record that shows it (`V1Transaction.merge`); its `source` is empty.
        package var transaction: V1Transaction
        /// The index of the first record (in reading order) that shows it: its line is the transaction's `v1_source`.
        package var firstRecord: Int
    }

    /// The facts of each record's V1 line (nil for a record without one).
    package let facts: [V1RecordFacts?]
    /// Record indices in reading order.
    package let readingOrder: [Int]

    /// Reads the V1 lines of a subscriber's records.
    package init(records: [SimulatedRecord]) {
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        facts = records.map { record in
            record.v1Line.flatMap {
                V1TransactionCollector.facts(
                    of: RawRecord(location: SourceLocation(path: "v1"), bytes: $0), parser: parser)
            }
        }
        readingOrder = records.indices.sorted { a, b in
            let ma = SimulationCalendar.monthKey(records[a].v1DeliveryTime)
            let mb = SimulationCalendar.monthKey(records[b].v1DeliveryTime)
            return ma != mb ? ma < mb : a < b
        }
    }

    /// The transactions the lines show when the records in `dropped` are not written, by transactionId.
    package func transactions(dropping dropped: Set<Int>) -> [String: Seen] {
        var seen: [String: Seen] = [:]
        for index in readingOrder where !dropped.contains(index) {
            guard let facts = facts[index] else { continue }
            for entry in facts.transactions {
                guard let id = entry.transactionId else { continue }
                let announces = id == facts.relevantTransactionId
                if seen[id] != nil {
                    seen[id]?.transaction.merge(entry, at: facts.eventTime)
                    if announces { seen[id]?.transaction.announced = true }
                } else {
                    let transaction = V1Transaction(
                        environment: facts.environment,
                        originalTransactionId: entry.originalTransactionId ?? facts.subscriptionId ?? "",
                        info: entry, announced: announces, source: "", sourceType: facts.notificationType,
                        bundleId: facts.bundleId, learntAt: facts.eventTime)
                    seen[id] = Seen(transaction: transaction, firstRecord: index)
                }
            }
        }
        return seen
    }

    /// V1's state of subscription `originalTransactionId` at `instant` when the records in `dropped` are not written
    /// (`SubscriptionStatusComparison.state`, over the records in reading order).
    package func state(of originalTransactionId: String, dropping dropped: Set<Int>, at instant: Int64)
        -> SubscriptionState?
    {
        let kept = readingOrder.filter { !dropped.contains($0) }.compactMap { facts[$0] }
        return SubscriptionStatusComparison.state(of: originalTransactionId, records: kept, at: instant)
    }
}
