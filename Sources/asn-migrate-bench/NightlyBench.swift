import Foundation

/// The figures of a first night (backfill) against `reconcile` on the same data, then one night of about
/// `nightRecords` new records on top of the state that backfill left (wall time and peak RSS of each run).
///
/// Data: `simulate --months 4 --receipt-history 2` (once). The state holds the first three months (about 90 days,
/// inside the default 90-day horizon); the night brings the first `nightRecords / 2` lines of each side's fourth month.
enum NightlyBench {
    /// Runs the measurements and prints them; `subscribers` sizes the data set.
    static func run(
        binary: String, folder: String, subscribers: Int, nightRecords: Int, results: BenchResults
    ) throws {
        say("load average before nightly bench (/proc/loadavg): \(loadAverage())")
        let directory = "\(folder)/sim-\(subscribers)-seed21-m4-rh2"
        if !FileManager.default.fileExists(atPath: "\(directory)/README.txt") {
            let arguments = [
                "simulate", "--subscribers", String(subscribers), "--seed", "21", "--months", "4", "--receipt-history",
                "2", "--out", directory
            ]
            say("simulating nightly data (once; later runs reuse it): asn-migrate \(arguments.joined(separator: " "))")
            let made = try ChildProcess.run(binary, arguments)
            guard made.status == 0 else { throw BenchError("simulate exited with \(made.status)") }
            say("  simulated in \(fixed(made.seconds, 1)) s")
        }
        // A fresh work folder: input roots of hard links to the first three months, the state, the reports.
        let work = "\(folder)/nightly-work"
        try? FileManager.default.removeItem(atPath: work)
        var nightLines: [String: [Substring]] = [:]
        for side in ["v1", "v2"] {
            let months = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(side)").filter {
                $0.hasSuffix(".jsonl")
            }.sorted()
            guard months.count >= 4 else {
                throw BenchError("\(directory)/\(side) has \(months.count) month files, expected 4 or more")
            }
            try FileManager.default.createDirectory(atPath: "\(work)/in/\(side)", withIntermediateDirectories: true)
            for month in months.prefix(3) {
                try FileManager.default.linkItem(
                    atPath: "\(directory)/\(side)/\(month)", toPath: "\(work)/in/\(side)/\(month)")
            }
            // Read only the lines needed: the children's peak RSS (ru_maxrss) starts from this process's RSS at spawn time.
            nightLines[side] = try firstLines("\(directory)/\(side)/\(months[3])", count: nightRecords)
        }
        let stateRecords = try countLines(try inputFiles("\(work)/in"))
        _ = try Baselines.read(try inputFiles("\(work)/in"))
        let backfillDate = "2021-03-31"
        let reconcile = try ChildProcess.run(
            binary,
            [
                "reconcile", "--v1", "\(work)/in/v1", "--v2", "\(work)/in/v2", "--out", "\(work)/reconcile",
                "--run-date", backfillDate
            ])
        guard [0, 1, 3].contains(reconcile.status) else {
            throw BenchError("reconcile exited with \(reconcile.status)")
        }
        say(
            "reconcile over months 1-3 (\(stateRecords) V1 + V2 lines): \(fixed(reconcile.seconds, 2)) s wall, CPU \(fixed(reconcile.cpuSeconds, 2)) s, max RSS \(megabytes(reconcile.maxRSS)) MB"
        )

        // Files written a moment ago and simulated dates long past: no deferral, no freshness alarm.
        let nightly = [
            "nightly", "--v1", "\(work)/in/v1", "--v2", "\(work)/in/v2", "--state", "\(work)/state.sqlite", "--reports",
            "\(work)/Reports",
            "--min-file-age", "0", "--max-lag", "36500d"
        ]
        let backfill = try ChildProcess.run(binary, nightly + ["--run-date", backfillDate])
        guard [0, 1, 3].contains(backfill.status) else {
            throw BenchError("nightly (backfill) exited with \(backfill.status)")
        }
        let inState =
            try summaryValue("\(work)/Reports/\(backfillDate)/summary.csv", "v1_records_in_state")
            + summaryValue("\(work)/Reports/\(backfillDate)/summary.csv", "v2_records_in_state")
        let ratio = backfill.seconds / reconcile.seconds
        say(
            "nightly first night (backfill) over the same data: \(fixed(backfill.seconds, 2)) s wall, CPU \(fixed(backfill.cpuSeconds, 2)) s, max RSS \(megabytes(backfill.maxRSS)) MB; "
                + "\(inState) records in the state; \(fixed(ratio, 2))x reconcile's wall time, \(fixed(backfill.cpuSeconds / reconcile.cpuSeconds, 2))x its CPU time"
        )

        // The night: the first lines of month 4 arrive; the run date is the day after the newest V2 record among them.
        var newest: Int64 = 0
        for line in nightLines["v2"] ?? [] { newest = max(newest, signedDate(line) ?? 0) }
        let nightDate = day(ms: newest + 86_400_000)
        for side in ["v1", "v2"] {
            let text = (nightLines[side] ?? []).prefix(nightRecords / 2).joined(separator: "\n") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(work)/in/\(side)/night.jsonl"))
        }
        // The first night after the backfill: the period's end moves from the end of month 3 across most of month 4.
        let night = try ChildProcess.run(binary, nightly + ["--run-date", nightDate])
        guard [0, 1, 3].contains(night.status) else { throw BenchError("nightly (night) exited with \(night.status)") }
        let read =
            try summaryValue("\(work)/Reports/\(nightDate)/summary.csv", "v1_records_read")
            + summaryValue("\(work)/Reports/\(nightDate)/summary.csv", "v2_records_read")
        say(
            "nightly night \(nightDate): \(read) new records read on a state of \(inState): \(fixed(night.seconds, 2)) s wall, CPU \(fixed(night.cpuSeconds, 2)) s, max RSS \(megabytes(night.maxRSS)) MB"
        )
        // A second night, the usual one: the next lines of month 4 (the period's end moves by about a day, where the
        // first night's moved from the end of month 3 across most of month 4, so most subscriptions were re-paired).
        for side in ["v1", "v2"] {
            let text = (nightLines[side] ?? []).dropFirst(nightRecords / 2).joined(separator: "\n") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(work)/in/\(side)/night2.jsonl"))
        }
        let secondDate = day(ms: newest + 2 * 86_400_000)
        let second = try ChildProcess.run(binary, nightly + ["--run-date", secondDate])
        guard [0, 1, 3].contains(second.status) else {
            throw BenchError("nightly (second night) exited with \(second.status)")
        }
        let read2 =
            try summaryValue("\(work)/Reports/\(secondDate)/summary.csv", "v1_records_read")
            + summaryValue("\(work)/Reports/\(secondDate)/summary.csv", "v2_records_read")
        say(
            "nightly second night \(secondDate): \(read2) new records read: \(fixed(second.seconds, 2)) s wall, CPU \(fixed(second.cpuSeconds, 2)) s, max RSS \(megabytes(second.maxRSS)) MB"
        )
        let stateBytes = (try? FileManager.default.attributesOfItem(atPath: "\(work)/state.sqlite")[.size] as? Int) ?? 0
        let perRecord = inState > 0 ? stateBytes / inState : 0
        say("state file: \(stateBytes >> 20) MB, \(perRecord) bytes per record")
        say("load average after nightly bench (/proc/loadavg): \(loadAverage())")
        say(
            "targets: night <= 5 s wall: first \(night.seconds <= 5 ? "met" : "NOT met") (\(fixed(night.seconds, 2)) s), second \(second.seconds <= 5 ? "met" : "NOT met") (\(fixed(second.seconds, 2)) s); "
                + "night <= 300 MB peak RSS: first \(night.maxRSS <= 300 << 20 ? "met" : "NOT met") (\(megabytes(night.maxRSS)) MB), second \(second.maxRSS <= 300 << 20 ? "met" : "NOT met") (\(megabytes(second.maxRSS)) MB); "
                + "state <= 200 bytes per record: \(perRecord <= 200 ? "met" : "NOT met") (\(perRecord)); backfill <= 1.5x reconcile: \(ratio <= 1.5 ? "met" : "NOT met") (\(fixed(ratio, 2))x); state \(inState) records"
        )
        // Into the results table, beside reconcile's figures on the same files (the issue's targets).
        let rssRatio = Double(backfill.maxRSS) / Double(max(1, reconcile.maxRSS))
        let size = "\(inState) records"
        results.add(
            "nightly first night (\(size)): wall time / reconcile's on the same files", figure: "\(fixed(ratio, 2))x",
            target: "<= 2x", met: ratio <= 2)
        results.add(
            "nightly first night (\(size)): peak RSS / reconcile's", figure: "\(fixed(rssRatio, 2))x",
            target: "<= 1.5x", met: rssRatio <= 1.5)
        for (name, run) in [("first usual night", night), ("second usual night", second)] {
            results.add(
                "nightly \(name) (\(nightRecords) records on \(size)): wall time", figure: "\(fixed(run.seconds, 2)) s",
                target: "<= 3 s", met: run.seconds <= 3)
            results.add(
                "nightly \(name) (\(nightRecords) records on \(size)): peak RSS", figure: "\(megabytes(run.maxRSS)) MB",
                target: "<= 200 MB", met: run.maxRSS <= 200 << 20)
        }
        results.add(
            "nightly state, notifications (\(size)): bytes a record", figure: "\(perRecord) B", target: "<= 200 B",
            met: perRecord <= 200)
    }

    /// The first `count` lines of a file, read a megabyte at a time (never the whole file).
    private static func firstLines(_ path: String, count: Int) throws -> [Substring] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError("cannot open \(path)") }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        var lines = 0
        while lines < count, let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            bytes += chunk
        }
        return Array(String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(count))
    }

    /// The `.jsonl` files under `root/v1` and `root/v2`.
    private static func inputFiles(_ root: String) throws -> [String] {
        try ["v1", "v2"].flatMap { side in
            try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(side)").sorted().map {
                "\(root)/\(side)/\($0)"
            }
        }
    }

    /// A metric of a `summary.csv`, as a number (0 when absent).
    private static func summaryValue(_ path: String, _ metric: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(metric + ",") {
            return Int(line.dropFirst(metric.count + 1)) ?? 0
        }
        return 0
    }

    /// The `signedDate` of a V2 line (a decoded payload, or a raw body whose JWS payload is decoded), if it has one.
    private static func signedDate(_ line: Substring) -> Int64? {
        var text = String(line)
        if let range = text.range(of: "\"signedPayload\":\""), let dot = text[range.upperBound...].firstIndex(of: ".") {
            var part = String(text[text.index(after: dot)...].prefix { $0 != "." && $0 != "\"" })
            part = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while part.count % 4 != 0 { part += "=" }
            guard let data = Data(base64Encoded: part) else { return nil }
            text = String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "\"signedDate\":") else { return nil }
        return Int64(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// `YYYY-MM-DD` of an epoch-ms instant (UTC).
    private static func day(ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }
}
