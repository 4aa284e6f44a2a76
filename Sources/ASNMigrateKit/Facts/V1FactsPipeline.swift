import Foundation

/// Reads V1 records into their facts on several threads for `reconcile`, in input order, as `MigrationPipeline` and
/// `ReconciliationInputs.addV1` together would: a record `TapeMigrator` maps goes through the one mapping over its tape
/// straight into its facts (`V2FactsSink`), with no model, no `String` and no JSON written to be read back; any other
/// goes through `FastRecordMapper` and its outcome's facts.
struct V1FactsPipeline: Sendable {
    /// One V1 record read.
    enum Item: Sendable {
        /// A migrated or unmapped record's facts.
        case facts(PackedFacts)
        /// A reject.
        case rejected(ASNError)
    }

    /// What a worker hands back.
    struct Batch: Sendable {
        /// Items in input order.
        var items: [Item] = []
        /// The facts' texts.
        var texts = FactTexts()
        /// Input bytes of the batch's records, each with its line break.
        var inputBytes = 0
        /// The failure after them.
        var failure: (any Error)?
    }

    /// The model path, for records `TapeMigrator` leaves.
    let mapper: FastRecordMapper
    /// The migrators of the run.
    let migrators: TapeMigratorPool
    /// Mapping threads.
    let workers: Int
    /// Raw bytes per batch, roughly.
    let batchBytes = 2 << 20

    /// A pipeline mapping by `table`.
    init(table: MappingTable, workers: Int? = nil) {
        mapper = FastRecordMapper(table: table)
        migrators = TapeMigratorPool(plan: TapeMigration(table: table))
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Reads `source`'s records, calling `consume` with each batch in input order on the calling thread.
    func run(_ source: RecordSource, consume: (Batch) throws -> Void) throws {
        let (mapper, migrators) = (mapper, migrators)
        try OrderedBatchRun.run(
            source, batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
            process: { Self.pack($0, mapper, migrators) }
        ) { batch in
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    /// A worker's job: the facts of one batch.
    static func pack(_ items: [ReadItem], _ mapper: FastRecordMapper, _ migrators: TapeMigratorPool) -> Batch {
        var batch = Batch()
        batch.items.reserveCapacity(items.count)
        let migrator = migrators.take()
        defer { migrators.give(migrator) }
        var texts = FactTexts()
        var ranks: [UInt8] = []
        reading: for item in items {
            switch item {
            case .item(.record(let record)):
                batch.inputBytes += record.bytes.count + 1
                // The one mapping over the record's tape, into its facts.
                let packed = migrator.withMapped(record) { context, rule, _, bodyIndex -> PackedFacts in
                    migrator.withNotificationUUID(context.view.tape, bodyIndex) { uuid in
                        var sink = V2FactsSink(
                            view: context.view, rule: migrator.rule(rule), uuid: uuid, location: record.location,
                            texts: &texts, ranks: &ranks)
                        V2Builder.emit(context, rule: migrator.shape(rule), into: &sink)
                        return sink.finish(texts: &texts, ranks: &ranks)
                    }
                }
                if let packed {
                    batch.items.append(.facts(packed))
                    continue
                }
                switch mapper.map(record) {
                case .rejected(let error): batch.items.append(.rejected(error))
                case .migrated(let payload):
                    let facts = RecordFacts(payload, kind: .migrated, location: SourceLocation(path: ""))
                    batch.items.append(.facts(PackedFacts(facts, texts: &texts)))
                case .unmapped(let unmapped):
                    batch.items.append(.facts(PackedFacts(RecordFacts(unmapped: unmapped), texts: &texts)))
                }
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
