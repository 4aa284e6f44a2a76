import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// `migrate`'s direct path (`TapeMigrator`: V2 JSON written from a record's bytes) against the reference
/// (`V1RecordMapper` and `MigrationOutput.appendJSONLine`): where it answers, the same bytes and the same route; where
/// it declines, nothing written. Over the sample, the corpus, simulated data, generated bodies of every shape the
/// mapping reads, and fuzzed input.
@Suite struct TapeMigratorTests {
    /// The built-in mapping table.
    static let table: MappingTable = FastRecordMapperTests.table
    /// The plan of the table.
    static let plan = TapeMigration(table: table)
    /// The reference.
    static let reference = V1RecordMapper(table: table)

    /// Whether the direct path agrees with the reference on `record`, recording a failure naming `label` if not;
    /// returns whether it answered itself.
    @discardableResult
    static func check(_ record: RawRecord, _ migrator: TapeMigrator, _ label: @autoclosure () -> String) -> Bool {
        var out: [UInt8] = [0x2A]
        guard let taken = migrator.migrate(record, into: &out) else {
            #expect(out == [0x2A], "declined but wrote: \(label())")
            return false
        }
        guard case .migrated(let payload) = reference.map(record) else {
            Issue.record("direct path migrated what the reference does not: \(label())")
            return true
        }
        var expected: [UInt8] = [0x2A]
        MigrationOutput.appendJSONLine(payload, to: &expected)
        if out != expected {
            Issue.record(
                "direct path differs on \(label()):\ndirect:    \(String(decoding: out, as: UTF8.self))reference: \(String(decoding: expected, as: UTF8.self))"
            )
        }
        let route = plan.routes[taken]
        #expect(route.v1Type == payload.migration?.v1NotificationType, "\(label())")
        #expect(route.v2Type == payload.notificationType && route.v2Subtype == payload.subtype, "\(label())")
        return true
    }

    /// A record at a fixed location.
    static func record(_ text: String, line: Int = 7) -> RawRecord {
        RawRecord(location: SourceLocation(path: "in \"dir\"/a.jsonl", line: line), bytes: Array(text.utf8))
    }

    // MARK: - Real, sample and simulated data

    @Test(.enabled(if: FastRecordMapperTests.sampleDirectory != nil, "needs Tests/Fixtures/sample"))
    func agreesOnTheSampleData() throws {
        let directory = try #require(FastRecordMapperTests.sampleDirectory)
        let migrator = TapeMigrator(plan: Self.plan)
        var records = 0
        var answered = 0
        for file in try InputPaths.expand([directory.path]) {
            for case .record(let record) in try RecordReader(file: file).items() {
                records += 1
                if Self.check(record, migrator, "\(file.path):\(record.location.line ?? 0)") { answered += 1 }
            }
        }
        #expect(records > 0)
        #expect(answered > 0)
    }

    @Test(.enabled(if: FastRecordMapperTests.corpusDirectory != nil, "needs ../shared/corpus"))
    func agreesOnTheCorpus() throws {
        let migrator = TapeMigrator(plan: Self.plan)
        let records = try FastRecordMapperTests.forEachCorpusRecord { record, label in
            Self.check(record, migrator, label)
        }
        #expect(records > 0)
    }

    @Test func agreesOnSimulatedDataAndTakesItsEveryRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try SimulationFixture.run(subscribers: 60, seed: 5, months: 14, into: directory)
        let migrator = TapeMigrator(plan: Self.plan)
        var records = 0
        var answered = 0
        for case .record(let record) in try SimulationFixture.items(run.out + "/v1") {
            records += 1
            if Self.check(record, migrator, "\(record.location.source)") { answered += 1 }
        }
        #expect(records > 300)
        // Simulated records are the shapes real archives have: every one must take the direct path.
        #expect(answered == records)
    }

    // MARK: - Generated data

    @Test func agreesOnTheFastPathVariants() {
        let migrator = TapeMigrator(plan: Self.plan)
        var answered = 0
        for (n, text) in FastV1Samples.variants.enumerated()
        where Self.check(Self.record(text), migrator, "variant \(n): \(text)") {
            answered += 1
        }
        #expect(answered >= FastV1Samples.variants.count / 3)
    }

    @Test func agreesOnRandomBodiesOfEveryShapeTheMappingReads() {
        var random = SplitMix64(seed: 31)
        let migrator = TapeMigrator(plan: Self.plan)
        var answered = 0
        let rounds = 3000
        for round in 0..<rounds {
            let text = TapeMigratorSamples.body(using: &random)
            if Self.check(Self.record(text, line: round + 1), migrator, "round \(round): \(text)") { answered += 1 }
        }
        // Most generated bodies are ordinary: the direct path must answer them, or this proves little.
        #expect(answered > rounds / 2)
    }

    @Test func agreesOnMutatedInput() {
        var random = SplitMix64(seed: 77)
        let migrator = TapeMigrator(plan: Self.plan)
        for round in 0..<1500 {
            var bytes = Array(TapeMigratorSamples.body(using: &random).utf8)
            let at = random.below(bytes.count)
            switch round % 3 {
            case 0: bytes = Array(bytes[..<at])
            case 1: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(6)))
            }
            let record = RawRecord(location: SourceLocation(path: "m.jsonl", line: round + 1), bytes: bytes)
            Self.check(record, migrator, "mutation \(round): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// The notificationUUID streamed into SHA-1 through a small chunk is the one of the canonical text: long
    /// strings, many members and deep nesting cross the chunk's edges.
    @Test func streamedDigestMatchesTheCanonicalText() throws {
        var random = SplitMix64(seed: 5)
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 7)
        defer { chunk.deallocate() }
        var writer = TapeCanonicalWriter(chunk: chunk, capacity: 7)
        var checked = 0
        for round in 0..<400 {
            let bytes = JSONSamples.text(JSONSamples.value(using: &random, depth: 1 + round % 5), using: &random)
            let expected = SHA1.digest(V1RecordMapper.uuidNamespace + JSONWriter.canonical(try parser.parse(bytes)))
            let ours = bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
                guard let base = buffer.baseAddress else { return nil }
                var tape = JSONTape(base: base, count: buffer.count)
                guard tape.build() else { return nil }
                var digest = [UInt8](repeating: 0, count: 20)
                V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
                    digest.withUnsafeMutableBufferPointer { d in
                        if let p = d.baseAddress { writer.digest(prefix: namespace, tape, 0, into: p) }
                    }
                }
                return digest
            }
            guard let ours else { continue }
            checked += 1
            #expect(ours == expected, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(checked > 200)
    }

    /// One writer across documents whose objects share key lists, in other orders, with duplicates and empty keys:
    /// its cache of sorted orders must never give one object another's order.
    @Test func streamedDigestKeepsEachKeyListsOrderAcrossDocuments() throws {
        let documents = [
            #"{"b":1,"a":2,"c":{"b":1,"a":2}}"#, #"{"a":1,"b":2,"c":{"a":1,"b":2}}"#, #"{"b":1,"a":2,"a":3}"#,
            #"{"":1,"a":[{"b":1,"a":2},{"a":1,"b":2},{}],"b":{}}"#, #"{"b":1,"a":2}"#, #"{"ab":1,"a":2,"b":3}"#,
            #"{"a":1,"ab":2,"b":3}"#, #"{"b":{"":0,"z":{"y":1,"x":2}},"a":{"z":{"x":1,"y":2}}}"#, #"{}"#,
            #"{"b":1,"a":2}"#
        ]
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 5)
        defer { chunk.deallocate() }
        var writer = TapeCanonicalWriter(chunk: chunk, capacity: 5)
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        for round in 0..<3 {
            for text in documents {
                let bytes = Array(text.utf8)
                let expected = SHA1.digest(V1RecordMapper.uuidNamespace + JSONWriter.canonical(try parser.parse(bytes)))
                var digest = [UInt8](repeating: 0, count: 20)
                bytes.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    var tape = JSONTape(base: base, count: buffer.count)
                    guard tape.build() else { return }
                    V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
                        digest.withUnsafeMutableBufferPointer { d in
                            if let p = d.baseAddress { writer.digest(prefix: namespace, tape, 0, into: p) }
                        }
                    }
                }
                #expect(digest == expected, "round \(round): \(text)")
            }
        }
    }

    /// A huge record's tape is not kept once its batch is done: the pool trims what it gives back.
    @Test func aHugeRecordsBuffersAreNotKept() throws {
        let pool = TapeMigratorPool(plan: Self.plan)
        let migrator = pool.take()
        let huge = FastV1Samples.body(renewals: 3000)
        var out: [UInt8] = []
        #expect(migrator.migrate(Self.record(huge), into: &out) != nil)
        #expect(migrator.tokenCapacity > TapeMigrator.keptTokens)
        pool.give(migrator)
        #expect(migrator.tokenCapacity <= TapeMigrator.keptTokens)
        // And it still migrates as the reference does afterwards.
        #expect(Self.check(Self.record(FastV1Samples.body(renewals: 3)), pool.take(), "after trimming"))
    }

    @Test func matchesTheRulesDigitComparison() throws {
        let cases: [(String?, String?, Bool)] = [
            ("1", "1", true), ("01", "1", true), ("0", "0", true), ("00", "0", true), ("", "0", true),
            ("0", "000", true), ("2", "1", false), (nil, nil, true), (nil, "1", false), ("1", nil, false),
            ("10", "1", false), ("1", "10", false)
        ]
        for (value, argument, expected) in cases {
            // The value as the one string of a tape, read through the view as the rules read a code.
            let bytes = Array("[\"\(value ?? "")\"]".utf8)
            let answer = try bytes.withUnsafeBufferPointer { buffer -> Bool in
                let base = try #require(buffer.baseAddress)
                var tape = JSONTape(base: base, count: buffer.count)
                let built = tape.build()
                #expect(built)
                let view = TapeRecordView(tape: tape, notificationType: 1, body: [], entries: [], pendings: [])
                return view.digitsMatch(value == nil ? nil : 1, argument)
            }
            #expect(answer == expected, "\(String(describing: value)) vs \(String(describing: argument))")
        }
        // The models' view answers alike.
        for (value, argument, expected) in cases where value != "" {
            let body = ResponseBodyV1(notificationType: "")
            #expect(body.digitsMatch(value, argument) == expected, "\(String(describing: value))")
        }
    }
}
