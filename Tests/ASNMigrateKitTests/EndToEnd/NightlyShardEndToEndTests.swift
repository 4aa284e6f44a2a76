import Foundation
import Testing

@testable import ASNMigrateKit

/// The check for `nightly --shard`: over three nights whose V1 and V2 files arrive on different schedules (a
/// side late, a file half written then completed, a file changed in the part already read), N = 1, 2, 3 and 7 shard
/// processes run at once, each with its index in the variable its batch engine sets, and `merge` gives each night's
/// unsharded report byte for byte, with the same exit status.
@Suite(.serialized) struct NightlyShardEndToEndTests {
    /// The nights, and what has arrived under the input roots by each: (file under `sim/`, lines of it so far;
    /// nil = all). A file listed again later has grown or changed.
    static let nights: [(date: String, arrived: [(String, Int?)])] = [
        ("2021-02-10", [("v1/2021-01.jsonl", nil), ("v1/2021-02.jsonl", 12), ("v2/2021-01.jsonl", 10)]),
        (
            "2021-03-12",
            [("v1/2021-02.jsonl", nil), ("v1/2021-03.jsonl", nil), ("v2/2021-01.jsonl", nil), ("v2/2021-02.jsonl", nil)]
        ),
        (
            "2021-04-20",
            [("v2/2021-03.jsonl", nil), ("v1/2021-04.jsonl", nil), ("v2/2021-04.jsonl", 20), ("v1/2021-05.jsonl", nil)]
        )
    ]

    /// Copies what has arrived by `night` into `root`, and on the last night rewrites the first V1 file without its
    /// first line (a file changed in the part already read).
    static func arrive(_ night: Int, sim: String, root: String) throws {
        for (file, lines) in nights[night].arrived {
            let all = try Data(contentsOf: URL(fileURLWithPath: sim + "/" + file))
            try Self.firstLines(all, lines).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        if night == nights.count - 1 {
            let url = URL(fileURLWithPath: root + "/v1/2021-01.jsonl")
            let all = try Data(contentsOf: url)
            try all.suffix(from: Self.firstLines(all, 1).count + all.startIndex).write(to: url)
        }
    }

    /// The first `lines` lines of `data`, newlines included (all of it when nil).
    static func firstLines(_ data: Data, _ lines: Int?) -> Data {
        guard let lines else { return data }
        var seen = 0
        for (offset, byte) in data.enumerated() where byte == 0x0A {
            seen += 1
            if seen == lines { return data.prefix(offset + 1) }
        }
        return data
    }

    @Test func concurrentShardNightsMergeIntoTheUnshardedNights() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = tmp.path + "/sim"
        let made = try BinaryRun.run([
            "simulate", "--subscribers", "40", "--seed", "8", "--months", "4", "--inject", "0.3", "--realistic-edges",
            "--out", sim
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let root = tmp.path + "/in"
        for side in ["v1", "v2"] {
            try FileManager.default.createDirectory(atPath: root + "/" + side, withIntermediateDirectories: true)
        }
        let common = [
            "nightly", "--v1", root + "/v1", "--v2", root + "/v2", "--min-file-age", "0", "--max-reject-rate", "50%",
            "--window", "7d", "--settle", "10d", "--max-lag", "40d", "--no-html"
        ]
        var kinds: Set<String> = []
        for night in Self.nights.indices {
            try Self.arrive(night, sim: sim, root: root)
            let date = Self.nights[night].date
            let whole = try BinaryRun.run(
                common + ["--run-date", date, "--state", tmp.path + "/whole.sqlite", "--reports", tmp.path + "/whole"])
            #expect([0, 1].contains(whole.status), "\(whole.stderr)")
            let expected = try ShardMergeEndToEndTests.files(tmp.path + "/whole/" + date)
            let summary = String(decoding: expected["summary.csv"] ?? Data(), as: UTF8.self)
            // Night 2 reads on in two files half written the night before; night 3 re-reads one changed file.
            for metric in [[], ["files_appended,2", "files_changed,0"], ["files_appended,0", "files_changed,1"]][night]
            {
                #expect(summary.contains("\n\(metric)\n"), "night \(night + 1): \(metric)")
            }
            #expect(expected.count == NightlyReport.fileNames.count)
            for (name, bytes) in expected where name != "summary.csv" {
                let rows = String(decoding: bytes, as: UTF8.self).split(separator: "\n").count - 1
                if rows > 0 { kinds.insert(name) }
            }
            for (round, count) in [1, 2, 3, 7].enumerated() {
                var processes: [Process] = []
                for k in 0..<count {
                    let variable =
                        ShardSelection.indexVariables[(k + round + night) % ShardSelection.indexVariables.count]
                    processes.append(
                        try ShardMergeEndToEndTests.start(
                            common + [
                                "--run-date", date, "--shard", "auto/\(count)", "--state",
                                "\(tmp.path)/n\(count)/state-{shard}.sqlite", "--reports", "\(tmp.path)/n\(count)"
                            ], variable: variable, value: String(k)))
                }
                for process in processes { process.waitUntilExit() }
                #expect(
                    processes.allSatisfy { $0.terminationStatus == 0 },
                    "every shard published its night and leaves the verdict to merge (N = \(count), \(date))")
                let folders = (0..<count).map { "\(tmp.path)/n\(count)/\(date).shard-\($0)-of-\(count)" }
                let merged = "\(tmp.path)/merged-\(count)/\(date)"
                let merge = try BinaryRun.run(
                    ["merge", "--max-reject-rate", "50%", "--out", merged] + folders.reversed())
                #expect(merge.status == whole.status, "N = \(count), \(date): \(merge.stderr)")
                #expect(
                    try ShardMergeEndToEndTests.files(merged) == expected,
                    "N = \(count), \(date): the merged night is byte-identical to the unsharded one")
            }
        }
        // Not vacuous: the nights had new, open, resolved and pending rows and rejects to merge.
        #expect(
            kinds.isSuperset(of: ["new.csv", "open.csv", "resolved.csv", "pending.csv", "rejected.csv"]), "\(kinds)")
    }

    @Test func aShardStateServesOnlyItsShard() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/v1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp.path + "/v2", withIntermediateDirectories: true)
        let common = [
            "nightly", "--v1", tmp.path + "/v1", "--v2", tmp.path + "/v2", "--state", tmp.path + "/state.sqlite",
            "--reports", tmp.path + "/reports", "--run-date", "2024-01-01", "--allow-future-run-date"
        ]
        let first = try BinaryRun.run(common + ["--shard", "1/4"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/reports/2024-01-01.shard-1-of-4/shard.csv"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/reports/2024-01-01.shard-1-of-4/report.html"))
        for (other, wanted) in [(["--shard", "2/4"], "shard 2/4"), (["--shard", "1/5"], "shard 1/5"), ([], "unsharded")]
        {
            let run = try BinaryRun.run(common + other)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains("was made by --shard 1/4") && run.stderr.contains(wanted), "\(run.stderr)")
        }
        let again = try BinaryRun.run(common + ["--shard", "1/4"])
        #expect(again.status == 0, "the state's own shard runs again: \(again.stderr)")
        let thresholds = try BinaryRun.run(common + ["--shard", "1/4", "--fail-on", "new>0"])
        #expect(thresholds.status == 64 && thresholds.stderr.contains("--fail-on does not work with --shard"))
        let unsharded = try BinaryRun.run(
            common.map { $0 == tmp.path + "/state.sqlite" ? tmp.path + "/plain.sqlite" : $0 })
        #expect(unsharded.status != 64, "\(unsharded.stderr)")
        let sharded = try BinaryRun.run(
            common.map { $0 == tmp.path + "/state.sqlite" ? tmp.path + "/plain.sqlite" : $0 } + ["--shard", "0/2"])
        #expect(sharded.status == 64 && sharded.stderr.contains("was made without --shard"), "\(sharded.stderr)")
    }
}
