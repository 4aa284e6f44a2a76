import Foundation
import Testing

@testable import ASNMigrateKit

/// How a record counts never depends on the records before it. Property tests over random damage (seeded, so
/// a failure names a round that can be run again), kept small enough for CI; `FuzzTests` runs the same checks at scale.
@Suite struct LineCountingPropertyTests {
    /// Good V1 records, one line each.
    static let v1Pool = DamageHarness.v1Lines(64, seed: 1)
    /// Their migrated V2 payloads, one line each.
    static let v2Pool = DamageHarness.v2Lines(v1Pool)

    @Test(arguments: [false, true])
    func randomDamageToRandomLinesNeverChangesHowALineCounts(v2: Bool) throws {
        var rng = SplitMix64(seed: v2 ? 1_902 : 1_901)
        let pool = v2 ? Self.v2Pool : Self.v1Pool
        #expect(pool.count == 64)
        for round in 0..<100 {
            let count = 2 + Int(rng.next() % 30)
            let first = Int(rng.next() % UInt64(pool.count))
            let good = (0..<count).map { pool[(first + $0) % pool.count] }
            let damaged = DamageHarness.damagedLines(count: count, &rng)
            if let failure = try DamageHarness.checkJSONLines(good: good, damagedAt: damaged, rng: &rng, v2: v2) {
                Issue.record("round \(round): \(failure)")
                return
            }
        }
    }

    // MARK: - One damaged record, first, in the middle and last, in every shape

    /// The shapes a V1 archive comes in, each from a list of records (one line each) with record `at` damaged by
    /// cutting it short, as a truncated copy or a lost block does.
    enum Shape: String, CaseIterable, Sendable {
        case jsonLines, arrayOnePerLine, prettyStream, prettyArray, gzipJSONLines

        /// The file's bytes.
        func file(_ records: [[UInt8]], damagedAt at: Int) throws -> [UInt8] {
            let texts = records.enumerated().map { index, bytes -> String in
                let text =
                    self == .prettyStream || self == .prettyArray
                    ? Self.pretty(bytes) : String(decoding: bytes, as: UTF8.self)
                return index == at ? String(text.prefix(text.count / 2)) : text
            }
            switch self {
            case .jsonLines: return Array((texts.joined(separator: "\n") + "\n").utf8)
            case .arrayOnePerLine: return Array(("[" + texts.joined(separator: ",\n") + "]\n").utf8)
            case .prettyStream: return Array((texts.joined(separator: "\n") + "\n").utf8)
            case .prettyArray:
                let indented = texts.map {
                    $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                        separator: "\n")
                }
                return Array(("[\n" + indented.joined(separator: ",\n") + "\n]\n").utf8)
            case .gzipJSONLines:
                let tmp = try TemporaryDirectory()
                defer { tmp.remove() }
                let path = try tmp.writeGzip("f.gz", Array((texts.joined(separator: "\n") + "\n").utf8))
                return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }

        /// A record pretty-printed as JSONSerialization does (two-space indent, one key per line).
        static func pretty(_ bytes: [UInt8]) -> String {
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
                let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            else { return "" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test(arguments: Shape.allCases, ["first", "middle", "last"])
    func oneDamagedRecordCostsExactlyOneReject(shape: Shape, position: String) throws {
        let records = Array(Self.v1Pool.prefix(7))
        let at = position == "first" ? 0 : position == "middle" ? 3 : 6
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("archive", try shape.file(records, damagedAt: at))
        let clean = try tmp.write("clean", try shape.file(records, damagedAt: -1))
        let outcomes = try RecordReader(file: InputFile(path: path), chunkSize: 97).items().map(DamageHarness.v1Outcome)
        let expected = try RecordReader(file: InputFile(path: clean)).items().map(DamageHarness.v1Outcome)
        #expect(outcomes.count == records.count, "\(shape) \(position): \(outcomes.map(\.text))")
        #expect(outcomes.filter(\.migrated).count == records.count - 1, "\(shape) \(position)")
        #expect(expected.filter(\.migrated).count == records.count)
        // Every other record migrates exactly as it does without the damage.
        let good = expected.map(\.text)
        #expect(
            outcomes.filter(\.migrated).allSatisfy { outcome in good.contains { FuzzTests.sameRecord($0, outcome.text) }
            })
    }

    @Test(arguments: ["first", "middle", "last"], ["extra field", "stray quote", "missing field"])
    func oneDamagedCSVRowCostsExactlyOneReject(position: String, damage: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var writer = CSVWriter(header: MigrationOutput.csvColumns(.dotted))
        for line in Self.v2Pool.prefix(7) {
            let decoded = V2RecordDecoder().decode(
                RawRecord(location: SourceLocation(path: "v2.jsonl", line: 1), bytes: line))
            guard let payload = decoded.first?.record?.payload else { continue }
            try writer.appendRow(MigrationOutput.csvRow(payload))
        }
        var rows = String(decoding: writer.drain(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(rows.count == 8)
        let at = 1 + (position == "first" ? 0 : position == "middle" ? 3 : 6)
        switch damage {
        case "extra field": rows[at] += ",extra"
        case "stray quote":
            rows[at] = rows[at].replacingOccurrences(
                of: ",", with: ",\"x\"y", options: [], range: rows[at].range(of: ","))
        default: rows[at] = String(rows[at][..<(rows[at].lastIndex(of: ",") ?? rows[at].endIndex)])
        }
        let path = try tmp.write("v2.csv", rows.joined(separator: "\n") + "\n")
        let reader = V2RecordReader(
            columnMap: try V2ColumnMap.load(
                path: PackagePaths.root.appendingPathComponent("Mappings/v2-columns.migrate-csv.map").path))
        var records = 0
        var rejects: [ASNError] = []
        try reader.read(InputFile(path: path)) { outcome in
            if let error = outcome.error { rejects.append(error) } else { records += 1 }
        }
        #expect(records == 6 && rejects.count == 1, "\(position) \(damage): \(rejects.map(\.description))")
        #expect(rejects.first?.location?.line == at + 1)
    }
}
