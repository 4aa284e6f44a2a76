import Foundation
import Testing

@testable import ASNMigrateKit

/// A file that grows by any bytes (junk, good lines, lines cut short, a last line without its newline): its new part
/// is read in the shape the file was first read in, so the nights together take exactly the records and rejects one
/// full read of the grown file takes, and a damaged line costs one reject.
@Suite(.serialized) struct NightlyGrownFileTests {
    /// Forty-five simulated subscribers over four months: enough lines for the 100 + 63.
    static let simulation = ["--subscribers", "45", "--seed", "2", "--months", "4"]

    /// `count` seeded random bytes.
    static func junk(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// A report's difference cells (without the first/last-seen columns), sorted: what two states must agree on.
    static func differenceRows(_ path: String) throws -> [String] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        // A source names its file from the workspace's `in/` folder on, so two workspaces' rows compare.
        return records.dropFirst().map { row in
            row.fields.prefix(Discrepancy.columns.count).map { cell in
                cell.range(of: "/in/v").map { "in/v" + cell[$0.upperBound...] } ?? cell
            }.joined(separator: "\u{1F}")
        }.sorted()
    }

    /// A night's `rejected.csv` rows (side, source file name, line, reason), sorted.
    static func rejectRows(_ path: String) throws -> [String] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        return records.dropFirst().map { row in
            let fields = row.fields
            let name = fields[1].split(separator: "/").last.map(String.init) ?? fields[1]
            return [fields[0], name, fields[2], fields[3]].joined(separator: "\u{1F}")
        }.sorted()
    }

    // MARK: - The repro, through the built binary

    @Test func junkAtTheStartOfTheNewPartCostsItsLinesOnlyAndTheRecordsAfterItAreRead() throws {
        let data = try SimulatedLines(Self.simulation)
        try #require(data.v1.count >= 163, "\(data.v1.count) V1 lines")
        let lines = data.v1.prefix(163).map(\.text)
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive("v1/a.jsonl", Array(lines.prefix(100)))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        let first = try w.run("2021-05-01", ["--max-reject-rate", "100%"])
        #expect([0, 1].contains(first.status), "\(first.stderr)")

        // 3,000 random bytes, a newline, then 63 good lines.
        var random = SplitMix64(seed: 41)
        let junk = Self.junk(3000, &random)
        let junkLines = String(decoding: junk, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.allSatisfy { " \t\r".contains($0) } }.count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: w.v1 + "/a.jsonl"))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(junk + Array("\n".utf8) + Array(lines.suffix(63).map { $0 + "\n" }.joined().utf8)))
        try handle.close()
        let second = try w.run("2021-05-02", ["--max-reject-rate", "100%"])
        #expect([0, 1].contains(second.status), "\(second.stderr)")
        let s = try w.summary("2021-05-02")
        #expect(s["files_appended"] == "1", "\(s)")
        #expect(s["v1_records_read"] == String(63 + junkLines), "every record after the junk is read: \(s)")
        #expect(
            s["v1_rejected"] == String(junkLines) && junkLines > 1,
            "one reject per damaged line (\(junkLines) junk lines): \(s)")

        // A fresh state over the grown file says the same.
        let fresh = try NightlyWorkspace()
        defer { fresh.remove() }
        try fresh.tmp.write("in/v1/a.jsonl", try w.tmp.read("in/v1/a.jsonl"))
        try fresh.arrive("v2/a.jsonl", data.v2.map(\.text))
        let full = try fresh.run("2021-05-02", ["--max-reject-rate", "100%"])
        #expect([0, 1].contains(full.status), "\(full.stderr)")
        #expect(
            try Self.differenceRows(w.reports + "/2021-05-02/open.csv")
                == Self.differenceRows(fresh.reports + "/2021-05-02/open.csv"))
        #expect(
            try Self.rejectRows(w.reports + "/2021-05-01/rejected.csv")
                + Self.rejectRows(w.reports + "/2021-05-02/rejected.csv")
                == Self.rejectRows(fresh.reports + "/2021-05-02/rejected.csv"))
        #expect(try fresh.summary("2021-05-02")["v1_records_in_state"] == s["v1_records_in_state"])
        #expect(try w.query("SELECT shape FROM files WHERE side = 'v1'") == "json_lines", "the shape is in the ledger")
    }

    // MARK: - The property

    /// The bytes a file grows by: good lines, random junk (any bytes, newlines among them), a good line cut short
    /// (so the next piece lands in its line), blank lines, and perhaps a last line without its newline.
    static func growth(_ lines: ArraySlice<String>, _ random: inout SplitMix64, _ plan: inout [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        var next = lines.startIndex
        if random.next() % 2 == 0 {
            let count = 1 + Int(random.next() % 3000)
            bytes += junk(count, &random)
            plan.append("junk \(count) first")
        }
        while next < lines.endIndex {
            switch random.next() % 8 {
            case 0, 1, 2, 3:
                let take = min(1 + Int(random.next() % 5), lines.endIndex - next)
                if !bytes.isEmpty, bytes.last != 0x0A { bytes.append(0x0A) }
                for line in lines[next..<(next + take)] { bytes += Array(line.utf8) + [0x0A] }
                plan.append("\(take) good")
                next += take
            case 4:
                let count = 1 + Int(random.next() % 600)
                bytes += junk(count, &random)
                if random.next() % 2 == 0 { bytes.append(0x0A) }
                plan.append("junk \(count)")
            case 5:
                let line = Array(lines[next].utf8)
                let cut = Int(random.next() % UInt64(line.count))
                bytes += line.prefix(cut)
                plan.append("cut line at \(cut)")
                next += 1
            case 6:
                bytes += Array("\n  \r\n\t\n".utf8)
                plan.append("blank")
            default:
                bytes += Array("{\"notification_type\": \"DID_RENEW\", \"broken\": ".utf8) + [0x0A]
                plan.append("broken object")
            }
        }
        if random.next() % 3 == 0, let last = lines.last {
            let line = Array(last.utf8)
            bytes += line.prefix(1 + Int(random.next() % UInt64(line.count)))
            plan.append("last line without its newline")
        }
        return bytes
    }

    @Test func anyGrowthGivesTheRecordsAndRejectsOfOneFullRead() throws {
        let tmp = try TemporaryDirectory(under: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : nil)
        defer { tmp.remove() }
        let data = try SimulatedLines(["--subscribers", "6", "--seed", "5", "--months", "1", "--inject", "0.2"])
        let sides = ["v1": data.v1.map(\.text), "v2": data.v2.map(\.text)]
        let count = Int(ProcessInfo.processInfo.environment["ASN_GROWN_FILE_CASES"] ?? "") ?? 24
        var withJunkRejects = 0
        let seeds = ProcessInfo.processInfo.environment["ASN_GROWN_FILE_SEED"].flatMap(Int.init).map { [$0] }
        for seed in seeds ?? Array(0..<count) {
            var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 41)
            let side = seed % 2 == 0 ? "v1" : "v2"
            let lines = sides[side] ?? []
            // The part read first holds at least 4,096 bytes and three lines, so a full read of the grown file sniffs
            // text from the same first bytes and the same kind of first lines as the first read did.
            var cut = 3 + Int(random.next() % UInt64(max(1, lines.count / 2)))
            while cut < lines.count - 1, lines.prefix(cut).reduce(0, { $0 + $1.utf8.count + 1 }) < 4096 { cut += 1 }
            var plan = ["seed \(seed): \(side), \(cut) of \(lines.count) lines first"]
            let grown = Self.growth(lines[cut...], &random, &plan)
            let firstPart = Array(lines.prefix(cut).map { $0 + "\n" }.joined().utf8)
            let other = side == "v1" ? "v2" : "v1"
            let otherBytes = Array((sides[other] ?? []).map { $0 + "\n" }.joined().utf8)
            let description = plan.joined(separator: "; ")

            // Nightly: the first part one night, the grown file the next.
            let work = tmp.path + "/g\(seed)"
            let nightly = try Self.nightlyArguments(work)
            _ = try tmp.write("g\(seed)/in/\(side)/a.jsonl", firstPart)
            _ = try tmp.write("g\(seed)/in/\(other)/a.jsonl", otherBytes)
            let captured1 = CapturedConsole()
            let status1 = ASNMigrateCLI.run(nightly + ["--run-date", "2021-03-01"], console: captured1.console)
            #expect([.success, .findings, .sanityCheckFailed].contains(status1), "\(description): \(captured1.stderr)")
            _ = try tmp.write("g\(seed)/in/\(side)/a.jsonl", firstPart + grown)
            let captured2 = CapturedConsole()
            let status2 = ASNMigrateCLI.run(nightly + ["--run-date", "2021-03-02"], console: captured2.console)
            #expect([.success, .findings, .sanityCheckFailed].contains(status2), "\(description): \(captured2.stderr)")
            #expect(captured2.stderr.contains("grew: read its"), "\(description): read as grown: \(captured2.stderr)")

            // A fresh state over the grown file, the same night.
            let fresh = tmp.path + "/f\(seed)"
            let freshArguments = try Self.nightlyArguments(fresh)
            _ = try tmp.write("f\(seed)/in/\(side)/a.jsonl", firstPart + grown)
            _ = try tmp.write("f\(seed)/in/\(other)/a.jsonl", otherBytes)
            let captured3 = CapturedConsole()
            let status3 = ASNMigrateCLI.run(
                freshArguments + ["--run-date", "2021-03-02"], console: captured3.console)
            #expect([.success, .findings, .sanityCheckFailed].contains(status3), "\(description): \(captured3.stderr)")

            let nights =
                try Self.rejectRows(work + "/Reports/2021-03-01/rejected.csv")
                + Self.rejectRows(work + "/Reports/2021-03-02/rejected.csv")
            let full = try Self.rejectRows(fresh + "/Reports/2021-03-02/rejected.csv")
            #expect(
                nights.sorted() == full,
                "\(description)\nonly the nights: \(Set(nights).subtracting(full))\nonly the full read: \(Set(full).subtracting(nights))"
            )
            for report in ["open.csv", "pending.csv"] {
                // Sources name each workspace's own folder.
                let nightsRows = try Self.differenceRows(work + "/Reports/2021-03-02/" + report)
                let fullRows = try Self.differenceRows(fresh + "/Reports/2021-03-02/" + report)
                #expect(
                    nightsRows == fullRows,
                    "\(description): \(report)\nonly the nights: \(Set(nightsRows).subtracting(fullRows))\nonly the full read: \(Set(fullRows).subtracting(nightsRows))"
                )
            }
            let summary = try Self.summary(work + "/Reports/2021-03-02/summary.csv")
            let freshSummary = try Self.summary(fresh + "/Reports/2021-03-02/summary.csv")
            for key in ["v1_records_in_state", "v2_records_in_state"] {
                #expect(summary[key] == freshSummary[key], "\(description): \(key)")
            }
            if Int(summary["\(side)_rejected"] ?? "") ?? 0 > 1 { withJunkRejects += 1 }
            try? FileManager.default.removeItem(atPath: work)
            try? FileManager.default.removeItem(atPath: fresh)
        }
        #expect(
            withJunkRejects > (seeds?.count ?? count) / 3,
            "most growths hold damaged lines (not vacuous): \(withJunkRejects)")
    }

    /// `nightly`'s arguments over `work/in/v1` and `work/in/v2`, its state and reports in `work`.
    static func nightlyArguments(_ work: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: work + "/in/v1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work + "/in/v2", withIntermediateDirectories: true)
        return [
            "nightly", "--v1", work + "/in/v1", "--v2", work + "/in/v2", "--state", work + "/state.sqlite",
            "--reports", work + "/Reports", "--max-reject-rate", "100%"
        ] + NightlyWorkspace.timeless
    }

    /// A `summary.csv` as metric → value.
    static func summary(_ path: String) throws -> [String: String] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        var metrics: [String: String] = [:]
        for row in records where row.fields.count == 2 { metrics[row.fields[0]] = row.fields[1] }
        return metrics
    }
}
