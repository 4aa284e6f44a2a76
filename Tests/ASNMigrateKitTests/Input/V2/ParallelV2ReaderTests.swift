import Foundation
import Testing

@testable import ASNMigrateKit

/// The parallel V2 reader gives exactly the sequential reader's outcomes, in the same order.
@Suite struct ParallelV2ReaderTests {
    /// Sample V2 files, a file with broken and non-notification lines, a missing file and a CSV without a column map.
    @Test(arguments: [1, 64, 1 << 20])
    func sameOutcomesAsSequentialReader(batchBytes: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.jsonl")
        try Data("{\"signedPayload\":\"a.b\"}\nnot json\n{\"x\":1}\n[1,2]\n{\"signedPayload\":\"eyJ.@@@.c\"}\n".utf8)
            .write(to: broken)
        let csv = folder.appendingPathComponent("export.csv")
        try Data("a,b\n1,2\n".utf8).write(to: csv)
        let sample = PackagePaths.sample.appendingPathComponent("v2")
        let paths = [
            sample.appendingPathComponent("01-notifications.jsonl").path,
            broken.path,
            folder.appendingPathComponent("missing.jsonl").path,
            csv.path,
            sample.appendingPathComponent("02-notification-history-page.json").path,
            sample.appendingPathComponent("01-notifications.jsonl").path
        ]
        let files = paths.map { InputFile(path: $0) }
        var sequential: [V2ReadOutcome] = []
        try V2RecordReader().read(files) { sequential.append($0) }
        var parallel: [V2ReadOutcome] = []
        try ParallelV2Reader(workers: 3, batchBytes: batchBytes).read(files) { parallel.append($0) }
        #expect(sequential.count > 10)
        #expect(sequential.contains { $0.error != nil })
        #expect(parallel == sequential)
    }

    /// An error thrown by the caller's body stops the run and comes back unchanged.
    @Test func bodyErrorIsRethrown() throws {
        struct Stop: Error {}
        let file = InputFile(path: PackagePaths.sample.appendingPathComponent("v2/01-notifications.jsonl").path)
        var seen = 0
        #expect(throws: Stop.self) {
            try ParallelV2Reader(workers: 2, batchBytes: 1).read([file, file]) { _ in
                seen += 1
                if seen == 3 { throw Stop() }
            }
        }
        #expect(seen == 3)
    }
}
