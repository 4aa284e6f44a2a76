import Foundation
import Testing

@testable import ASNMigrateKit

/// The parallel pipeline and `migrate` on it against a plain sequential loop over the reference path.
@Suite struct MigrationPipelineTests {
    /// A multi-thousand-record JSON Lines input mixing migrated, unmapped, rejected, broken and blank lines.
    static func mixedInput(records: Int) -> [UInt8] {
        var random = SplitMix64(seed: 11)
        var text = ""
        let types = [
            "DID_RENEW", "INITIAL_BUY", "CANCEL", "DID_CHANGE_RENEWAL_STATUS", "SOMETHING_NEW", "DID_FAIL_TO_RENEW"
        ]
        for n in 0..<records {
            switch random.below(20) {
            case 0: text += "{\"notification_type\":\"DID_RENEW\",\"bid\":\n"
            case 1: text += "not json at all\n"
            case 2: text += "   \n"
            case 3: text += "{\"body\":{\"received_at\":\(1_614_592_800_000 + n),\"notification_type\":5}}\n"
            default:
                text +=
                    FastV1Samples.body(
                        type: types[random.below(types.count)], renewals: random.below(4),
                        original: String(1_000_000 + n % 50)) + "\n"
            }
        }
        return Array(text.utf8)
    }

    @Test func matchesTheSequentialLoopInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try directory.write("a.jsonl", Self.mixedInput(records: 2000))
        let second = try directory.write(
            "b.jsonl", Array("[{\"notification_type\":\"DID_RENEW\"},{\"x\":1}, junk]".utf8))
        let files = [
            InputFile(path: first), InputFile(path: second), InputFile(path: directory.path + "/missing.jsonl")
        ]
        let reference = V1RecordMapper(table: try MappingTable.builtIn())

        var expected: [V1RecordOutcome] = []
        var expectedLines: [UInt8] = []
        for file in files {
            do {
                try RecordReader(file: file).forEach { item in
                    switch item {
                    case .record(let record): expected.append(reference.map(record))
                    case .broken(let error): expected.append(.rejected(error))
                    }
                }
            } catch let error as ASNError where error.code == .unreadableInput || error.code == .malformedJSON {
                expected.append(.rejected(error))
            }
        }
        for case .migrated(let payload) in expected { MigrationOutput.appendJSONLine(payload, to: &expectedLines) }

        for workers in [1, 3] {
            let pipeline = MigrationPipeline(
                mapper: FastRecordMapper(table: try MappingTable.builtIn()), workers: workers,
                batchBytes: 4096, maxBatchesInFlight: 3)
            var outcomes: [V1RecordOutcome] = []
            var lines: [UInt8] = []
            try pipeline.run(.files(files), renderJSONLines: true) { batch in
                outcomes += batch.outcomes
                lines += batch.jsonLines
            }
            #expect(outcomes == expected)
            #expect(lines == expectedLines)
        }
    }

    @Test func stopsWhenTheConsumerThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("a.jsonl", Self.mixedInput(records: 500))
        let pipeline = MigrationPipeline(
            mapper: V1RecordMapper(table: try MappingTable.builtIn()), workers: 2, batchBytes: 1024,
            maxBatchesInFlight: 2)
        var consumed = 0
        #expect(throws: ASNError.self) {
            try pipeline.run(.files([InputFile(path: path)]), renderJSONLines: false) { _ in
                consumed += 1
                if consumed == 3 { throw ASNError(.outputFailed, "disk full") }
            }
        }
        #expect(consumed == 3)
    }

    @Test(arguments: ["jsonl", "csv"])
    func migrateWritesTheSameBytesAsTheReferenceRun(format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write("in.jsonl", Self.mixedInput(records: 2000))
        func run(fast: Bool, workers: Int, name: String) throws -> (
            status: ASNMigrateKit.ExitStatus, out: [UInt8], rejects: [UInt8]
        ) {
            let arguments = [
                "migrate", input, "--format", format, "--out", directory.path + "/\(name).out", "--rejects",
                directory.path + "/\(name).csv"
            ]
            guard case .run(let parsed) = try ASNMigrateCLI.program().parse(arguments) else {
                Issue.record("arguments did not parse")
                return (.failure, [], [])
            }
            let console = Console(output: { _ in }, diagnostic: { _ in })
            let status = MigrateCommand.run(parsed, console: console, fastPath: fast, workers: workers)
            return (status, try directory.read("\(name).out"), try directory.read("\(name).csv"))
        }
        let reference = try run(fast: false, workers: 1, name: "reference")
        let parallel = try run(fast: true, workers: 4, name: "parallel")
        #expect(reference.status == .findings)
        #expect(parallel.status == reference.status)
        #expect(parallel.out == reference.out)
        #expect(parallel.rejects == reference.rejects)
        #expect(reference.out.count > 100_000)
    }
}
