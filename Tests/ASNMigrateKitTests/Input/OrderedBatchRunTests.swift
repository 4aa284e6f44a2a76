import Foundation
import Synchronization
import Testing

@testable import ASNMigrateKit

@Suite struct OrderedBatchRunTests {
    /// The error the consumer below throws.
    struct Stop: Error {}

    /// Three files of ten one-line records each.
    static func files(in directory: TemporaryDirectory) throws -> [InputFile] {
        try (0..<3).map { file in
            let lines = (0..<10).map { "{\"file\":\(file),\"line\":\($0)}\n" }.joined()
            return InputFile(path: try directory.write("part-\(file).jsonl", Array(lines.utf8)))
        }
    }

    @Test func everyRecordOfEveryFileArrivesOnceInInputOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var texts: [String] = []
        try OrderedBatchRun.run(
            .files(try Self.files(in: directory)), batchBytes: 40, workers: 3, capacity: 3,
            process: { items in
                items.compactMap { item -> String? in
                    if case .item(.record(let record)) = item { return String(decoding: record.bytes, as: UTF8.self) }
                    return nil
                }
            }, consume: { texts += $0 })
        #expect(texts == (0..<3).flatMap { file in (0..<10).map { "{\"file\":\(file),\"line\":\($0)}" } })
    }

    @Test func aFailingBatchLeavesNoWorkerRunningAfterRunRethrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let started = Mutex(0)
        let finished = Mutex(0)
        #expect(throws: Stop.self) {
            try OrderedBatchRun.run(
                .files(try Self.files(in: directory)), batchBytes: 1, workers: 2, capacity: 4,
                process: { (items: [ReadItem]) -> Int in
                    let number = started.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    if number > 1 { usleep(30_000) } // still working when batch 0 fails
                    finished.withLock { $0 += 1 }
                    return items.count
                }, consume: { _ in throw Stop() })
        }
        let begun = started.withLock { $0 }
        #expect(begun >= 1)
        #expect(finished.withLock { $0 } == begun)
    }
}
