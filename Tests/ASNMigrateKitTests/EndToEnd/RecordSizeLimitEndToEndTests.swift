import Foundation
import Testing

@testable import ASNMigrateKit

/// `--max-record-bytes` bounds the memory one record can take. A longer record, first, in the middle
/// or last, in JSON Lines, a JSON array (pretty or one element per line), a concatenated stream, CSV, and inside gzip,
/// is exactly one `record_too_large` reject, and every other record is read.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct RecordSizeLimitEndToEndTests {
    /// The limit the tests give.
    static let limit = 1000
    /// The limit of the CSV test: above the header of `migrate --format csv` (about 1.5 KB), below the long row.
    static let csvLimit = 4000
    /// A V1 body longer than `limit` (a long unknown key): valid JSON, so only its size makes it a reject.
    static let longBody: String = {
        let padding = String(repeating: "x", count: 5000)
        return #"{"notification_type":"DID_RENEW","padding":""# + padding + #""}"#
    }()

    /// Where the long record sits among the good ones.
    enum Place: String, CaseIterable, Sendable {
        case first, middle, last
    }

    /// The input's shapes.
    enum Shape: String, CaseIterable, Sendable {
        case jsonLines, arrayPerLine, arrayPretty, concatenated, gzip
    }

    /// Four good records and the long one at `place`, in `shape`.
    static func input(_ shape: Shape, _ place: Place) -> [UInt8] {
        var records = InputDamageEndToEndTests.goodV1Lines(4)
        let at = place == .first ? 0 : place == .middle ? 2 : 4
        records.insert(longBody, at: at)
        // Pretty-printed: each object over three lines, so the file reads as multi-line JSON.
        let pretty = records.map { "{\n  " + String($0.dropFirst().dropLast()) + "\n}" }
        let text: String
        switch shape {
        case .jsonLines, .gzip: text = records.joined(separator: "\n") + "\n"
        case .arrayPerLine: text = "[\n" + records.joined(separator: ",\n") + "\n]\n"
        case .arrayPretty: text = "[" + pretty.joined(separator: ", ") + "]\n"
        case .concatenated: text = pretty.joined(separator: "\n") + "\n"
        }
        return Array(text.utf8)
    }

    @Test(arguments: Shape.allCases)
    func aLongRecordFirstMiddleOrLastIsOneRejectAndTheRestAreRead(shape: Shape) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        for place in Place.allCases {
            let name = "\(shape.rawValue)-\(place.rawValue)"
            let path: String
            if shape == .gzip {
                path = try tmp.writeGzip(name + ".jsonl.gz", Self.input(shape, place))
            } else {
                path = try tmp.write(name + ".json", Self.input(shape, place))
            }
            let rejects = tmp.path + "/\(name)-rejects.csv"
            let run = try BinaryRun.run([
                "migrate", path, "--out", tmp.path + "/\(name).jsonl", "--rejects", rejects,
                "--max-record-bytes", String(Self.limit)
            ])
            #expect(run.status == ExitStatus.findings.rawValue, "\(name): \(run.stderr)")
            let c = try InputDamageEndToEndTests.counts(run)
            #expect(c.read == 5 && c.migrated == 4 && c.rejected == 1, "\(name): \(run.stderr)")
            let rows = try CSVReader.read(try tmp.read("\(name)-rejects.csv"), path: rejects).records
            #expect(rows.count == 1 && rows[0].fields[3].hasPrefix("record_too_large: "), "\(name): \(rows)")
        }
    }

    @Test func aLongCSVRowOnTheV2SideIsOneRejectAndTheRestAreRead() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write("v1.jsonl", InputDamageEndToEndTests.goodV1Lines(4).joined(separator: "\n") + "\n")
        #expect(try BinaryRun.run(["migrate", v1, "--format", "csv", "--out", tmp.path + "/v2.csv"]).status == 0)
        var lines = String(decoding: try tmp.read("v2.csv"), as: UTF8.self).split(separator: "\n").map(String.init)
        // A long copy of the second row, with its first field padded: one row over the limit, the rest as they were.
        let comma = try #require(lines[1].firstIndex(of: ","))
        let long = "\"" + String(repeating: "y", count: 3 * Self.csvLimit) + "\"" + lines[1][comma...]
        lines.insert(long, at: 2)
        _ = try tmp.write("v2-long.csv", lines.joined(separator: "\n") + "\n")
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", tmp.path + "/v2-long.csv", "--out", tmp.path + "/report",
            "--v2-columns", "Mappings/v2-columns.migrate-csv.map", "--max-record-bytes", String(Self.csvLimit)
        ])
        let metrics = try InputDamageEndToEndTests.metrics(tmp.path + "/report")
        #expect(metrics["v2_rejected"] == "1" && metrics["matched"] == "4", "\(metrics) \(run.stderr)")
        let rejected = String(decoding: try tmp.read("report/rejected.csv"), as: UTF8.self)
        #expect(rejected.components(separatedBy: "record_too_large").count == 2, "\(rejected)")
    }

    @Test func theLimitIsASizeAndABadOneIsAUsageError() throws {
        let bad = try BinaryRun.run(["migrate", "Tests/Fixtures/sample/v1", "--max-record-bytes", "lots"])
        #expect(bad.status == ExitStatus.usage.rawValue, "\(bad.stderr)")
        #expect(bad.stderr.contains("--max-record-bytes"))
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let ok = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1", "--out", tmp.path + "/out.jsonl", "--max-record-bytes", "64K"
        ])
        #expect(ok.status != ExitStatus.usage.rawValue, "\(ok.stderr)")
    }
}
