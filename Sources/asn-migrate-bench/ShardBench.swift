import Foundation

/// The shard measurement (`--only shards`): `reconcile` unsharded, then `--shards N` for N = 1, 2, 4 and 8 run in turn
/// in one process, `--memory-limit` at nine tenths of the unsharded peak, one `--shard 0/8` process alone (what one engine
/// task costs), and `partition --shards 8` with each partition reconciled alone and merged; each run's time and peak
/// RSS, and whether its report is byte-identical to the unsharded one.
enum ShardBench {
    /// One measured run.
    struct Row {
        /// What ran.
        var label: String
        /// Its time and peak RSS.
        var result: ChildProcess.Result
        /// Whether its report equals the unsharded one (nil for a single shard, which is not a whole report).
        var identical: Bool?
    }

    /// Runs the measurement on `set` and prints one line per run.
    static func run(binary: String, set: BenchData.DataSet, folder: String) throws {
        let v1Records = try countLines(set.v1)
        let v2Records = try countLines(set.v2)
        say(
            "shards data: \(set.directory): V1 \(v1Records) records (\(fixed(Double(set.v1Bytes) / 1e9)) GB), V2 \(v2Records) records (\(fixed(Double(set.v2Bytes) / 1e9)) GB)"
        )
        _ = try Baselines.read(set.v1 + set.v2)
        let common = [
            "reconcile", "--v1", "\(set.directory)/v1", "--v2", "\(set.directory)/v2", "--run-date", "2024-01-01"
        ]
        let whole = "\(folder)/shards-whole"
        let unsharded = try measure(binary, common + ["--out", whole])
        var rows = [Row(label: "unsharded", result: unsharded, identical: true)]
        say(line(rows[0]))
        for count in [1, 2, 4, 8] {
            let out = "\(folder)/shards-\(count)"
            let result = try measure(binary, common + ["--shards", String(count), "--out", out])
            rows.append(Row(label: "--shards \(count)", result: result, identical: try same(whole, out)))
            say(line(rows[rows.count - 1]))
        }
        // Nine tenths of the unsharded peak: the limit must bind for the check to mean anything, and lie above the
        // memory every pass needs whatever its shard (MemoryBudget.baseline).
        let limit = max(unsharded.maxRSS * 9 / 10, 128 << 20)
        let limited = "\(folder)/shards-limited"
        let result = try measure(binary, common + ["--memory-limit", "\(limit >> 20)M", "--out", limited])
        rows.append(Row(label: "--memory-limit \(limit >> 20)M", result: result, identical: try same(whole, limited)))
        say(line(rows[rows.count - 1]) + "; under the limit: \(result.maxRSS <= limit ? "yes" : "NO")")
        let one = try measure(binary, common + ["--shard", "0/8", "--out", "\(folder)/shards-one"])
        say(
            "--shard 0/8 alone (one engine task): \(fixed(one.seconds, 2)) s wall, CPU \(fixed(one.cpuSeconds, 2)) s, max RSS \(megabytes(one.maxRSS)) MB; "
                + "\(fixed(one.cpuSeconds / max(unsharded.cpuSeconds, 0.001) * 100, 0))% of the unsharded CPU (each shard decodes every record)"
        )
        try partitioned(binary, set: set, folder: folder, whole: whole, unsharded: unsharded)
    }

    /// `partition --shards 8` once, then each partition reconciled alone (`reconcile --partition`) one after another
    /// and merged: the pass's cost, one partition's (what one engine task costs after it), and the merged report.
    private static func partitioned(
        _ binary: String, set: BenchData.DataSet, folder: String, whole: String, unsharded: ChildProcess.Result
    ) throws {
        let parts = "\(folder)/partitions"
        try? FileManager.default.removeItem(atPath: parts)
        let pass = try measure(
            binary,
            ["partition", "--v1", "\(set.directory)/v1", "--v2", "\(set.directory)/v2", "--shards", "8", "--out", parts]
        )
        say(
            "partition --shards 8 (one pass): \(fixed(pass.seconds, 2)) s wall, CPU \(fixed(pass.cpuSeconds, 2)) s, max RSS \(megabytes(pass.maxRSS)) MB"
        )
        var results: [ChildProcess.Result] = []
        var reports: [String] = []
        for k in 0..<8 {
            let report = "\(folder)/partition-reports/\(k)"
            results.append(
                try measure(
                    binary,
                    ["reconcile", "--partition", "\(parts)/part-\(k)-of-8", "--run-date", "2024-01-01", "--out", report]
                ))
            reports.append(report)
        }
        let merged = "\(folder)/partitions-merged"
        _ = try measure(binary, ["merge", "--max-reject-rate", "100%", "--out", merged] + reports)
        let cpu = results.reduce(0) { $0 + $1.cpuSeconds }
        let first = results[0]
        say(
            "reconcile --partition, 8 partitions one after another: \(fixed(results.reduce(0) { $0 + $1.seconds }, 2)) s wall, CPU \(fixed(cpu, 2)) s, max RSS \(megabytes(results.map(\.maxRSS).max() ?? 0)) MB; "
                + "part-0-of-8 alone \(fixed(first.seconds, 2)) s wall, CPU \(fixed(first.cpuSeconds, 2)) s (\(fixed(first.cpuSeconds / max(unsharded.cpuSeconds, 0.001) * 100, 0))% of the unsharded CPU); "
                + "merged report \(try same(whole, merged) ? "byte-identical to the unsharded one" : "DIFFERS from the unsharded one")"
        )
    }

    /// Runs the binary and checks it wrote its report (exit 0, 1 or 3).
    private static func measure(_ binary: String, _ arguments: [String]) throws -> ChildProcess.Result {
        let result = try ChildProcess.run(binary, arguments)
        guard [0, 1, 3].contains(result.status) else {
            throw BenchError("asn-migrate \(arguments.joined(separator: " ")) exited with \(result.status)")
        }
        return result
    }

    /// Whether two report folders hold the same files with the same bytes.
    private static func same(_ a: String, _ b: String) throws -> Bool {
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        guard names == (try FileManager.default.contentsOfDirectory(atPath: b).sorted()) else { return false }
        return try names.allSatisfy { name in
            try Data(contentsOf: URL(fileURLWithPath: a + "/" + name))
                == Data(contentsOf: URL(fileURLWithPath: b + "/" + name))
        }
    }

    private static func line(_ row: Row) -> String {
        let r = row.result
        return
            "reconcile \(row.label): \(fixed(r.seconds, 2)) s wall, CPU \(fixed(r.cpuSeconds, 2)) s, max RSS \(megabytes(r.maxRSS)) MB"
            + (row.identical.map {
                "; report \($0 ? "byte-identical to the unsharded one" : "DIFFERS from the unsharded one") "
            } ?? "")
    }
}
