import Foundation

/// The `reconcile` measurement: the real command on a simulated ~1M × ~1M data set, and its targets
/// (≤ 20 s wall, ≤ 700 MB peak RSS, release build, both cores). Part of the full run; `--only reconcile` runs only this.
enum ReconcileBench {
    /// Wall-clock target, seconds.
    static let secondsTarget = 20.0
    /// Peak RSS target, bytes.
    static let rssTarget = 700 << 20
    /// Peak RSS target against Apple's API view, bytes.
    static let apiRSSTarget = 250 << 20

    /// What the runs measured.
    struct Figures {
        /// The fastest run.
        var best: ChildProcess.Result
        /// The highest peak RSS of all runs, bytes.
        var worstRSS: Int
        /// The data set's records, V1 and V2 (the targets are for about 1M x 1M).
        var records = (v1: 0, v2: 0)
    }

    /// Runs `reconcile` `runs` times on `set` and prints the figures; returns them for the target line.
    static func run(
        binary: String, set: BenchData.DataSet, folder: String, runs: Int, counter: AllocationCounter?,
        results: BenchResults
    ) throws -> Figures {
        let v1Records = try countLines(set.v1)
        let v2Records = try countLines(set.v2)
        say(
            "reconcile data: \(set.directory): V1 \(v1Records) records (\(fixed(Double(set.v1Bytes) / 1e9)) GB), V2 \(v2Records) records (\(fixed(Double(set.v2Bytes) / 1e9)) GB)"
        )
        _ = try Baselines.read(set.v1 + set.v2)
        var figures = try bestOf(
            runs, binary: binary, v1: "\(set.directory)/v1", v2: "\(set.directory)/v2",
            out: "\(folder)/reconcile-report", what: "reconcile")
        figures.records = (v1Records, v2Records)
        let best = figures.best
        let gigabytes = Double(set.v1Bytes + set.v2Bytes) / 1e9
        say(
            "reconcile \(v1Records) x \(v2Records): \(fixed(best.seconds, 2)) s wall, \(Int(Double(v1Records + v2Records) / best.seconds)) records/s (V1 + V2), CPU \(fixed(best.cpuSeconds, 2)) s (\(fixed(best.cpuSeconds / best.seconds, 2)) cores, \(fixed(best.cpuSeconds / gigabytes, 2)) CPU-s/GB), max RSS \(megabytes(figures.worstRSS)) MB (highest of \(runs) run(s); best wall)"
        )
        try compareWithPython(best, set: set, folder: folder, gigabytes: gigabytes, results: results)
        try compareWithDuckDB(best, set: set, folder: folder, results: results)
        try counter?.measure(
            "reconcile", binary: binary,
            arguments: [
                "reconcile", "--v1", "\(set.directory)/v1", "--v2", "\(set.directory)/v2", "--out",
                "\(folder)/reconcile-report", "--run-date", "2024-01-01"
            ], records: v1Records + v2Records, inputBytes: set.v1Bytes + set.v2Bytes, targets: (8, 3), folder: folder,
            results: results)
        try compareAPIView(best, binary: binary, set: set, folder: folder, runs: runs, results: results)
        try compareSwitch(binary: binary, set: set, folder: folder, runs: runs, results: results)
        return figures
    }

    /// The switch's target: the data set cut at 2021-07-01 (V1's months before it, V2's from it on, linked, not
    /// copied), `reconcile --switch 2021-07-01` against plain `reconcile` on the same files, best of `runs` each,
    /// alternating; within 1.2x its wall time.
    static func compareSwitch(
        binary: String, set: BenchData.DataSet, folder: String, runs: Int, results: BenchResults
    ) throws {
        let cut = "\(folder)/switch-cut"
        let manager = FileManager.default
        try? manager.removeItem(atPath: cut)
        for (side, keeps) in [("v1", { (name: String) in name < "2021-07" }), ("v2", { $0 >= "2021-07" })] {
            try manager.createDirectory(atPath: "\(cut)/\(side)", withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: "\(set.directory)/\(side)").sorted() where keeps(name) {
                try manager.linkItem(atPath: "\(set.directory)/\(side)/\(name)", toPath: "\(cut)/\(side)/\(name)")
            }
        }
        var plain = Figures(best: ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0), worstRSS: 0)
        var switched = plain
        for _ in 0..<runs {
            let p = try bestOf(
                1, binary: binary, v1: "\(cut)/v1", v2: "\(cut)/v2", out: "\(folder)/switch-plain-report",
                what: "reconcile on the cut data")
            let s = try bestOf(
                1, binary: binary, v1: "\(cut)/v1", v2: "\(cut)/v2", out: "\(folder)/switch-report",
                what: "reconcile --switch", extra: ["--switch", "2021-07-01"])
            if p.best.seconds < plain.best.seconds { plain.best = p.best }
            if s.best.seconds < switched.best.seconds { switched.best = s.best }
        }
        let ratio = switched.best.seconds / plain.best.seconds
        say(
            "reconcile --switch 2021-07-01 on the data cut there: \(fixed(switched.best.seconds, 2)) s wall, CPU \(fixed(switched.best.cpuSeconds, 2)) s; plain reconcile on the same files \(fixed(plain.best.seconds, 2)) s wall, CPU \(fixed(plain.best.cpuSeconds, 2)) s (best of \(runs) each, alternating)"
        )
        say(
            "target (switch): within 1.2x plain reconcile's wall time: \(ratio <= 1.2 ? "met" : "NOT met") (\(fixed(ratio, 2))x)"
        )
        results.add(
            "\(label(set)) --switch: wall time / plain reconcile's on the same cut files",
            figure: "\(fixed(ratio, 2))x",
            target: "<= 1.2x", met: ratio <= 1.2)
    }

    /// The API-view targets: the same V1 archive against Apple's API view of the same subscribers
    /// (`simulate`'s `v2-api`: transaction history pages and statuses), best of `runs`, against the notification run
    /// `notifications` (within 1.3x its wall time, peak RSS <= 250 MB).
    static func compareAPIView(
        _ notifications: ChildProcess.Result, binary: String, set: BenchData.DataSet, folder: String, runs: Int,
        results: BenchResults
    ) throws {
        let api = "\(set.directory)/v2-api"
        guard FileManager.default.fileExists(atPath: api) else {
            say("reconcile against the API view: skipped (\(api) not found; simulate writes it)")
            return
        }
        let figures = try bestOf(
            runs, binary: binary, v1: "\(set.directory)/v1", v2: api, out: "\(folder)/reconcile-api-report",
            what: "reconcile against the API view")
        let (best, worstRSS) = (figures.best, figures.worstRSS)
        let ratio = best.seconds / notifications.seconds
        let apiFiles = (try? FileManager.default.contentsOfDirectory(atPath: api)) ?? []
        let gigabytes = Double(set.v1Bytes + apiFiles.reduce(0) { $0 + fileSize("\(api)/\($1)") }) / 1e9
        say(
            "reconcile against the API view (v1 + v2-api, \(fixed(gigabytes, 2)) GB): \(fixed(best.seconds, 2)) s wall, CPU \(fixed(best.cpuSeconds, 2)) s (\(fixed(best.cpuSeconds / gigabytes, 2)) CPU-s/GB), max RSS \(megabytes(worstRSS)) MB (highest of \(runs) run(s))"
        )
        say(
            "targets (API view): within 1.3x notification mode's wall time: \(ratio <= 1.3 ? "met" : "NOT met") (\(fixed(ratio, 2))x); <= 250 MB max RSS: \(worstRSS <= apiRSSTarget ? "met" : "NOT met") (\(megabytes(worstRSS)) MB = \(fixed(Double(worstRSS) / Double(apiRSSTarget), 2))x the target)"
        )
        results.add(
            "\(label(set)) against the API view: wall time / notification mode's", figure: "\(fixed(ratio, 2))x",
            target: "<= 1.3x", met: ratio <= 1.3)
        results.add(
            "\(label(set)) against the API view: peak RSS", figure: "\(megabytes(worstRSS)) MB", target: "<= 250 MB",
            met: worstRSS <= apiRSSTarget)
    }

    /// `reconcile --v1 v1 --v2 v2 --out out` (and `extra`) run `runs` times: the fastest run and the highest peak RSS; a run that
    /// exits with neither 0 nor 1 stops the benchmark, naming `what`.
    static func bestOf(
        _ runs: Int, binary: String, v1: String, v2: String, out: String, what: String, extra: [String] = []
    ) throws -> Figures {
        var figures = Figures(best: ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0), worstRSS: 0)
        for _ in 0..<runs {
            let result = try ChildProcess.run(
                binary, ["reconcile", "--v1", v1, "--v2", v2, "--out", out, "--run-date", "2024-01-01"] + extra)
            guard result.status == 0 || result.status == 1 else {
                throw BenchError("\(what) exited with \(result.status)")
            }
            if result.seconds < figures.best.seconds { figures.best = result }
            figures.worstRSS = max(figures.worstRSS, result.maxRSS)
        }
        return figures
    }

    /// The Python baseline in the same run on the same bytes: the Python + orjson join, and reconcile's wall-time and
    /// CPU ratios to it against the targets (>= 3x its wall-clock speed, <= 0.5x its CPU-seconds).
    static func compareWithPython(
        _ best: ChildProcess.Result, set: BenchData.DataSet, folder: String, gigabytes: Double, results: BenchResults
    ) throws {
        guard PythonBaseline.available() else {
            say("baseline Python + orjson join: skipped (python3 or its orjson module not found)")
            return
        }
        let (python, counts) = try PythonJoinBaseline.run(v1: set.v1, v2: set.v2, folder: folder)
        let speed = python.seconds / best.seconds
        let cpu = best.cpuSeconds / python.cpuSeconds
        say(
            "baseline Python + orjson join (1 process: parse both sides, decode the JWS and nested JWS, join on environment + originalTransactionId + webOrderLineItemId, count; v1 v2 matched missing_in_v2 missing_in_v1 rejects = \(counts)): \(fixed(python.seconds, 2)) s wall, \(fixed(python.cpuSeconds, 2)) CPU-s = \(fixed(python.cpuSeconds / gigabytes, 2)) CPU-s/GB, max RSS \(megabytes(python.maxRSS)) MB"
        )
        say(
            "targets (reconcile vs the Python join): >= 3x its wall-clock speed: \(speed >= 3 ? "met" : "NOT met") (\(fixed(speed, 2))x); <= 0.5x its CPU-seconds: \(cpu <= 0.5 ? "met" : "NOT met") (\(fixed(cpu, 2))x)"
        )
        results.add(
            "\(label(set)): speed against the Python join", figure: "\(fixed(speed, 2))x",
            target: ">= 3x (done: >= 2x)",
            met: speed >= 3)
        results.add(
            "\(label(set)): CPU-seconds against the Python join", figure: "\(fixed(cpu, 2))x", target: "<= 0.5x",
            met: cpu <= 0.5)
    }

    /// The DuckDB peer in the same run on the same bytes (`DuckDBJoinBaseline`): reconcile's wall-time and CPU ratios to
    /// it, against the goal of being ahead of it at every size.
    static func compareWithDuckDB(
        _ best: ChildProcess.Result, set: BenchData.DataSet, folder: String, results: BenchResults
    ) throws {
        guard let python = DuckDBJoinBaseline.python(folder: folder) else { return }
        let (duck, counts) = try DuckDBJoinBaseline.run(python: python, v1: set.v1, v2: set.v2, folder: folder)
        let speed = duck.seconds / best.seconds
        let cpu = best.cpuSeconds / duck.cpuSeconds
        say(
            "baseline DuckDB join (2 threads: read_ndjson_objects, newest receipt entry, from_base64 of the JWS and nested JWS, join on environment + originalTransactionId + webOrderLineItemId, count; v1 v2 matched missing_in_v2 missing_in_v1 = \(counts)): \(fixed(duck.seconds, 2)) s wall, \(fixed(duck.cpuSeconds, 2)) CPU-s, max RSS \(megabytes(duck.maxRSS)) MB"
        )
        say(
            "goal (reconcile vs DuckDB at \(set.subscribers) subscribers): ahead of it: \(speed > 1 ? "met" : "NOT met") (\(fixed(speed, 2))x its wall-clock speed; \(fixed(cpu, 2))x its CPU-seconds; RSS \(megabytes(best.maxRSS)) MB against \(megabytes(duck.maxRSS)) MB)"
        )
        results.add(
            "\(label(set)): speed against DuckDB", figure: "\(fixed(speed, 2))x", target: "> 1x (ahead)", met: speed > 1
        )
        results.add(
            "\(label(set)): CPU-seconds against DuckDB", figure: "\(fixed(cpu, 2))x", target: "-", met: nil)
    }

    /// The rows' name for a run on `set`: the command and the data set's size, so each size keeps its own rows.
    static func label(_ set: BenchData.DataSet) -> String {
        "reconcile (\(set.subscribers) subscribers)"
    }

    /// The target line: each target met or not, and by how much a missed one is missed.
    static func targetLine(_ figures: Figures, results: BenchResults) -> String {
        let seconds = figures.best.seconds
        let rss = figures.worstRSS
        let size = "\(figures.records.v1) x \(figures.records.v2) records"
        if figures.records.v1 >= 900_000 {
            results.add(
                "reconcile 1M x 1M: wall time", figure: "\(fixed(seconds, 1)) s", target: "<= 20 s",
                met: seconds <= secondsTarget)
            results.add(
                "reconcile 1M x 1M: peak RSS", figure: "\(megabytes(rss)) MB", target: "<= 700 MB",
                met: rss <= rssTarget)
        }
        let scale =
            figures.records.v1 >= 900_000 ? "" : " (this set is smaller than the targets' 1M x 1M: not comparable)"
        return
            "targets: reconcile 1M x 1M <= 20 s wall, on \(size)\(scale): \(seconds <= secondsTarget ? "met" : "NOT met") (\(fixed(seconds, 1)) s = \(fixed(seconds / secondsTarget, 2))x the target); "
            + "<= 700 MB max RSS: \(rss <= rssTarget ? "met" : "NOT met") (\(megabytes(rss)) MB = \(fixed(Double(rss) / Double(rssTarget), 2))x the target)"
    }
}
