import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// `reconcile`'s V1 reading (`V1FactsPipeline`: facts packed from `TapeMigrator`'s V2 bytes, else from the model
/// path's outcome) gives each record exactly the facts or reject `ReconciliationInputs.addV1` takes from the reference
/// mapper's outcome: on the sample, the corpus, simulated data, generated bodies of every shape and mutated input.
@Suite struct V1FactsPipelineTests {
    /// The built-in mapping table.
    static let table = FastRecordMapperTests.table
    /// The reference.
    static let reference = V1RecordMapper(table: table)

    /// The reference's reading of `record`: its facts, or its reject.
    static func expected(_ record: RawRecord) -> Result<RecordFacts, ASNError> {
        switch reference.map(record) {
        case .rejected(let error): return .failure(error)
        case .migrated(let payload):
            return .success(RecordFacts(payload, kind: .migrated, location: SourceLocation(path: "")))
        case .unmapped(let unmapped): return .success(RecordFacts(unmapped: unmapped))
        }
    }

    /// The reference's receipt facts of a record: a fresh parse (`V1TransactionCollector.facts`).
    static let parser = JSONParser(skippingKeys: Envelope.secretKeys)

    /// Packs `records` as one batch and checks every item against the reference; returns how many were packed
    /// straight from the V2 bytes (not through a model). The same batch packed with receipts gives the same items and,
    /// for each record that is not a reject, exactly the receipt facts and state facts a fresh parse gives.
    @discardableResult
    static func check(_ records: [RawRecord], _ label: String) -> Int {
        let pipeline = V1FactsPipeline(table: table, workers: 1)
        let batch = V1FactsPipeline.pack(
            records.map { .item(.record($0)) }, pipeline.mapper, pipeline.migrators)
        #expect(batch.items.count == records.count, "\(label): one item a record")
        #expect(batch.receipts.isEmpty, "\(label): no receipt facts unless asked")
        let references = records.map { V1TransactionCollector.facts(of: $0, parser: parser) }
        let statusKeys = Set(
            references.compactMap { $0 }.flatMap { facts in
                facts.transactions.compactMap(\.originalTransactionId).map {
                    SubscriptionKey(environment: facts.environment, originalTransactionId: $0)
                }
            })
        let withReceipts = V1FactsPipeline.pack(
            records.map { .item(.record($0)) }, pipeline.mapper, pipeline.migrators,
            receipts: .init(statusSubscriptions: statusKeys))
        var receipts = withReceipts.receipts.makeIterator()
        var receipt = receipts.next()
        let migrator = TapeMigrator(plan: TapeMigration(table: table))
        var direct = 0
        for (n, (record, item)) in zip(records, batch.items).enumerated() {
            var json: [UInt8] = []
            if migrator.migrate(record, into: &json) != nil { direct += 1 }
            let place = "\(label) \(record.location.source)"
            switch (item, expected(record)) {
            case (.facts(let facts), .success(let want)):
                #expect(facts.facts(in: batch.texts) == want, "\(place): facts differ")
            case (.rejected(let error), .failure(let want)):
                #expect(error == want, "\(place): rejects differ")
            default: Issue.record("\(place): \(item) but the reference gives \(expected(record))")
            }
            guard n < withReceipts.items.count else { continue }
            switch (item, withReceipts.items[n]) {
            case (.facts(let a), .facts(let b)):
                #expect(a.facts(in: batch.texts) == b.facts(in: withReceipts.texts), "\(place): receipts change facts")
            case (.rejected(let a), .rejected(let b)): #expect(a == b, "\(place)")
            default: Issue.record("\(place): receipts change the item")
            }
            if case .rejected = item { continue }
            guard let found = receipt, found.item == n else {
                #expect(references[n] == nil, "\(place): no receipt facts where a fresh parse has them")
                continue
            }
            receipt = receipts.next()
            #expect(found.facts == references[n], "\(place): receipt facts differ")
            if let reference = references[n] {
                // One fact per subscription: their order (a set's) does not matter.
                let want = reference.stateFacts(of: statusKeys).sorted { $0.0 < $1.0 }
                let got = found.stateFacts.sorted { $0.0 < $1.0 }
                #expect(got.map(\.0) == want.map(\.0), "\(place): state fact keys differ")
                #expect(got.map(\.1) == want.map(\.1), "\(place): state facts differ")
            }
        }
        #expect(receipt == nil, "\(label): a receipt for no record")
        return direct
    }

    @Test(.enabled(if: FastRecordMapperTests.sampleDirectory != nil, "needs Tests/Fixtures/sample"))
    func agreesOnTheSampleData() throws {
        let directory = try #require(FastRecordMapperTests.sampleDirectory)
        var records: [RawRecord] = []
        for file in try InputPaths.expand([directory.path]) {
            for case .record(let record) in try RecordReader(file: file).items() { records.append(record) }
        }
        for (n, body) in FastV1Samples.variants.enumerated() {
            records.append(RawRecord(location: SourceLocation(path: "variants", line: n + 1), bytes: Array(body.utf8)))
        }
        #expect(records.count > 10)
        #expect(Self.check(records, "sample") > 0)
    }

    @Test(.enabled(if: FastRecordMapperTests.corpusDirectory != nil, "needs ../shared/corpus"))
    func agreesOnTheCorpus() throws {
        var records: [RawRecord] = []
        _ = try FastRecordMapperTests.forEachCorpusRecord { record, _ in records.append(record) }
        #expect(!records.isEmpty)
        Self.check(records, "corpus")
    }

    @Test func agreesOnSimulatedDataAndPacksEveryRecordFromItsBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try SimulationFixture.run(subscribers: 40, seed: 9, months: 14, into: directory)
        var records: [RawRecord] = []
        for case .record(let record) in try SimulationFixture.items(run.out + "/v1") { records.append(record) }
        #expect(records.count > 200)
        #expect(Self.check(records, "simulated") == records.count)
    }

    @Test func agreesOnRandomAndMutatedBodies() {
        var random = SplitMix64(seed: 57)
        var records: [RawRecord] = []
        for round in 0..<3000 {
            var bytes = Array(TapeMigratorSamples.body(using: &random).utf8)
            if round % 2 == 1 {
                let at = random.below(bytes.count)
                switch round % 3 {
                case 0: bytes = Array(bytes[..<at])
                case 1: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
                default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(6)))
                }
            }
            records.append(RawRecord(location: SourceLocation(path: "r \"x\".jsonl", line: round + 1), bytes: bytes))
        }
        #expect(Self.check(records, "random") > 1000)
    }
}
