import Foundation
import Testing

@testable import ASNMigrateKit

/// The check for `partition`: slices of the input files partitioned by concurrent processes (each given its
/// slice the way its batch engine gives an index), each partition reconciled alone with `reconcile --partition`, and
/// `merge` give the unsharded report byte for byte; an incomplete or damaged partition folder is refused.
@Suite(.serialized) struct PartitionEndToEndTests {
    /// The judging options every run here shares.
    static let judging = [
        "--run-date", ShardMergeEndToEndTests.runDate, "--max-reject-rate", "20%", "--window", "7d"
    ]

    /// The simulated inputs, one V1 file gzip-compressed (locations name `….jsonl.gz`).
    static func data(_ tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let (v1, v2) = try ShardMergeEndToEndTests.data(tmp)
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: v1).sorted().first)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: v1 + "/" + first))
        try GzipWriter.write(bytes, to: v1 + "/" + first + ".gz")
        try FileManager.default.removeItem(atPath: v1 + "/" + first)
        return (v1, v2)
    }

    /// Partitions the inputs into `shards` with `slices` concurrent processes; returns their exit statuses.
    static func partition(
        v1: String, v2: String, shards: Int, slices: Int, gzip: Bool, out: String
    ) throws -> [Int32] {
        var processes: [Process] = []
        for j in 0..<slices {
            let variable = ShardSelection.indexVariables[(j + shards) % ShardSelection.indexVariables.count]
            processes.append(
                try ShardMergeEndToEndTests.start(
                    [
                        "partition", "--v1", v1, "--v2", v2, "--shards", String(shards), "--files", "auto/\(slices)",
                        "--out", out
                    ] + (gzip ? ["--gzip"] : []), variable: variable, value: String(j)))
        }
        for process in processes { process.waitUntilExit() }
        return processes.map(\.terminationStatus)
    }

    @Test func partitionsReconciledAloneMergeIntoTheUnshardedReport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.data(tmp)
        let whole = try BinaryRun.run(
            ["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/whole"] + Self.judging)
        #expect(whole.status == 1, "\(whole.stderr)")
        let expected = try ShardMergeEndToEndTests.files(tmp.path + "/whole")
        let rejected = String(decoding: expected["rejected.csv"] ?? Data(), as: UTF8.self)
        #expect(rejected.contains(".jsonl.gz,"), "a reject located in the gzip file (not vacuous): \(rejected)")

        for (shards, slices, gzip) in [(1, 1, false), (2, 3, true), (3, 2, false), (7, 2, true)] {
            let out = "\(tmp.path)/parts-\(shards)-\(slices)"
            let statuses = try Self.partition(v1: v1, v2: v2, shards: shards, slices: slices, gzip: gzip, out: out)
            #expect(statuses.allSatisfy { $0 == 0 }, "N = \(shards), M = \(slices): \(statuses)")
            var folders: [String] = []
            for k in 0..<shards {
                let report = "\(out)-reports/\(k)"
                let run = try BinaryRun.run(
                    ["reconcile", "--partition", "\(out)/part-\(k)-of-\(shards)", "--out", report] + Self.judging)
                #expect(run.status == 0, "partition \(k) of \(shards): \(run.stderr)")
                folders.append(report)
            }
            let merged = "\(out)-merged"
            let merge = try BinaryRun.run(["merge", "--max-reject-rate", "20%", "--out", merged] + folders)
            #expect(merge.status == whole.status, "\(merge.stderr)")
            #expect(
                try ShardMergeEndToEndTests.files(merged) == expected,
                "N = \(shards), M = \(slices)\(gzip ? ", gzip" : ""): byte-identical to the unsharded report")
        }
    }

    @Test func anIncompleteOrDamagedPartitionIsRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.data(tmp)
        let out = tmp.path + "/parts"
        #expect(try Self.partition(v1: v1, v2: v2, shards: 2, slices: 2, gzip: false, out: out) == [0, 0])
        let part = out + "/part-1-of-2"
        let reconcile = { (extra: [String]) in
            try BinaryRun.run(
                ["reconcile", "--partition", part, "--out", tmp.path + "/report"] + Self.judging + extra)
        }
        #expect(try reconcile([]).status == 0)

        let both = try reconcile(["--v1", v1])
        #expect(both.status == 64 && both.stderr.contains("--v1 does not go with it"), "\(both.stderr)")

        let data = part + "/v1/slice-0001-of-0002.asnpart"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: data))
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: data))
        let damaged = try reconcile([])
        #expect(damaged.status == 65 && damaged.stderr.contains("\(data)' is damaged"), "\(damaged.stderr)")

        try FileManager.default.removeItem(atPath: part + "/slice-0000-of-0002.csv")
        let missing = try reconcile([])
        #expect(missing.status == 65 && missing.stderr.contains("lacks slice 0 of 2"), "\(missing.stderr)")

        let csv = tmp.path + "/v2-export.csv"
        try Data("notificationType\nDID_RENEW\n".utf8).write(to: URL(fileURLWithPath: csv))
        let refused = try BinaryRun.run([
            "partition", "--v1", v1, "--v2", csv, "--shards", "2", "--out", tmp.path + "/csv-parts"
        ])
        #expect(refused.status == 64 && refused.stderr.contains("V2 CSV export"), "\(refused.stderr)")
        let oneSide = try BinaryRun.run(["partition", "--v1", v1, "--shards", "2", "--out", tmp.path + "/v1-parts"])
        #expect(oneSide.status == 64 && oneSide.stderr.contains("missing --v2 PATH"), "\(oneSide.stderr)")
        let inside = try BinaryRun.run(["partition", "--v1", v1, "--v2", v2, "--shards", "2", "--out", v1 + "/parts"])
        #expect(inside.status == 64, "an output inside an input is refused: \(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: v1 + "/parts"))
    }
}
