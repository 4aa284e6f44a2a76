import Foundation

/// Reads V1 records into their facts on several threads for `reconcile`, in input order, as `MigrationPipeline` and
/// `ReconciliationInputs.addV1` together would: a record `TapeMigrator` maps is written as its V2 JSON and packed from
/// those bytes (`V2FactsPacker`), with no model or `String`; any other goes through `FastRecordMapper` and its
/// outcome's facts.
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

    /// Reads `files`, calling `consume` with each batch in input order on the calling thread.
    func run(files: [InputFile], consume: (Batch) throws -> Void) throws {
        let (mapper, migrators) = (mapper, migrators)
        try OrderedBatchRun.run(
            files: files, batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
            process: { Self.pack($0, mapper, migrators) }
        ) { batch in
            if let failure = batch.failure { throw failure }
            try consume(batch)
        }
    }

    /// Reads the records `produce` emits (a database's rows), as `run(files:…)` does.
    func run(
        produce: @escaping @Sendable (_ emit: (InputItem) throws -> Void) throws -> Void,
        consume: (Batch) throws -> Void
    ) throws {
        let (mapper, migrators) = (mapper, migrators)
        try OrderedBatchRun.run(
            produce: produce, batchBytes: batchBytes, workers: workers, capacity: 2 * workers + 2,
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
        let scratch = V2DecodeScratch()
        let packer = V2FactsPacker()
        var json: [UInt8] = []
        reading: for item in items {
            switch item {
            case .item(.record(let record)):
                batch.inputBytes += record.bytes.count + 1
                json.removeAll(keepingCapacity: true)
                if migrator.migrate(record, into: &json) != nil {
                    json.removeLast() // the line break
                    if packer.packMigrated(json, scratch: scratch) {
                        batch.items.append(.facts(packer.facts))
                        continue
                    }
                }
                switch mapper.map(record) {
                case .rejected(let error): batch.items.append(.rejected(error))
                case .migrated(let payload):
                    let facts = RecordFacts(payload, kind: .migrated, location: SourceLocation(path: ""))
                    batch.items.append(.facts(PackedFacts(facts, texts: &packer.texts)))
                case .unmapped(let unmapped):
                    batch.items.append(.facts(PackedFacts(RecordFacts(unmapped: unmapped), texts: &packer.texts)))
                }
            case .item(.broken(let error)): batch.items.append(.rejected(error))
            case .failure(let error):
                batch.failure = error
                break reading
            }
        }
        swap(&batch.texts, &packer.texts)
        return batch
    }
}
