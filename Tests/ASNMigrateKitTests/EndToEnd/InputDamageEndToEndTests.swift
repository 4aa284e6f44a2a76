import Foundation
import Testing

@testable import ASNMigrateKit

/// Runs the built binary on damaged inputs made in each test: one bad line, row or file costs exactly one counted
/// reject, and every good record around it is still read.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct InputDamageEndToEndTests {
    /// `count` good V1 bodies on one line each, with distinct transactions.
    static func goodV1Lines(_ count: Int, from first: Int = 0) -> [String] {
        (first..<(first + count)).map { (n: Int) -> String in
            let id: String = String(2_000_000_000 + n)
            let original: String = String(1_000_000_000 + n)
            let transaction: String = V1Fixture.tx(
                id: id, original: original, purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
            return V1Fixture.body(type: "DID_RENEW", transactions: [transaction])
        }
    }

    /// The `read/migrated/unmapped/rejected` counts of a migrate run's stderr.
    static func counts(_ run: BinaryRun) throws -> (read: Int, migrated: Int, unmapped: Int, rejected: Int) {
        try #require(MigrateEndToEndTests.summaryCounts(run.stderr), "no summary in: \(run.stderr)")
    }

    /// The metrics of a reconcile report's `summary.csv`.
    static func metrics(_ directory: String) throws -> [String: String] {
        let text = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/summary.csv")), as: UTF8.self)
        var metrics: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let parts = line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { metrics[String(parts[0])] = String(parts[1]) }
        }
        return metrics
    }

    // MARK: - A bad first line

    @Test(arguments: [
        "{", "{\"notification_type\":\"DID_RENEW\",\"password\":\"abc", "{\"notification_type\":\"DID_RENEW\",",
        "{\"unified_receipt\":{\"latest_receipt_info\":[{"
    ])
    func aBadFirstLineCostsOneRejectInMigrate(bad: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("feed.jsonl", ([bad] + Self.goodV1Lines(5)).joined(separator: "\n") + "\n")
        let rejects = tmp.path + "/rejects.csv"
        let run = try BinaryRun.run(["migrate", path, "--out", tmp.path + "/out.jsonl", "--rejects", rejects])
        let c = try Self.counts(run)
        #expect(c.read == 6 && c.migrated == 5 && c.unmapped == 0 && c.rejected == 1, "\(run.stderr)")
        let rows = try CSVReader.read(try tmp.read("rejects.csv"), path: rejects).records
        #expect(rows.count == 1)
        #expect(rows.first?.fields[2] == "1", "the reject names line 1: \(rows)")
    }

    @Test func aLoneBraceBefore39RecordsLosesNone() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("feed.jsonl", "{\n" + Self.goodV1Lines(39).joined(separator: "\n") + "\n")
        let run = try BinaryRun.run(["migrate", path, "--out", tmp.path + "/out.jsonl"])
        let c = try Self.counts(run)
        #expect(c.read == 40 && c.migrated == 39 && c.rejected == 1, "\(run.stderr)")
        #expect(run.stderr.contains("at \(path):1"), "the reject names line 1: \(run.stderr)")
    }

    @Test(arguments: [2, 20, 39])
    func theSameDamageLaterCostsOneReject(at line: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var lines = Self.goodV1Lines(40)
        lines[line] = "{"
        let path = try tmp.write("feed.jsonl", lines.joined(separator: "\n"))
        let c = try Self.counts(try BinaryRun.run(["migrate", path, "--out", tmp.path + "/out.jsonl"]))
        #expect(c.read == 40 && c.migrated == 39 && c.rejected == 1)
    }

    @Test func aBadFirstLineOnTheV2SideCostsOneReject() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write("v1.jsonl", Self.goodV1Lines(12).joined(separator: "\n") + "\n")
        let migrated = tmp.path + "/v2.jsonl"
        #expect(try BinaryRun.run(["migrate", v1, "--out", migrated]).status == 0)
        let damaged = try tmp.write(
            "v2-damaged.jsonl", Array("{\"notificationType\":\"DID_RENEW\",\"data\":{\n".utf8) + tmp.read("v2.jsonl"))
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", damaged, "--out", tmp.path + "/report"])
        let m = try Self.metrics(tmp.path + "/report")
        #expect(m["v2_records_read"] == "13", "\(run.stderr)")
        #expect(m["v2_rejected"] == "1")
        #expect(m["matched"] == "12")
        #expect(m["missing_in_v2"] == "0")
    }

    // MARK: - CSV

    /// V1 bodies whose product ids start with formula leaders, so `migrate --format csv` guards them.
    static func formulaLeadingV1Lines() -> [String] {
        ["-2+3", "=x", "@y", "+1", "'=kept", "plain"].enumerated().map { n, product in
            V1Fixture.body(
                type: "DID_RENEW",
                transactions: [
                    V1Fixture.tx(
                        id: String(3_000_000_000 + n), original: String(3_100_000_000 + n), product: product,
                        purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
                ],
                pending: [
                    V1Fixture.pending(original: String(3_100_000_000 + n), product: product, autoRenewProduct: product)
                ])
        } + goodV1Lines(4)
    }

    @Test func migrateCSVReadsBackWithZeroDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write("v1.jsonl", Self.formulaLeadingV1Lines().joined(separator: "\n") + "\n")
        let csv = tmp.path + "/migrated.csv"
        let migrate = try BinaryRun.run(["migrate", v1, "--format", "csv", "--out", csv])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let written = String(decoding: try tmp.read("migrated.csv"), as: UTF8.self)
        #expect(
            written.contains(",'-2+3,") && written.contains(",'=x,") && written.contains(",'@y,"),
            "the cells are guarded")
        let report = tmp.path + "/report"
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", csv, "--v2-columns", "Mappings/v2-columns.migrate-csv.map", "--out", report
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let differences = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv")), as: UTF8.self)
        #expect(differences == Discrepancy.columns.joined(separator: ",") + "\n")
        let m = try Self.metrics(report)
        #expect(m["matched"] == "10" && m["v2_rejected"] == "0", "\(m)")
    }

    @Test func aRaggedRowInTheMigratedCSVIsOneRejectAndTheRestIsRead() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write("v1.jsonl", Self.goodV1Lines(200).joined(separator: "\n") + "\n")
        let csv = tmp.path + "/migrated.csv"
        #expect(try BinaryRun.run(["migrate", v1, "--format", "csv", "--out", csv]).status == 0)
        var lines = String(decoding: try tmp.read("migrated.csv"), as: UTF8.self).split(separator: "\n").map(
            String.init)
        #expect(lines.count == 201)
        lines[4] += ",one too many"
        lines[150] = String(lines[150].prefix { $0 != "," })
        try tmp.write("damaged.csv", lines.joined(separator: "\n") + "\n")
        let report = tmp.path + "/report"
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", tmp.path + "/damaged.csv",
            "--v2-columns", "Mappings/v2-columns.migrate-csv.map", "--out", report
        ])
        let m = try Self.metrics(report)
        #expect(m["v2_records_read"] == "200", "\(run.stderr)")
        #expect(m["v2_rejected"] == "2")
        #expect(m["matched"] == "198")
        let rejected = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/rejected.csv")), as: UTF8.self)
        #expect(rejected.contains("damaged.csv,5,") && rejected.contains("damaged.csv,151,"), "\(rejected)")
    }

    // MARK: - Directory entries

    @Test func danglingLinksLoopsAndFIFOsInADirectoryDoNotAbortTheRun() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.write("in/a.jsonl", Self.goodV1Lines(3).joined(separator: "\n"))
        try tmp.write("in/sub/z.jsonl", Self.goodV1Lines(2, from: 3).joined(separator: "\n"))
        let dangling = tmp.path + "/in/b-dangling.jsonl"
        let loop = tmp.path + "/in/c-loop.jsonl"
        let fifo = tmp.path + "/in/d.fifo"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: tmp.path + "/gone.jsonl")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        #expect(mkfifo(fifo, 0o600) == 0)
        let rejects = tmp.path + "/rejects.csv"
        let run = try BinaryRun.run([
            "migrate", tmp.path + "/in", "--out", tmp.path + "/out.jsonl", "--rejects", rejects
        ])
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        let c = try Self.counts(run)
        #expect(c.read == 7 && c.migrated == 5 && c.rejected == 2, "\(run.stderr)")
        #expect(run.stderr.contains("warning: skipped '\(fifo)': a FIFO, not a regular file"))
        #expect(run.stderr.contains("skipped (not a regular file) 1"))
        let rows = try CSVReader.read(try tmp.read("rejects.csv"), path: rejects).records
        #expect(rows.map { $0.fields[1] } == [dangling, loop])
        #expect(rows.allSatisfy { $0.fields[3].hasPrefix("unreadable_input") }, "\(rows)")

        let report = tmp.path + "/report"
        let reconcile = try BinaryRun.run([
            "reconcile", "--v1", tmp.path + "/in", "--v2", tmp.path + "/out.jsonl", "--out", report
        ])
        #expect(reconcile.stderr.contains("V1 skipped (not a regular file) 1"), "\(reconcile.stderr)")
        #expect(try Self.metrics(report)["v1_rejected"] == "2")
    }

    @Test func aLinkedDirectoryIsReadAndALinkLoopIsAWarningNotASilentLoss() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.write("in/a.jsonl", Self.goodV1Lines(3).joined(separator: "\n"))
        try tmp.write("months/2021-02/b.jsonl", Self.goodV1Lines(4, from: 3).joined(separator: "\n"))
        // A team links its month folders into the archive folder; a link back up makes a loop.
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/in/feb", withDestinationPath: tmp.path + "/months/2021-02")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/in/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.path + "/in/again", withDestinationPath: tmp.path + "/in")
        let run = try BinaryRun.run(["migrate", tmp.path + "/in", "--out", tmp.path + "/out.jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let c = try Self.counts(run)
        // Links are followed in name order after the real folders: 'again' is 'in' itself, 'feb' is read, and
        // 'up' (the temporary folder) holds 'in' and 'months/2021-02', both read already: b.jsonl counts once.
        #expect(c.read == 7 && c.migrated == 7 && c.rejected == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: skipped '\(tmp.path)/in/again': a symbolic link to a directory already read"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: skipped '\(tmp.path)/in/up/in': a symbolic link to a directory already read"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: skipped '\(tmp.path)/in/up/months/2021-02': a symbolic link to a directory already read"),
            "\(run.stderr)")
        #expect(run.stderr.contains("skipped (not a regular file) 3"), "\(run.stderr)")
    }

    @Test func aFIFONamedExplicitlyIsReadAsAStream() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let fifo = tmp.path + "/feed.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = Array((Self.goodV1Lines(4).joined(separator: "\n") + "\n").utf8)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let run = try BinaryRun.run(["migrate", fifo, "--out", tmp.path + "/out.jsonl"])
        // Should the binary never open the FIFO, release the writer thread.
        let release = open(fifo, O_RDONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        #expect(run.status == 0, "\(run.stderr)")
        let c = try Self.counts(run)
        #expect(c.read == 4 && c.migrated == 4)
    }

    // MARK: - Gzip

    @Test func trailingBytesAfterAGzipStreamAreOneCountedReject() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.writeGzip("good.gz", Array(Self.goodV1Lines(6).joined(separator: "\n").utf8))
        let good = try tmp.read("good.gz")
        let path = try tmp.write("archive.jsonl.gz", good + Array("PK\u{3}\u{4} junk appended by a bad copy".utf8))
        let rejects = tmp.path + "/rejects.csv"
        let run = try BinaryRun.run(["migrate", path, "--out", tmp.path + "/out.jsonl", "--rejects", rejects])
        let c = try Self.counts(run)
        #expect(c.read == 7 && c.migrated == 6 && c.rejected == 1, "\(run.stderr)")
        let rows = try CSVReader.read(try tmp.read("rejects.csv"), path: rejects).records
        #expect(rows.count == 1)
        #expect(rows.first?.fields[1] == path)
        #expect(rows.first?.fields[3].contains("trailing data at byte offset \(good.count)") == true, "\(rows)")
    }
}
