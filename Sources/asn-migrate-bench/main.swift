// asn-migrate-bench: generates benchmark data once, then measures the release `asn-migrate` against its baselines.
//
// Usage: swift build -c release && .build/release/asn-migrate-bench [--data DIR] [--gb N] [--runs N] [--reconcile-runs N] [--reconcile-subscribers N]
//        [--only signatures|verify-rate|nightly] [--signature-subscribers N] [--nightly-subscribers N] [--nightly-night-records N]
//        [--only history-pages] (only the history-page reading measurement, on the reconcile data set)
//        [--only migrate] (only the migrate figures and their targets)
//        [--only reconcile] (reconcile on its data set: notifications, the Python join and Apple's API view, with targets)
//        [--only shards] [--shard-subscribers N] (--shards 1/2/4/8, --memory-limit, one --shard 0/8 task)
//        [--malloc-count FILE] (the allocation counter's source; default ../shared/tools/malloc-count.c)
//        [--results FILE] (the results table to update; default Sources/benchmark-results.md)
import Foundation

/// Command-line settings.
struct BenchSettings {
    /// Where the simulated data lives (generated once, reused), outside the repository.
    var data = "/tmp/asn-migrate-bench-data"
    /// Size of the migrate input in GB, roughly (simulate's default receipt history, about 21,000 subscribers per GB).
    var gigabytes = 2.0
    /// Timed runs of migrate; the best is reported.
    var runs = 3
    /// Timed runs of reconcile (each takes about a minute); the best wall time is reported.
    var reconcileRuns = 1
    /// Subscribers of the reconcile data set (137,000 over 12 months give about 1M V1 and 1M V2 records).
    var reconcileSubscribers = 137_000
    /// Receipt entries per V1 body in the reconcile data set, which keeps its V1 bytes moderate.
    var reconcileReceiptHistory = 2
    /// `signatures` runs only the signature figures (`SignatureBench`), `history-pages` only the history-page reading, `migrate` only the migrate figures; nil runs everything.
    var only: String?
    /// Subscribers of the `--only shards` data set (20,000 over 12 months give about 140,000 records a side).
    var shardSubscribers = 20_000
    /// Subscribers of the signed data set for `reconcile --verify-signatures` (12 months).
    var signatureSubscribers = 20_000
    /// Subscribers of the nightly data set (4 months; about 270,000 give a state of about 1M records over 3 months).
    var nightlySubscribers = 270_000
    /// Records (V1 + V2) of the measured incremental night.
    var nightlyNightRecords = 20_000
    /// The allocation counter's C source (nil: `shared/tools/malloc-count.c` beside the package).
    var mallocCount: String?
    /// The results table this run updates.
    var results = BenchResults.defaultPath
    /// The `asn-migrate` binary: beside this one.
    var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "asn-migrate"
    ).path

    /// Reads `--data`, `--gb`, `--runs`, `--reconcile-runs`, `--binary`, `--reconcile-subscribers`, `--reconcile-receipt-history`.
    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--data": data = value
            case "--gb": gigabytes = Double(value) ?? gigabytes
            case "--runs": runs = max(1, Int(value) ?? runs)
            case "--binary": binary = value
            case "--reconcile-runs": reconcileRuns = max(1, Int(value) ?? reconcileRuns)
            case "--reconcile-subscribers": reconcileSubscribers = max(1, Int(value) ?? reconcileSubscribers)
            case "--reconcile-receipt-history": reconcileReceiptHistory = max(1, Int(value) ?? reconcileReceiptHistory)
            case "--only": only = value
            case "--shard-subscribers": shardSubscribers = max(1, Int(value) ?? shardSubscribers)
            case "--signature-subscribers": signatureSubscribers = max(1, Int(value) ?? signatureSubscribers)
            case "--nightly-subscribers": nightlySubscribers = max(1, Int(value) ?? nightlySubscribers)
            case "--nightly-night-records": nightlyNightRecords = max(2, Int(value) ?? nightlyNightRecords)
            case "--malloc-count": mallocCount = value
            case "--results": results = value
            default:
                throw BenchError(
                    "unknown option \(flag); use --data DIR, --gb N, --runs N, --reconcile-runs N, --binary PATH, --reconcile-subscribers N, --reconcile-receipt-history N, --only signatures|verify-rate|nightly|history-pages|migrate|reconcile|shards, --shard-subscribers N, --signature-subscribers N, --nightly-subscribers N, --nightly-night-records N, --malloc-count FILE, --results FILE"
                )
            }
        }
    }
}

/// Prints a line at once (standard output unbuffered, so a long run shows progress).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Formats a number with `digits` decimals.
func fixed(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// The line of /proc/cpuinfo or /proc/meminfo starting with `key`, after its colon.
func procField(_ file: String, _ key: String) -> String {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return "unknown" }
    for line in text.split(separator: "\n") where line.hasPrefix(key) {
        return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
    }
    return "unknown"
}

/// The load average line of /proc/loadavg (1, 5, 15 minutes, runnable/total tasks, last pid).
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "unknown").trimmingCharacters(
        in: .whitespacesAndNewlines)
}

/// The 1-minute load average.
func loadOne() -> Double {
    Double(loadAverage().split(separator: " ").first ?? "") ?? 0
}

/// Megabytes of `bytes`, whole.
func megabytes(_ bytes: Int) -> Int { bytes >> 20 }

/// Runs the whole benchmark.
func runBenchmark() throws {
    let settings = try BenchSettings(Array(CommandLine.arguments.dropFirst()))
    guard FileManager.default.isExecutableFile(atPath: settings.binary) else {
        throw BenchError("no asn-migrate binary at \(settings.binary); run `swift build -c release` first")
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    say("asn-migrate-bench")
    say(
        "machine: \(cores) cores (nproc), CPU \(procField("/proc/cpuinfo", "model name")), memory \(procField("/proc/meminfo", "MemTotal"))"
    )
    say("binary: \(settings.binary)")
    let loadBefore = loadAverage()
    say("load average at start (/proc/loadavg): \(loadBefore)")
    let results = BenchResults(
        machine: "\(cores) cores, \(procField("/proc/cpuinfo", "model name"))", date: utcMinute(),
        command: (["asn-migrate-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
    defer {
        do { try results.write(to: settings.results) } catch { say("results: not written: \(error)") }
    }

    // Data, simulated once and reused.
    try FileManager.default.createDirectory(atPath: settings.data, withIntermediateDirectories: true)
    if settings.only == "verify-rate" {
        for rate in try SignatureBench.verificationRates(threads: [1, cores]) {
            say(
                "JWS verified in process: \(Int(rate.wall)) per second on \(rate.threads) thread(s), \(Int(rate.perCPUSecond)) per CPU-second"
            )
        }
        return
    }
    if settings.only == "nightly" {
        return try NightlyBench.run(
            binary: settings.binary, folder: settings.data, subscribers: settings.nightlySubscribers,
            nightRecords: settings.nightlyNightRecords, results: results)
    }
    if settings.only == "signatures" {
        return try SignatureBench.run(
            binary: settings.binary, folder: settings.data, subscribers: settings.signatureSubscribers,
            runs: settings.reconcileRuns)
    }
    let data = BenchData(binary: settings.binary, folder: settings.data)
    let counter = AllocationCounter.build(source: settings.mallocCount, folder: settings.data)
    if settings.only == "reconcile" {
        let set = try data.dataSet(
            subscribers: settings.reconcileSubscribers, seed: 7, receiptHistory: settings.reconcileReceiptHistory)
        let figures = try ReconcileBench.run(
            binary: settings.binary, set: set, folder: settings.data, runs: settings.reconcileRuns, counter: counter,
            results: results)
        say("load average at end (/proc/loadavg): \(loadAverage())")
        say(ReconcileBench.targetLine(figures, results: results))
        return
    }
    if settings.only == "shards" {
        let set = try data.dataSet(
            subscribers: settings.shardSubscribers, seed: 7, receiptHistory: settings.reconcileReceiptHistory)
        try ShardBench.run(binary: settings.binary, set: set, folder: settings.data)
        say("load average at end (/proc/loadavg): \(loadAverage())")
        return
    }
    if settings.only == "history-pages" {
        let set = try data.dataSet(
            subscribers: settings.reconcileSubscribers, seed: 7, receiptHistory: settings.reconcileReceiptHistory)
        try HistoryPageBench.report(v2Files: set.v2, folder: settings.data, runs: settings.runs)
        return
    }
    let migrateSet = try data.dataSet(
        subscribers: max(1, Int(settings.gigabytes * 21_000)), seed: 1, receiptHistory: nil)
    let parts = migrateSet.v1
    let size = migrateSet.v1Bytes
    let records = try countLines(parts)
    say(
        "migrate data: \(migrateSet.directory)/v1 (\(parts.count) files) = \(fixed(Double(size) / 1e9)) GB, \(records) V1 records"
    )
    say("load average after data: \(loadAverage())")

    // Warm the page cache, then the floor: reading the bytes.
    _ = try Baselines.read(parts)
    let readSeconds = (0..<2).map { _ in (try? Baselines.read(parts)) ?? .infinity }.min() ?? .infinity
    let readRate = Double(size) / readSeconds / 1e9
    say("baseline read (cat floor): \(fixed(readRate)) GB/s (\(fixed(readSeconds, 3)) s)")

    // migrate, best of `runs`.
    var best = ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0)
    for _ in 0..<settings.runs {
        let result = try ChildProcess.run(settings.binary, ["migrate"] + parts)
        guard result.status == 0 || result.status == 1 else { throw BenchError("migrate exited with \(result.status)") }
        if result.seconds < best.seconds { best = result }
    }
    let migrateRate = Double(size) / best.seconds / 1e9
    say(
        "migrate \(fixed(Double(size) / 1e9)) GB: \(fixed(best.seconds, 3)) s, \(fixed(migrateRate)) GB/s, \(Int(Double(records) / best.seconds)) records/s, max RSS \(megabytes(best.maxRSS)) MB (best of \(settings.runs))"
    )
    say(
        "migrate CPU time: \(fixed(best.cpuSeconds, 2)) s = \(fixed(Double(size) / best.cpuSeconds / 1e9, 3)) GB/s per core busy; \(fixed(best.cpuSeconds / best.seconds, 2)) cores used on average"
    )

    // Foundation JSONDecoder on the same bytes, on every core and on one.
    let decoded = try Baselines.jsonDecoder(parts, threads: cores)
    let decoderRate = Double(size) / decoded.seconds / 1e9
    say(
        "baseline JSONDecoder (\(cores) threads, Codable V1 struct per line): \(fixed(decoderRate, 3)) GB/s (\(fixed(decoded.seconds, 2)) s, \(decoded.lines) lines)"
    )
    let single = try Baselines.jsonDecoder([parts[0]], threads: 1)
    say(
        "baseline JSONDecoder (1 thread, \(parts[0])): \(fixed(Double(fileSize(parts[0])) / single.seconds / 1e9, 3)) GB/s"
    )
    say(
        "ratios: migrate = \(fixed(migrateRate / decoderRate, 1))x JSONDecoder (\(cores) threads); migrate time = \(fixed(best.seconds / readSeconds, 1))x the read time (\(fixed(migrateRate / readRate * 100, 1))% of cat speed)"
    )

    // Python + orjson, one process, the same job on the same bytes.
    var pythonResult: ChildProcess.Result?
    if PythonBaseline.available() {
        let python = try PythonBaseline.run(parts, folder: settings.data)
        pythonResult = python
        say(
            "baseline Python + orjson (1 process, parse, drop secrets, canonical JSON -> UUIDv5, newest transaction, map, write V2 JSON Lines): \(fixed(Double(size) / python.seconds / 1e9, 3)) GB/s (\(fixed(python.seconds, 2)) s wall, \(fixed(python.cpuSeconds, 2)) CPU-s = \(fixed(python.cpuSeconds / (Double(size) / 1e9), 2)) CPU-s/GB); migrate = \(fixed(python.seconds / best.seconds, 1))x its wall-clock speed, \(fixed(python.cpuSeconds / best.cpuSeconds, 1))x its CPU efficiency"
        )
    } else {
        say("baseline Python + orjson: skipped (python3 or its orjson module not found)")
    }

    // Records with 5 receipt entries (simulate --receipt-history 5; about 5 KB each with simulate's receipt blobs).
    let sixteenSet = try data.dataSet(subscribers: max(1, Int(settings.gigabytes * 25_000)), seed: 3, receiptHistory: 5)
    let sixteenRecords = try countLines(sixteenSet.v1)
    let bestSixteen = try bestMigrate(sixteenSet.v1, binary: settings.binary, runs: settings.runs)
    let sixteenRate = Double(sixteenSet.v1Bytes) / bestSixteen.seconds / 1e9
    say(
        "migrate \(fixed(Double(sixteenSet.v1Bytes) / 1e9)) GB of \(sixteenSet.v1Bytes / max(1, sixteenRecords) / 1024) KB records (5 receipt entries): \(fixed(bestSixteen.seconds, 3)) s, \(fixed(sixteenRate)) GB/s, CPU \(fixed(bestSixteen.cpuSeconds / (Double(sixteenSet.v1Bytes) / 1e9), 2)) CPU-s/GB (best of \(settings.runs))"
    )

    // Receipt-heavy records: 1 to 24 receipt entries, about 12 on average, ~15 KB a line with a ~4.5 KB
    // `latest_receipt` (simulate --months 96 --receipt-history 24: long-lived subscriptions), about 1 GB.
    let heavySet = try data.dataSet(
        subscribers: max(1, Int(settings.gigabytes * 1_900)), seed: 3, receiptHistory: 24, months: 96)
    let heavyRecords = try countLines(heavySet.v1)
    let bestHeavy = try bestMigrate(heavySet.v1, binary: settings.binary, runs: settings.runs)
    let heavyGB = Double(heavySet.v1Bytes) / 1e9
    let heavyRate = heavyGB / bestHeavy.seconds
    let heavyCPU = bestHeavy.cpuSeconds / heavyGB
    let heavyKB = heavySet.v1Bytes / max(1, heavyRecords) / 1024
    say(
        "migrate \(fixed(heavyGB)) GB of receipt-heavy records (\(heavyKB) KB a line, 1-24 receipt entries): \(fixed(bestHeavy.seconds, 3)) s, \(fixed(heavyRate)) GB/s, CPU \(fixed(heavyCPU, 2)) CPU-s/GB, max RSS \(megabytes(bestHeavy.maxRSS)) MB (best of \(settings.runs))"
    )
    results.add(
        "migrate receipt-heavy records (\(heavyKB) KB a line): throughput", figure: "\(fixed(heavyRate)) GB/s",
        target: ">= 1 GB/s", met: heavyRate >= 1)
    results.add(
        "migrate receipt-heavy records (\(heavyKB) KB a line): CPU per GB", figure: "\(fixed(heavyCPU)) CPU-s/GB",
        target: "<= 1.5 CPU-s/GB", met: heavyCPU <= 1.5)

    // Peak memory: about 1 GB (the first months up to half the set) and about 4 GB (the set twice) of input.
    var smallParts: [String] = []
    var smallBytes = 0
    for part in parts where smallBytes < size / 2 {
        smallParts.append(part)
        smallBytes += fileSize(part)
    }
    let small = try ChildProcess.run(settings.binary, ["migrate"] + smallParts)
    let large = try ChildProcess.run(settings.binary, ["migrate"] + parts + parts)
    say(
        "migrate max RSS: \(fixed(Double(smallBytes) / 1e9)) GB input \(megabytes(small.maxRSS)) MB (\(fixed(small.seconds, 2)) s), \(fixed(Double(size) * 2 / 1e9)) GB input \(megabytes(large.maxRSS)) MB (\(fixed(large.seconds, 2)) s)"
    )

    let cpuPerGB = best.cpuSeconds / (Double(size) / 1e9)
    let pythonTimes = pythonResult.map { $0.seconds / best.seconds }
    let peak = max(small.maxRSS, large.maxRSS)
    say(
        "targets (migrate): >= 1 GB/s: \(migrateRate >= 1 ? "met" : "not met") (\(fixed(migrateRate)) GB/s); 5-entry records (\(sixteenSet.v1Bytes / max(1, sixteenRecords) / 1024) KB) >= 1 GB/s: \(sixteenRate >= 1 ? "met" : "not met") (\(fixed(sixteenRate)) GB/s); <= 1.5 CPU-s/GB: \(cpuPerGB <= 1.5 ? "met" : "not met") (\(fixed(cpuPerGB)) CPU-s/GB); >= 5x Python + orjson: \(pythonTimes.map { $0 >= 5 ? "met" : "not met" } ?? "skipped") (\(pythonTimes.map { fixed($0, 1) + "x" } ?? "no python3/orjson")); >= 4x JSONDecoder: \(migrateRate >= 4 * decoderRate ? "met" : "not met") (\(fixed(migrateRate / decoderRate, 1))x); max RSS < 150 MB at 1 and 4 GB: \(peak < 150 << 20 ? "met" : "not met") (\(megabytes(small.maxRSS)) / \(megabytes(large.maxRSS)) MB)"
    )
    let gigabytes = fixed(Double(size) / 1e9)
    results.add(
        "migrate: throughput (\(gigabytes) GB)", figure: "\(fixed(migrateRate)) GB/s", target: ">= 1 GB/s",
        met: migrateRate >= 1)
    results.add(
        "migrate: CPU per GB (\(gigabytes) GB)", figure: "\(fixed(cpuPerGB)) CPU-s/GB", target: "<= 1.5 CPU-s/GB",
        met: cpuPerGB <= 1.5)
    if let pythonTimes {
        results.add(
            "migrate: speed against Python + orjson", figure: "\(fixed(pythonTimes, 1))x", target: ">= 5x",
            met: pythonTimes >= 5)
    }
    results.add(
        "migrate: peak RSS at 1 and 4 GB", figure: "\(megabytes(small.maxRSS)) / \(megabytes(large.maxRSS)) MB",
        target: "< 150 MB, flat", met: peak < 150 << 20)
    try counter?.measure(
        "migrate", binary: settings.binary, arguments: ["migrate"] + parts, records: records, inputBytes: size,
        targets: (4, 2), folder: settings.data, results: results)
    if settings.only == "migrate" { return }
    let reconcileSet = try data.dataSet(
        subscribers: settings.reconcileSubscribers, seed: 7, receiptHistory: settings.reconcileReceiptHistory)

    // reconcile ~1M x ~1M: the real command on the simulated archives, best of `runs`.
    let reconcile = try ReconcileBench.run(
        binary: settings.binary, set: reconcileSet, folder: settings.data, runs: settings.reconcileRuns,
        counter: counter, results: results)

    // Reading Get Transaction History pages against reading V2 notifications, per byte.
    try HistoryPageBench.report(v2Files: reconcileSet.v2, folder: settings.data, runs: settings.runs)

    let loadAfter = loadAverage()
    say("load average at end (/proc/loadavg): \(loadAfter)")
    let busy = (Double(loadBefore.split(separator: " ").first ?? "") ?? 0) >= 0.5 || loadOne() >= Double(cores) + 0.5
    say(
        "other load: \(busy ? "likely present (load average at start >= 0.5, or at end above this benchmark's own \(cores) cores); wall times may be inflated" : "none seen (load average at start < 0.5)")"
    )

    try SignatureBench.run(
        binary: settings.binary, folder: settings.data, subscribers: settings.signatureSubscribers,
        runs: settings.reconcileRuns)
    try NightlyBench.run(
        binary: settings.binary, folder: settings.data, subscribers: settings.nightlySubscribers,
        nightRecords: settings.nightlyNightRecords, results: results)
    say(ReconcileBench.targetLine(reconcile, results: results))
}

/// `migrate` over `files` (read once first, to warm the page cache) `runs` times: the fastest run.
func bestMigrate(_ files: [String], binary: String, runs: Int) throws -> ChildProcess.Result {
    _ = try Baselines.read(files)
    var best = ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0)
    for _ in 0..<runs {
        let result = try ChildProcess.run(binary, ["migrate"] + files)
        guard result.status == 0 || result.status == 1 else { throw BenchError("migrate exited with \(result.status)") }
        if result.seconds < best.seconds { best = result }
    }
    return best
}

/// Now in UTC, to the minute (`2026-11-26 22:40 UTC`).
func utcMinute() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
    return formatter.string(from: Date())
}

/// The number of newline-terminated lines in `files`.
func countLines(_ files: [String]) throws -> Int {
    var lines = 0
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
    defer { buffer.deallocate() }
    for file in files {
        let fd = open(file, O_RDONLY)
        guard fd >= 0 else { throw BenchError("cannot open \(file)") }
        defer { close(fd) }
        while true {
            let n = read(fd, buffer, 1 << 20)
            if n <= 0 { break }
            for k in 0..<n where buffer[k] == 0x0A { lines += 1 }
        }
    }
    return lines
}

do {
    try runBenchmark()
} catch {
    FileHandle.standardError.write(Data("asn-migrate-bench: \(error)\n".utf8))
    exit(1)
}
