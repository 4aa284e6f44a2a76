import Foundation
import Testing

@testable import ASNMigrateKit

/// The sharding acceptance check: shard processes run at once, each given its index the way its batch engine gives it
/// (an environment variable), then `merge`, give the unsharded report byte for byte; so does `--shards N` in one
/// process; and `merge` refuses folders that are not one whole run.
@Suite(.serialized) struct ShardMergeEndToEndTests {
    static let runDate = "2024-01-01"

    /// Simulated data with injected differences, rejects and (V2 cut two months early, and a 7-day window) pending
    /// records: V1 and V2 folders.
    static func data(_ tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let sim = tmp.path + "/sim"
        let v2 = tmp.path + "/v2"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "40", "--seed", "21", "--months", "3", "--inject", "0.3",
            "--realistic-edges", "--out", sim
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        try FileManager.default.createDirectory(atPath: v2, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: sim + "/v2") where name < "2021-03" {
            try FileManager.default.copyItem(atPath: sim + "/v2/" + name, toPath: v2 + "/" + name)
        }
        return (sim + "/v1", v2)
    }

    /// Every report file of a folder, by name.
    static func files(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// Starts `asn-migrate arguments` with `variable=value` added to the environment, as a batch engine starts a task.
    static func start(_ arguments: [String], variable: String, value: String) throws -> Process {
        let process = Process()
        guard let executable = BinaryRun.executable else { throw CocoaError(.fileNoSuchFile) }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter {
            !ShardSelection.indexVariables.contains($0.key)
        }
        .merging([variable: value]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func concurrentShardsMergeIntoTheUnshardedReport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.data(tmp)
        let common = [
            "reconcile", "--v1", v1, "--v2", v2, "--run-date", Self.runDate, "--max-reject-rate", "20%", "--window",
            "7d"
        ]
        let whole = try BinaryRun.run(common + ["--out", tmp.path + "/whole"])
        #expect(whole.status == 1, "\(whole.stderr)")
        let expected = try Self.files(tmp.path + "/whole")
        // Not vacuous: the report has differences, pending records and rejects to sort and count.
        for name in ["differences.csv", "pending.csv", "rejected.csv", "subscriptions.csv"] {
            let lines = String(decoding: expected[name] ?? Data(), as: UTF8.self).split(separator: "\n").count
            #expect(lines > 2, "\(name) has rows to sort")
        }
        #expect(expected.count == ReconciliationReport.fileNames.count)

        for (round, count) in [1, 2, 3, 7].enumerated() {
            var processes: [Process] = []
            for k in 0..<count {
                let variable = ShardSelection.indexVariables[(k + round) % ShardSelection.indexVariables.count]
                processes.append(
                    try Self.start(
                        common + ["--shard", "auto/\(count)", "--out", "\(tmp.path)/n\(count)/shard-\(k)"],
                        variable: variable, value: String(k)))
            }
            for process in processes { process.waitUntilExit() }
            #expect(
                processes.allSatisfy { $0.terminationStatus == 0 },
                "every shard wrote its report and leaves findings to merge (N = \(count))")
            let shardFolders = (0..<count).map { "\(tmp.path)/n\(count)/shard-\($0)" }
            let merge = try BinaryRun.run(
                ["merge", "--max-reject-rate", "20%", "--out", "\(tmp.path)/merged-\(count)"] + shardFolders.reversed())
            #expect(merge.status == 1, "\(merge.stderr)")
            #expect(
                try Self.files("\(tmp.path)/merged-\(count)") == expected,
                "N = \(count): merged report byte-identical to the unsharded one")
        }

        let inTurn = try BinaryRun.run(common + ["--shards", "3", "--out", tmp.path + "/in-turn"])
        #expect(inTurn.status == 1, "\(inTurn.stderr)")
        #expect(try Self.files(tmp.path + "/in-turn") == expected, "--shards 3 in one process")
        let limited = try BinaryRun.run(common + ["--memory-limit", "64G", "--out", tmp.path + "/limited"])
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(try Self.files(tmp.path + "/limited") == expected, "--memory-limit")
    }

    @Test func mergeRefusesFoldersThatAreNotOneWholeRun() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.data(tmp)
        let common = ["reconcile", "--v1", v1, "--v2", v2]
        for (k, n, date) in [
            (0, 3, Self.runDate), (1, 3, Self.runDate), (2, 3, Self.runDate), (0, 2, Self.runDate), (2, 3, "2024-01-02")
        ] {
            let run = try BinaryRun.run(
                common + ["--shard", "\(k)/\(n)", "--run-date", date, "--out", "\(tmp.path)/\(date)-{shard}of\(n)"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(tmp.path)/\(date)-\(k)of\(n)/shard.csv"))
        }
        let shard = { (k: Int, n: Int, date: String) in "\(tmp.path)/\(date)-\(k)of\(n)" }
        let cases: [([String], String)] = [
            ([shard(0, 3, Self.runDate), shard(2, 3, Self.runDate)], "shard 1 of 3 missing"),
            (
                [
                    shard(0, 3, Self.runDate), shard(1, 3, Self.runDate), shard(1, 3, Self.runDate),
                    shard(2, 3, Self.runDate)
                ], "given twice"
            ),
            ([shard(0, 3, Self.runDate), shard(1, 3, Self.runDate), shard(0, 2, Self.runDate)], "its shard count is 2"),
            (
                [shard(0, 3, Self.runDate), shard(1, 3, Self.runDate), shard(2, 3, "2024-01-02")],
                "its run date is 2024-01-02"
            ),
            ([shard(0, 3, Self.runDate), v1], "has no shard.csv")
        ]
        for (folders, message) in cases {
            let merge = try BinaryRun.run(["merge", "--out", tmp.path + "/merged"] + folders)
            #expect(merge.status == 65, "\(message): \(merge.stderr)")
            #expect(merge.stderr.contains(message), "\(merge.stderr)")
            #expect(!FileManager.default.fileExists(atPath: tmp.path + "/merged"), "nothing written")
        }
        // A summary whose figures no longer add up (one record more read than accounted for) is caught by the identity.
        let tampered = tmp.path + "/tampered-2of3"
        try FileManager.default.copyItem(atPath: shard(2, 3, Self.runDate), toPath: tampered)
        let summary = try String(contentsOfFile: tampered + "/summary.csv", encoding: .utf8)
        let read = try #require(summary.split(separator: "\n").first { $0.hasPrefix("v1_records_read,") })
        let more = "v1_records_read,\((Int(read.dropFirst("v1_records_read,".count)) ?? 0) + 1)"
        try summary.replacingOccurrences(of: String(read), with: more).write(
            toFile: tampered + "/summary.csv", atomically: true, encoding: .utf8)
        let bad = try BinaryRun.run([
            "merge", "--out", tmp.path + "/merged", shard(0, 3, Self.runDate), shard(1, 3, Self.runDate), tampered
        ])
        #expect(bad.status == 65 && bad.stderr.contains("the merged v1_records_read is"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/merged"))
        let complete = try BinaryRun.run([
            "merge", "--max-reject-rate", "20%", "--out", tmp.path + "/merged", shard(0, 3, Self.runDate),
            shard(1, 3, Self.runDate), shard(2, 3, Self.runDate)
        ])
        #expect(complete.status == 1, "\(complete.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/merged/shard.csv"))
    }

    @Test func autoWithoutAnIndexIsAUsageError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: tmp.path + "/v1.jsonl"))
        let process = try Self.start(
            [
                "reconcile", "--v1", tmp.path + "/v1.jsonl", "--v2", tmp.path + "/v1.jsonl", "--force", "--shard",
                "auto/4", "--out", tmp.path + "/out"
            ],
            variable: "UNRELATED", value: "1")
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        let beyond = try Self.start(
            [
                "reconcile", "--v1", tmp.path + "/v1.jsonl", "--v2", tmp.path + "/v1.jsonl", "--force", "--shard",
                "auto/4", "--out", tmp.path + "/out"
            ],
            variable: "SLURM_ARRAY_TASK_ID", value: "4")
        beyond.waitUntilExit()
        #expect(beyond.terminationStatus == 64)
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/out"))
        let both = try BinaryRun.run([
            "reconcile", "--v1", tmp.path + "/v1.jsonl", "--v2", tmp.path + "/v1.jsonl", "--shard", "0/2", "--shards",
            "2"
        ])
        #expect(both.status == 64 && both.stderr.contains("exclude each other"), "\(both.stderr)")
    }

    /// `migrate --shard K/N`: each output holds only its shard's subscriptions, the shards' outputs concatenate into
    /// the unsharded output's lines, and every reject is in shard 0.
    @Test func migrateShardsConcatenateIntoTheUnshardedOutput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, _) = try Self.data(tmp)
        let whole = try BinaryRun.run([
            "migrate", v1, "--out", tmp.path + "/whole.jsonl", "--rejects", tmp.path + "/whole-rejects.csv"
        ])
        #expect(whole.status == 1, "\(whole.stderr)")
        let lines = { (path: String) in
            String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self).split(
                separator: "\n"
            ).map(String.init)
        }
        var concatenated: [String] = []
        var rejects: [[String]] = []
        for k in 0..<3 {
            let run = try BinaryRun.run([
                "migrate", v1, "--shard", "\(k)/3", "--out", "\(tmp.path)/\(k).jsonl", "--rejects",
                "\(tmp.path)/\(k)-rejects.csv"
            ])
            #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
            let output = lines("\(tmp.path)/\(k).jsonl")
            #expect(!output.isEmpty, "shard \(k) has records")
            for line in output {
                let payload = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let data = payload?["data"] as? [String: Any]
                let id =
                    ((data?["transactionInfo"] as? [String: Any])?["originalTransactionId"]
                    ?? (data?["renewalInfo"] as? [String: Any])?["originalTransactionId"]) as? String
                #expect(
                    ShardHash.shard(environment: data?["environment"] as? String, originalTransactionId: id, count: 3)
                        == k)
            }
            concatenated += output
            rejects.append(lines("\(tmp.path)/\(k)-rejects.csv"))
        }
        #expect(concatenated.sorted() == lines(tmp.path + "/whole.jsonl").sorted())
        let wholeRejects = lines(tmp.path + "/whole-rejects.csv")
        #expect(wholeRejects.contains { !$0.hasPrefix("side,") && !$0.contains("unmapped:") }, "the data has rejects")
        #expect(rejects.flatMap { $0.dropFirst() }.sorted() == wholeRejects.dropFirst().sorted())
        for k in 1..<3 {
            #expect(
                rejects[k].dropFirst().allSatisfy { $0.contains("unmapped:") },
                "rejects are shard 0's; shard \(k) has only unmapped records")
        }
    }
}
