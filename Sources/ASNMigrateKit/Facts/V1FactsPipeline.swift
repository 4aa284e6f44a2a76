import Foundation

/// Reads V1 records into their facts on several threads, in input order: the one V1 reading of `reconcile`, `nightly`
/// and `fetch`. A record `TapeMigrator` maps goes through the one mapping over its tape straight into its facts
/// (`V2FactsSink`), with no model, no `String` and no JSON written to be read back; any other goes through
/// `FastRecordMapper` and its outcome's facts.
///
/// With `receipts`, each record's receipt facts (`V1RecordFacts`, what Apple's API view is compared with) come from the
/// same reading: from the context the mapping made of the tape, or from the body the model path decoded.
struct V1FactsPipeline: Sendable {
    /// One V1 record read.
    enum Item: Sendable {
        /// A migrated or unmapped record's facts.
        case facts(PackedFacts)
        /// A reject.
        case rejected(ASNError)
    }

    /// The receipt facts of one record that is not a reject.
    struct Receipt: Sendable {
        /// The index in `Batch.items` of the record.
        var item: Int
        /// Its transactions and renewal state.
        var facts: V1RecordFacts
        /// Its state facts about `Receipts.statusSubscriptions` (empty without them).
        var stateFacts: [(SubscriptionKey, StateFact)]
    }

    /// What a worker hands back.
    struct Batch: Sendable {
        /// Items in input order.
        var items: [Item] = []
        /// The facts' texts.
        var texts = FactTexts()
        /// With `receipts`: the receipt facts of the records that are not rejects, in input order.
        var receipts: [Receipt] = []
        /// Input bytes of the batch's records, each with its line break.
        var inputBytes = 0
        /// The failure after them.
        var failure: (any Error)?
    }

    /// Which receipt facts the workers make besides the facts.
    struct Receipts: Sendable {
        /// The subscriptions whose state facts each record gives (`V1RecordFacts.stateFacts(of:)`).
        var statusSubscriptions: Set<SubscriptionKey> = []
    }

    /// The model path, for records `TapeMigrator` leaves.
    let mapper: FastRecordMapper
    /// The migrators of the run.
    let migrators: TapeMigratorPool
    /// Mapping threads.
    let workers: Int
    /// The receipt facts made too; nil for none.
    let receipts: Receipts?
    /// Raw bytes per batch, roughly.
    let batchBytes = 2 << 20

    /// A pipeline mapping by `table`, making `receipts` too when given.
    init(table: MappingTable, workers: Int? = nil, receipts: Receipts? = nil) {
        mapper = FastRecordMapper(table: table)
        migrators = TapeMigratorPool(plan: TapeMigration(table: table))
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.receipts = receipts
    }

    /// Reads `source`'s records, calling `consume` with each batch in input order on the calling thread.
    func run(_ source: RecordSource, consume: (Batch) throws -> Void) throws {
        let (mapper, migrators, receipts) = (mapper, migrators, receipts)
        try OrderedBatchRun.run(
            source, batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
            process: { Self.pack($0, mapper, migrators, receipts: receipts) }
        ) { batch in
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    /// A worker's job: the facts of one batch (and their receipt facts with `receipts`).
    static func pack(
        _ items: [ReadItem], _ mapper: FastRecordMapper, _ migrators: TapeMigratorPool, receipts: Receipts? = nil
    ) -> Batch {
        var batch = Batch()
        batch.items.reserveCapacity(items.count)
        let migrator = migrators.take()
        defer { migrators.give(migrator) }
        var texts = FactTexts()
        var ranks: [UInt8] = []
        var receipt: V1RecordFacts?
        reading: for item in items {
            switch item {
            case .item(.record(let record)):
                batch.inputBytes += record.bytes.count + 1
                // The one mapping over the record's tape, into its facts.
                let packed = migrator.withMapped(record) { context, rule, _, bodyIndex -> PackedFacts in
                    if receipts != nil { receipt = V1RecordFacts(context, location: record.location) }
                    return migrator.withNotificationUUID(context.view.tape, bodyIndex) { uuid in
                        var sink = V2FactsSink(
                            view: context.view, rule: migrator.rule(rule), uuid: uuid, location: record.location,
                            texts: &texts, ranks: &ranks)
                        V2Builder.emit(context, rule: migrator.shape(rule), into: &sink)
                        return sink.finish(texts: &texts, ranks: &ranks)
                    }
                }
                if let packed {
                    batch.items.append(.facts(packed))
                } else {
                    let mapped =
                        receipts == nil ? MappedRecord(outcome: mapper.map(record)) : mapper.mapKeepingBody(record)
                    switch mapped.outcome {
                    case .rejected(let error):
                        batch.items.append(.rejected(error))
                        continue reading
                    case .migrated(let payload):
                        let facts = RecordFacts(payload, kind: .migrated, location: SourceLocation(path: ""))
                        batch.items.append(.facts(PackedFacts(facts, texts: &texts)))
                    case .unmapped(let unmapped):
                        batch.items.append(.facts(PackedFacts(RecordFacts(unmapped: unmapped), texts: &texts)))
                    }
                    receipt = mapped.body.map {
                        V1RecordFacts(body: $0, receivedAt: mapped.receivedAt, location: record.location)
                    }
                }
                if let receipts, let facts = receipt {
                    batch.receipts.append(
                        Receipt(
                            item: batch.items.count - 1, facts: facts,
                            stateFacts: facts.stateFacts(of: receipts.statusSubscriptions)))
                }
                receipt = nil
            case .item(.broken(let error)): batch.items.append(.rejected(error))
            case .failure(let error):
                batch.failure = error
                break reading
            }
        }
        swap(&batch.texts, &texts)
        return batch
    }
}
