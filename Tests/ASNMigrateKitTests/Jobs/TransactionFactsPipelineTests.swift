import Foundation
import Testing

@testable import ASNMigrateKit

/// Against Apple's API view, `reconcile` reads each V1 record's transaction facts from the body it mapped (one
/// decoding). These facts must be exactly what a fresh parse of the record gives (`V1TransactionCollector.facts`,
/// the reference), on the sample, the corpus, generated variants and damaged copies of them.
@Suite struct TransactionFactsPipelineTests {
    static let mapper: FastRecordMapper? = try? FastRecordMapper(table: MappingTable.builtIn())
    static let parser = JSONParser(skippingKeys: Envelope.secretKeys)

    /// Compares the one-decoding facts with the reference for `record`; returns whether the record had facts.
    @discardableResult
    static func check(_ record: RawRecord, _ label: String) throws -> Bool {
        let mapper = try #require(Self.mapper)
        let mapped = mapper.mapKeepingBody(record)
        let reference = V1TransactionCollector.facts(of: record, parser: parser)
        if case .rejected = mapped.outcome {
            #expect(mapped.body == nil, "\(label): a reject keeps no body")
            return false
        }
        let facts = mapped.body.map {
            V1RecordFacts(body: $0, receivedAt: mapped.receivedAt, location: record.location)
        }
        #expect(facts == reference, "\(label)")
        return facts != nil
    }

    /// The records of the sample archive and, when present, the corpus.
    static func records() throws -> [(RawRecord, String)] {
        var found: [(RawRecord, String)] = []
        var roots = [PackagePaths.sample.appendingPathComponent("v1").path]
        if let corpus = PackagePaths.corpusV1 { roots.append(corpus.path) }
        for file in try InputPaths.expand(roots) {
            for case .record(let record) in try RecordReader(file: file).items() {
                found.append((record, "\(file.path):\(record.location.line ?? 0)"))
            }
        }
        return found
    }

    @Test func factsFromTheMappedBodyEqualAFreshParse() throws {
        var withFacts = 0
        for (record, label) in try Self.records() where try Self.check(record, label) { withFacts += 1 }
        for (n, body) in FastV1Samples.variants.enumerated() {
            let record = RawRecord(location: SourceLocation(path: "variants", line: n + 1), bytes: Array(body.utf8))
            if try Self.check(record, "variant \(n)") { withFacts += 1 }
        }
        #expect(withFacts > 20, "most records have facts to compare (not vacuous): \(withFacts)")
    }

    @Test func damagedRecordsAgreeToo() throws {
        var random = SplitMix64(seed: 20)
        var compared = 0
        for (record, label) in try Self.records() {
            for _ in 0..<8 {
                var bytes = record.bytes
                guard !bytes.isEmpty else { continue }
                let at = Int(random.next() % UInt64(bytes.count))
                bytes[at] = [0x22, 0x7D, 0x30, 0x2C, 0x20, 0x5C][Int(random.next() % 6)]
                try Self.check(RawRecord(location: record.location, bytes: bytes), "\(label) byte \(at)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }
}
