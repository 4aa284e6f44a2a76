import Foundation
import Testing

@testable import ASNMigrateKit

/// The fuzz target, off by default: `ASN_FUZZ_RECORDS=N swift test --filter Fuzz` runs about N mutated V1
/// and V2 records through every reader (JSON Lines, top-level array, pretty-printed stream, gzip, V2 CSV; the V1
/// mappers and the V2 decoder) and checks that no run crashes or hangs, that in JSON Lines `read == non-blank lines`
/// with every undamaged line's outcome unchanged, that a damaged gzip member yields no record, and that every record
/// output from a damaged array or stream is a record of the input (damaged or not), never one stitched from several.
/// `ASN_FUZZ_SEED` picks another seed (default 19); with `ASN_FUZZ_DUMP=DIR` a failing array or stream is written there.
@Suite(.enabled(if: FuzzSettings.records > 0, "set ASN_FUZZ_RECORDS=N to run the fuzz target"))
struct FuzzTests {
    /// How many records to mutate, from `ASN_FUZZ_RECORDS`.
    static let records = FuzzSettings.records
    /// The seed, from `ASN_FUZZ_SEED`.
    static let seed = UInt64(ProcessInfo.processInfo.environment["ASN_FUZZ_SEED"] ?? "") ?? 19
    /// The longest one file may take before the run counts as hung.
    static let hangLimit: Double = 20

    @Test func mutatedRecordsThroughEveryReader() throws {
        var rng = SplitMix64(seed: Self.seed)
        let v1Pool = DamageHarness.v1Lines(256, seed: Self.seed)
        let v2Pool = DamageHarness.v2Lines(v1Pool)
        let started = Date()
        var done = 0
        var files = 0
        var slowest = 0.0
        var failures: [String] = []
        while done < Self.records && failures.count < 10 {
            let v2 = files % 2 == 1
            let pool = v2 ? v2Pool : v1Pool
            let count = 2 + Int(rng.next() % 60)
            let first = Int(rng.next() % UInt64(pool.count))
            let good = (0..<count).map { pool[(first + $0) % pool.count] }
            let fileStart = Date()
            let damaged = DamageHarness.damagedLines(count: count, &rng)
            if let failure = try DamageHarness.checkJSONLines(good: good, damagedAt: damaged, rng: &rng, v2: v2) {
                failures.append("seed \(Self.seed) file \(files) (JSON Lines\(v2 ? ", V2" : "")): \(failure)")
            }
            switch files % 4 {
            case 0:
                if let failure = try Self.checkGzip(good, &rng) {
                    failures.append("seed \(Self.seed) file \(files) (gzip): \(failure)")
                }
            case 1:
                if let failure = try Self.checkCSV(good, &rng) {
                    failures.append("seed \(Self.seed) file \(files) (CSV): \(failure)")
                }
            default:
                if let failure = try Self.checkMultiLine(good, pretty: files % 4 == 3, &rng) {
                    failures.append("seed \(Self.seed) file \(files) (array/stream): \(failure)")
                }
            }
            let took = Date().timeIntervalSince(fileStart)
            slowest = max(slowest, took)
            if took > Self.hangLimit { failures.append("seed \(Self.seed) file \(files) took \(took) s") }
            done += count
            files += 1
        }
        let elapsed = Date().timeIntervalSince(started)
        print(
            "fuzz: \(done) mutated records in \(files) files, seed \(Self.seed), \(String(format: "%.1f", elapsed)) s, slowest file \(String(format: "%.2f", slowest)) s, \(failures.count) failure(s)"
        )
        for failure in failures {
            print("fuzz failure: \(failure)")
            Issue.record(Comment(rawValue: failure))
        }
    }

    // MARK: - Readers

    /// A gzip file of `good` with one random bit flipped: every record it yields must be one of the clean file's.
    static func checkGzip(_ good: [[UInt8]], _ rng: inout SplitMix64) throws -> String? {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.writeGzip("f.jsonl.gz", Array(good.joined(separator: [0x0A])) + [0x0A])
        let clean = Set(try RecordReader(file: InputFile(path: path)).items().map { DamageHarness.v1Outcome($0).text })
        var bytes = try tmp.read("f.jsonl.gz")
        let bit = Int(rng.next() % UInt64(bytes.count * 8))
        bytes[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var outcomes: [(line: Int?, text: String, migrated: Bool)] = []
        do {
            try RecordReader(file: InputFile(path: path), chunkSize: 4_096).forEach {
                outcomes.append(DamageHarness.v1Outcome($0))
            }
        } catch let error as ASNError where error.code == .unreadableInput {
            // The member failed its check: counted as one reject by the commands.
        }
        if let stray = outcomes.first(where: { $0.migrated && !clean.contains($0.text) }) {
            return "bit \(bit) flipped: a record that is in no original was output: \(stray.text.prefix(200))"
        }
        return nil
    }

    /// The V2 CSV of `good` with random rows damaged: the reader neither crashes nor counts more outcomes than rows.
    static func checkCSV(_ good: [[UInt8]], _ rng: inout SplitMix64) throws -> String? {
        var writer = CSVWriter(header: MigrationOutput.csvColumns(.dotted))
        for line in good {
            let decoded = V2RecordDecoder().decode(
                RawRecord(location: SourceLocation(path: "v2.jsonl", line: 1), bytes: line))
            if let payload = decoded.first?.record?.payload { try writer.appendRow(MigrationOutput.csvRow(payload)) }
        }
        var rows = writer.drain().split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        for index in DamageHarness.damagedLines(count: rows.count, &rng).sorted() where index > 0 {
            rows[index] = DamageHarness.damage(rows[index], &rng)
        }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("v2.csv", Array(rows.joined(separator: [0x0A])))
        var outcomes = 0
        try reader.read(InputFile(path: path)) { _ in outcomes += 1 }
        // The CSV reader ends a row at LF, CRLF or a bare CR (old Mac files), so count lines as it does.
        let text = Array(rows.joined(separator: [0x0A]))
        var lines = 0
        var content = false
        for (index, byte) in text.enumerated() {
            if byte == 0x0A || (byte == 0x0D && (index + 1 == text.count || text[index + 1] != 0x0A)) {
                if content { lines += 1 }
                content = false
            } else if byte != 0x0D && byte != 0x20 && byte != 0x09 {
                content = true
            }
        }
        if content { lines += 1 }
        return outcomes <= lines ? nil : "\(outcomes) outcomes from \(lines) lines"
    }

    /// The V2 CSV reader with the column map for `migrate --format csv`.
    static let reader: V2RecordReader = {
        guard
            let map = try? V2ColumnMap.load(
                path: PackagePaths.root.appendingPathComponent("Mappings/v2-columns.migrate-csv.map").path)
        else {
            fatalError("the migrate CSV column map must load")
        }
        return V2RecordReader(columnMap: map)
    }()

    /// A top-level array (one element per line) or a pretty-printed stream of `good` with random records damaged:
    /// every record migrated is the mapping of one input record, damaged or as it was before the damage (a damaged
    /// element may still hold the whole record, `{…}{…}` say), never stitched from several.
    static func checkMultiLine(_ good: [[UInt8]], pretty: Bool, _ rng: inout SplitMix64) throws -> String? {
        var texts = good.map {
            pretty ? LineCountingPropertyTests.Shape.pretty($0) : String(decoding: $0, as: UTF8.self)
        }
        let original = texts
        for index in DamageHarness.damagedLines(count: texts.count, &rng).sorted() {
            texts[index] = String(decoding: DamageHarness.damage(Array(texts[index].utf8), &rng), as: UTF8.self)
        }
        let bytes = Array(
            (pretty ? texts.joined(separator: "\n") + "\n" : "[" + texts.joined(separator: ",\n") + "]\n").utf8)
        let allowed = Set(
            (texts + original).map { text -> String in
                let trimmed = Array(text.utf8)
                return
                    (try? DamageHarness.items(trimmed, chunk: 1 << 20).first.map { DamageHarness.v1Outcome($0).text })
                    ?? nil ?? ""
            })
        let outcomes = try DamageHarness.items(bytes, chunk: 1 + Int(rng.next() % 5_000)).map(DamageHarness.v1Outcome)
        let dump = { (what: String) -> String in
            guard let folder = ProcessInfo.processInfo.environment["ASN_FUZZ_DUMP"] else { return what }
            let path = folder + "/fuzz-\(UUID().uuidString)" + (pretty ? ".json" : ".array.json")
            try? Data(bytes).write(to: URL(fileURLWithPath: path))
            return what + " (input written to \(path))"
        }
        if outcomes.count > texts.count * 2 + 2 { return dump("\(outcomes.count) items from \(texts.count) records") }
        for outcome in outcomes where outcome.migrated {
            // A migrated record's JSON names its line; compare without it.
            guard allowed.contains(where: { Self.sameRecord($0, outcome.text) }) else {
                let near =
                    allowed.max { a, b in
                        a.commonPrefix(with: outcome.text).count < b.commonPrefix(with: outcome.text).count
                    } ?? ""
                let same = near.commonPrefix(with: outcome.text).count
                return dump(
                    "a migrated record matches no input record: …\(outcome.text.dropFirst(max(0, same - 60)).prefix(160)) vs …\(near.dropFirst(max(0, same - 60)).prefix(160))"
                )
            }
        }
        return nil
    }

    /// Whether two migrated records are the same but for the `migration` object (which names the line).
    static func sameRecord(_ a: String, _ b: String) -> Bool {
        func strip(_ text: String) -> String { text.components(separatedBy: ",\"migration\":").first ?? text }
        return strip(a) == strip(b)
    }
}

/// The fuzz target's switch, read from the environment.
enum FuzzSettings {
    /// How many records to mutate, from `ASN_FUZZ_RECORDS` (0: the fuzz target is off).
    static let records = Int(ProcessInfo.processInfo.environment["ASN_FUZZ_RECORDS"] ?? "") ?? 0
}
