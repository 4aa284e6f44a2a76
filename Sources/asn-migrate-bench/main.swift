// asn-migrate-bench: generates benchmark data once, then measures the release `asn-migrate` against its baselines.
//
// Usage: swift build -c release && .build/release/asn-migrate-bench [--data DIR] [--gb N] [--runs N]
import Foundation

/// Command-line settings.
struct BenchSettings {
    /// Where the data lives (generated once, reused).
    var data = "/tmp/asn-migrate-bench-data"
    /// Size of the throughput input in GB (two files of half that size).
    var gigabytes = 2.0
    /// Timed runs of migrate; the best is reported.
    var runs = 3
    /// The `asn-migrate` binary: beside this one.
    var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("asn-migrate").path

    /// Reads `--data`, `--gb`, `--runs`, `--binary`.
    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--data": data = value
            case "--gb": gigabytes = Double(value) ?? gigabytes
            case "--runs": runs = max(1, Int(value) ?? runs)
            case "--binary": binary = value
            default: throw BenchError("unknown option \(flag); use --data DIR, --gb N, --runs N, --binary PATH")
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
        return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
    return "unknown"
}

/// Whether `asn-migrate COMMAND --help` succeeds.
func hasCommand(_ binary: String, _ command: String) -> Bool {
    (try? ChildProcess.run(binary, [command, "--help"]).status) == 0
}

/// Runs the whole benchmark.
func runBenchmark() throws {
    let settings = try BenchSettings(Array(CommandLine.arguments.dropFirst()))
    guard FileManager.default.isExecutableFile(atPath: settings.binary) else {
        throw BenchError("no asn-migrate binary at \(settings.binary); run `swift build -c release` first")
    }
    say("asn-migrate-bench")
    say("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), CPU \(procField("/proc/cpuinfo", "model name")), memory \(procField("/proc/meminfo", "MemTotal"))")
    say("binary: \(settings.binary)")

    // Data, generated once. The simulator (`asn-migrate simulate`) is used once it exists; until then the internal generator.
    try FileManager.default.createDirectory(atPath: settings.data, withIntermediateDirectories: true)
    let generator: BenchDataGenerator = InternalV1Generator()
    if hasCommand(settings.binary, "simulate") {
        say("note: `simulate` exists; switch BenchDataGenerator to it (this build still uses the internal generator)")
    }
    let half = Int(settings.gigabytes * 1e9 / 2)
    var parts: [String] = []
    for (k, seed) in [UInt64(1), 2].enumerated() {
        let path = "\(settings.data)/v1-part\(k + 1)-\(half / 1_000_000)MB.jsonl"
        if !FileManager.default.fileExists(atPath: path) {
            let start = Date()
            let records = try InternalV1Generator(seed: seed).generate(bytes: half, to: path + ".tmp")
            try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
            say("generated \(path): \(records) records in \(fixed(Date().timeIntervalSince(start), 1)) s (\(generator.name))")
        }
        parts.append(path)
    }
    let size = parts.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
    say("data: \(parts.joined(separator: " + ")) = \(fixed(Double(size) / 1e9)) GB")

    // Warm the page cache, then the floor: reading the bytes.
    _ = try Baselines.read(parts)
    let readSeconds = (0..<2).map { _ in (try? Baselines.read(parts)) ?? .infinity }.min() ?? .infinity
    say("baseline read (cat floor): \(fixed(Double(size) / readSeconds / 1e9)) GB/s (\(fixed(readSeconds, 3)) s)")

    // migrate, best of `runs`.
    var best = ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0)
    for _ in 0..<settings.runs {
        let result = try ChildProcess.run(settings.binary, ["migrate"] + parts)
        guard result.status == 0 else { throw BenchError("migrate exited with \(result.status)") }
        if result.seconds < best.seconds { best = result }
    }
    let records = try countLines(parts)
    let migrateRate = Double(size) / best.seconds / 1e9
    say("migrate \(fixed(Double(size) / 1e9)) GB: \(fixed(best.seconds, 3)) s, \(fixed(migrateRate)) GB/s, \(Int(Double(records) / best.seconds)) records/s, max RSS \(best.maxRSS >> 20) MB (best of \(settings.runs))")
    say("migrate CPU time: \(fixed(best.cpuSeconds, 2)) s = \(fixed(Double(size) / best.cpuSeconds / 1e9, 3)) GB/s per core busy; \(fixed(best.cpuSeconds / best.seconds, 2)) cores used on average")

    // Foundation JSONDecoder on the same bytes, on every core and on one.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    say("load average before the baselines: \(procField("/proc/loadavg", ""))")
    let decoded = try Baselines.jsonDecoder(parts, threads: cores)
    let decoderRate = Double(size) / decoded.seconds / 1e9
    say("baseline JSONDecoder (\(cores) threads, Codable V1 struct per line): \(fixed(decoderRate, 3)) GB/s (\(fixed(decoded.seconds, 2)) s, \(decoded.lines) lines)")
    let single = try Baselines.jsonDecoder([parts[0]], threads: 1)
    say("baseline JSONDecoder (1 thread, first file): \(fixed(Double(half) / single.seconds / 1e9, 3)) GB/s")
    say("ratios: migrate = \(fixed(migrateRate / decoderRate, 1))x JSONDecoder (\(cores) threads), \(fixed(best.seconds / readSeconds, 1))x the read time")

    // Peak memory: 1 GB and 4 GB (the two files twice) of input.
    let small = try ChildProcess.run(settings.binary, ["migrate", parts[0]])
    let large = try ChildProcess.run(settings.binary, ["migrate"] + parts + parts)
    say("migrate max RSS: \(fixed(Double(size) / 2e9)) GB input \(small.maxRSS >> 20) MB (\(fixed(small.seconds, 2)) s), \(fixed(Double(size) * 2 / 1e9)) GB input \(large.maxRSS >> 20) MB (\(fixed(large.seconds, 2)) s)")

    // reconcile 1M x 1M, once simulate and reconcile are on main.
    if hasCommand(settings.binary, "simulate") && hasCommand(settings.binary, "reconcile") {
        say("reconcile: commands exist but the 1M x 1M scenario is not wired into this benchmark yet")
    } else {
        say("reconcile 1M x 1M: not available (this asn-migrate has no `simulate` and `reconcile` commands yet)")
    }
    say("targets: migrate >= 1 GB/s: \(migrateRate >= 1 ? "met" : "NOT met"); >= 4x JSONDecoder: \(migrateRate >= 4 * decoderRate ? "met" : "NOT met"); max RSS < 150 MB at both sizes: \(max(small.maxRSS, large.maxRSS) < 150 << 20 ? "met" : "NOT met")")
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
