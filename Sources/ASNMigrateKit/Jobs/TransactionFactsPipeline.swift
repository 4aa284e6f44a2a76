import Foundation

/// `reconcile`'s V1 pass when Apple's API view is on the V2 side: like `MigrationPipeline`, but each worker also reads
/// every record's transaction facts (`V1TransactionCollector.facts`), so the archive is read once for both comparisons.
package struct TransactionFactsPipeline: Sendable {
    /// The per-record mapping stage (the fast path in `reconcile`).
    package let mapper: any RecordMapping
    /// Worker threads.
    package let workers: Int
    /// The subscriptions whose records' state facts the workers make (`V1TransactionCollector.keptStateFacts`).
    package let statusSubscriptions: Set<SubscriptionKey>

    /// Creates a pipeline; `workers` defaults to the active processor count; each record's state facts about
    /// `statusSubscriptions` are made on the workers too.
    package init(mapper: any RecordMapping, workers: Int? = nil, statusSubscriptions: Set<SubscriptionKey> = []) {
        self.mapper = mapper
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.statusSubscriptions = statusSubscriptions
    }

    /// One batch: the mapped outcomes and the facts of the records that are not rejects, both in input order.
    package struct Batch: Sendable {
        /// The mapping outcomes.
        package var outcomes: [V1RecordOutcome] = []
        /// The transaction facts.
        package var facts: [V1RecordFacts] = []
        /// For each of `facts`, its state facts about the pipeline's `statusSubscriptions` (empty without them).
        package var stateFacts: [[(SubscriptionKey, StateFact)]] = []
        /// For each of `facts`, the index in `outcomes` of the record it was read from.
        package var factOutcomes: [Int] = []
        /// Input bytes of the batch's records, each with its line break (for the progress line).
        package var inputBytes = 0
        /// An error that ends the run here.
        fileprivate var failure: (any Error)?
    }

    /// Runs over `source`'s records, calling `consume` with each batch in input order on the calling thread.
    package func run(_ source: RecordSource, consume: (Batch) throws -> Void) throws {
        let mapper = self.mapper
        let kept = statusSubscriptions
        try OrderedBatchRun.run(
            source, batchBytes: 2 << 20, workers: workers, capacity: 2 * workers + 2,
            process: { items in Self.process(items, mapper: mapper, keeping: kept) }
        ) { batch in
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    // MARK: - Private

    /// A worker's job.
    private static func process(_ items: [ReadItem], mapper: any RecordMapping, keeping: Set<SubscriptionKey>)
        -> Batch
    {
        var batch = Batch()
        for item in items {
            switch item {
            case .item(.record(let record)):
                batch.inputBytes += record.bytes.count + 1
                // One decoding for both: the facts come from the body the record was mapped from.
                let mapped = mapper.mapKeepingBody(record)
                batch.outcomes.append(mapped.outcome)
                if case .rejected = mapped.outcome { continue }
                if let body = mapped.body {
                    let facts = V1RecordFacts(body: body, receivedAt: mapped.receivedAt, location: record.location)
                    batch.factOutcomes.append(batch.outcomes.count - 1)
                    batch.facts.append(facts)
                    if !keeping.isEmpty {
                        batch.stateFacts.append(V1TransactionCollector.keptStateFacts(facts, of: keeping))
                    }
                }
            case .item(.broken(let error)):
                batch.outcomes.append(.rejected(error))
            case .failure(let error):
                batch.failure = error
                return batch
            }
        }
        return batch
    }
}
