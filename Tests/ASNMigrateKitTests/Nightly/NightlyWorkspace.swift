import Foundation

@testable import ASNMigrateKit

/// A temporary folder where files "arrive" night after night, and the built binary's `nightly` runs over them.
struct NightlyWorkspace {
    /// The folder.
    let tmp: TemporaryDirectory
    /// Extra flags for every run (settle, window, …).
    var flags: [String] = []
    /// The freshness and file-age flags every run gets (`timeless`; a test of those rules sets its own).
    var timelessFlags = NightlyWorkspace.timeless

    /// Creates an empty workspace with `in/v1`, `in/v2`.
    init(flags: [String] = []) throws {
        tmp = try TemporaryDirectory()
        try tmp.makeDirectory("in/v1")
        try tmp.makeDirectory("in/v2")
        self.flags = flags
    }

    /// A workspace holding every month of a simulation run with `simulate` (e.g. `--subscribers 40 --seed 5`).
    static func simulated(_ simulate: [String]) throws -> NightlyWorkspace {
        let sim = try TemporaryDirectory()
        defer { sim.remove() }
        _ = try BinaryRun.run(["simulate"] + simulate + ["--out", sim.path + "/sim"])
        let workspace = try NightlyWorkspace()
        for side in ["v1", "v2"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: sim.path + "/sim/" + side)
            where name.hasSuffix(".jsonl") {
                try workspace.tmp.write("in/\(side)/\(name)", try sim.read("sim/\(side)/\(name)"))
            }
        }
        return workspace
    }

    /// The V1 input root.
    var v1: String { tmp.path + "/in/v1" }
    /// The V2 input root.
    var v2: String { tmp.path + "/in/v2" }
    /// The state database.
    var state: String { tmp.path + "/state/state.sqlite" }
    /// The reports root.
    var reports: String { tmp.path + "/Reports" }

    /// Flags every run gets unless a test is about them: simulated data is old and files were just written, so
    /// freshness (`--max-lag`) and the file-age wait (`--min-file-age`) are turned off.
    static let timeless = ["--max-lag", "36500d", "--min-file-age", "0"]

    /// The names of the night's report files (`NightlyReport.fileNames`) whose bytes differ between two report
    /// folders, or are missing from `expected`: what a merged sharded night is checked with.
    static func differingNightFiles(_ merged: String, expected: String) -> [String] {
        NightlyReport.fileNames.filter { name in
            let want = FileManager.default.contents(atPath: expected + "/" + name)
            return want == nil || FileManager.default.contents(atPath: merged + "/" + name) != want
        }
    }

    /// The arguments of a run for `date`.
    func arguments(_ date: String) -> [String] {
        ["nightly", "--v1", v1, "--v2", v2, "--state", state, "--reports", reports, "--run-date", date] + timelessFlags
            + flags
    }

    /// Runs `nightly` for `date` to its end.
    func run(_ date: String, _ extra: [String] = []) throws -> BinaryRun {
        try BinaryRun.run(arguments(date) + extra)
    }

    /// Writes lines as a file under `in/`.
    func arrive(_ name: String, _ lines: [String]) throws {
        try tmp.write("in/" + name, lines.map { $0 + "\n" }.joined())
    }

    /// The rows (without header) of a report file of `date`.
    func rows(_ date: String, _ name: String) throws -> [[String]] {
        let bytes = try tmp.read("Reports/\(date)/\(name)")
        var reader = CSVReader(path: name)
        let rows = try reader.feed(bytes) + reader.finish()
        return rows.map(\.fields)
    }

    /// The summary metrics of `date`.
    func summary(_ date: String) throws -> [String: String] {
        var metrics: [String: String] = [:]
        for row in try rows(date, "summary.csv") where row.count == 2 { metrics[row[0]] = row[1] }
        return metrics
    }

    /// The bytes of every report file of `date`, by name (`report.html` too, written by default).
    func reportBytes(_ date: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in NightlyReport.fileNames + [HTMLReport.fileName] {
            files[name] = try tmp.read("Reports/\(date)/\(name)")
        }
        return files
    }

    /// Every table of the state but the run log, as sorted text rows: what "the same state" means.
    func stateDump() throws -> [String] {
        let db = try SQLiteDatabase(path: state, create: false)
        defer { db.close() }
        var dump: [String] = []
        for table in [
            "files", "texts", "subscriptions", "facts", "pruned_uuids", "conflicts", "differences", "pending",
            "rejects", "meta"
        ] {
            let statement = try db.prepare("SELECT * FROM \(table)")
            try statement.forEach { (s: SQLiteStatement) throws(ASNError) in
                dump.append(
                    table + ": " + (0..<s.columnCount).map { s.optionalText($0) ?? "NULL" }.joined(separator: "|"))
            }
        }
        return dump.sorted()
    }

    /// Sets a file's modification time to `secondsAgo` before the machine's clock (how old a file looks to `min-file-age`).
    func age(_ name: String, secondsAgo: Double) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: tmp.path + "/in/" + name)
    }

    /// Appends text to a file under `in/`.
    func append(_ name: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tmp.path + "/in/" + name))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// The metric of a Prometheus text file: the value of the sample line starting with `sample` (name and labels).
    func metric(_ file: String, _ sample: String) throws -> String? {
        let text = String(decoding: try tmp.read(file), as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.map {
            String($0.dropFirst(sample.count + 1))
        }
    }

    /// One value from the state (the first column of the first row), as text.
    func query(_ sql: String) throws -> String? {
        let db = try SQLiteDatabase(path: state, create: false)
        defer { db.close() }
        var value: String?
        try db.prepare(sql).forEach { (s: SQLiteStatement) throws(ASNError) in
            if value == nil { value = s.optionalText(0) }
        }
        return value
    }

    /// Removes the folder.
    func remove() { tmp.remove() }
}

/// Simulated archives, read into lines with the event time of each, for splitting into nights.
struct SimulatedLines {
    /// One line of a simulated file, with its time (V1: the envelope's receive time or event; V2: signedDate).
    struct Line {
        var text: String
        var time: Int64
        var type: String
        var originalTransactionId: String
    }

    /// V1 lines in file order.
    var v1: [Line] = []
    /// V2 lines in file order.
    var v2: [Line] = []

    /// Runs `asn-migrate simulate` with `options` and reads its files.
    init(_ options: [String]) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run(["simulate", "--out", tmp.path + "/sim"] + options)
        guard run.status == 0 else { throw ASNError(.usage, "simulate failed: \(run.stderr)") }
        let mapper = V1RecordMapper(table: try MappingTable.builtIn())
        let decoder = V2RecordDecoder()
        for side in ["v1", "v2"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/sim/" + side).sorted()
            for name in names {
                let text = String(decoding: try tmp.read("sim/\(side)/\(name)"), as: UTF8.self)
                for line in text.split(separator: "\n") {
                    let raw = RawRecord(location: SourceLocation(path: name, line: 1), bytes: Array(line.utf8))
                    if side == "v1" {
                        guard case .migrated(let p) = mapper.map(raw), let time = p.signedDate else { continue }
                        v1.append(
                            Line(
                                text: String(line), time: time, type: p.notificationType,
                                originalTransactionId: p.data.transactionInfo?.originalTransactionId ?? ""))
                    } else {
                        guard let p = decoder.decode(raw).first?.record?.payload, let time = p.signedDate else {
                            continue
                        }
                        v2.append(
                            Line(
                                text: String(line), time: time, type: p.notificationType,
                                originalTransactionId: p.data.transactionInfo?.originalTransactionId ?? p.data
                                    .renewalInfo?.originalTransactionId ?? ""))
                    }
                }
            }
        }
    }
}
