import Foundation
import Testing

@testable import ASNMigrateKit

/// The fast per-record path against `V1RecordMapper` (the reference): the same outcome on every corpus file, the
/// sample data, generated bodies and fuzzed input; and where the fast path answers itself, the same answer.
@Suite struct FastRecordMapperTests {
    /// The built-in mapping table.
    static let table: MappingTable = {
        do { return try MappingTable.builtIn() } catch { fatalError("built-in table: \(error)") }
    }()
    /// The fast path.
    static let fast = FastRecordMapper(table: table)
    /// The reference.
    static let reference = V1RecordMapper(table: table)

    /// A record at a fixed location.
    static func record(_ bytes: [UInt8], line: Int = 1) -> RawRecord {
        RawRecord(location: SourceLocation(path: "sample.jsonl", line: line), bytes: bytes)
    }

    /// Whether the fast path agrees with the reference on `record`; records a failure naming `label` if not.
    /// Returns whether the fast path answered itself (did not decline).
    @discardableResult
    static func check(_ record: RawRecord, _ label: @autoclosure () -> String) -> Bool {
        let expected = reference.map(record)
        let answered = fast.fastMap(record)?.outcome
        if let answered, answered != expected {
            Issue.record("fast path differs on \(label()):\nfast: \(answered)\nreference: \(expected)")
        }
        #expect(fast.map(record) == expected, "\(label())")
        return answered != nil
    }

    // MARK: - Real and sample data

    @Test(.enabled(if: corpusDirectory != nil, "needs ../shared/corpus"))
    func agreesOnTheCorpus() throws {
        let records = try Self.forEachCorpusRecord { record, label in Self.check(record, label) }
        #expect(records > 0)
    }

    /// Calls `body` with every V1 record of the corpus (`v1/` and `receipts/`) and a label naming it; returns how
    /// many there were.
    static func forEachCorpusRecord(_ body: (RawRecord, String) -> Void) throws -> Int {
        var records = 0
        for folder in ["v1", "receipts"] {
            guard let directory = corpusDirectory?.appendingPathComponent(folder),
                let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else { continue }
            for name in names.sorted() {
                let items = try RecordReader(file: InputFile(path: directory.appendingPathComponent(name).path)).items()
                for case .record(let record) in items {
                    records += 1
                    body(record, "\(folder)/\(name):\(record.location.line ?? 0)")
                }
            }
        }
        return records
    }

    @Test(.enabled(if: sampleDirectory != nil, "needs Tests/Fixtures/sample"))
    func agreesOnTheSampleData() throws {
        let directory = try #require(Self.sampleDirectory)
        var records = 0
        for file in try InputPaths.expand([directory.path]) {
            for case .record(let record) in try RecordReader(file: file).items() {
                records += 1
                Self.check(record, "\(file.path):\(record.location.line ?? 0)")
            }
        }
        #expect(records > 0)
    }

    // MARK: - Generated data

    @Test func agreesOnGeneratedBodies() {
        var answered = 0
        for (n, text) in FastV1Samples.variants.enumerated()
        where Self.check(Self.record(Array(text.utf8)), "variant \(n): \(text)") {
            answered += 1
        }
        // The common shapes must really take the fast path, or this suite proves nothing about it.
        #expect(answered >= FastV1Samples.variants.count / 2)
        for type in ["DID_RENEW", "INITIAL_BUY", "CANCEL"] {
            #expect(Self.fast.fastMap(Self.record(Array(FastV1Samples.body(type: type, renewals: 12).utf8))) != nil)
        }
    }

    @Test func keepsIdentifiersAbove2To53AndTheUUIDScheme() throws {
        let text = FastV1Samples.body(original: "12345678901234567890")
        let record = Self.record(Array(text.utf8))
        let outcome = try #require(Self.fast.fastMap(record)?.outcome)
        guard case .migrated(let payload) = outcome else {
            Issue.record("not migrated: \(outcome)")
            return
        }
        #expect(JSONWriter.string(.object(payload.json)).contains("12345678901234567890"))
        // Whitespace and key order do not change the notificationUUID.
        let reordered = "{\"bid\":\"com.example.app\",  " + text.dropFirst()
        guard case .migrated(let again)? = Self.fast.fastMap(Self.record(Array(reordered.utf8)))?.outcome else {
            Issue.record("declined")
            return
        }
        #expect(again.notificationUUID == payload.notificationUUID)
    }

    // MARK: - Fuzzing

    @Test func agreesOnMutatedInput() {
        var random = SplitMix64(seed: 42)
        let base = Array(FastV1Samples.body(renewals: 2, extraTop: ",\"note\":\"caf\\u00e9 \\ud83d\\ude00 ü\"").utf8)
        let insertions: [[UInt8]] = [
            Array("\\x".utf8), Array("\\u12".utf8), Array("\\ud800".utf8), Array("\\udc00".utf8), [0xFF], [0xC0, 0x80],
            [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x01], Array("\"".utf8), Array(",".utf8), Array("}".utf8),
            Array("]".utf8),
            Array("1e999999".utf8), Array("-".utf8), Array("01".utf8), Array(" ".utf8), Array("null".utf8),
            Array(repeating: UInt8(ascii: "["), count: 600)
        ]
        for round in 0..<1500 {
            var bytes = base
            switch round % 4 {
            case 0:
                bytes = Array(bytes[..<random.below(bytes.count)])
            case 1:
                let at = random.below(bytes.count)
                bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 2:
                let at = random.below(bytes.count)
                bytes.insert(contentsOf: insertions[random.below(insertions.count)], at: at)
            default:
                let at = random.below(bytes.count)
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(4)))
            }
            Self.check(Self.record(bytes), "mutation \(round): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func agreesOnDeepNestingAndHugeNumbers() {
        for depth in [1, 100, 511, 512, 513, 2000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            Self.check(Self.record(Array(FastV1Samples.body(extraTop: ",\"deep\":\(nested)").utf8)), "depth \(depth)")
            Self.check(Self.record(Array(nested.utf8)), "bare depth \(depth)")
        }
        let huge = String(repeating: "9", count: 5000)
        Self.check(Self.record(Array(FastV1Samples.body(extraTop: ",\"n\":\(huge)e-99999").utf8)), "huge number")
        Self.check(Self.record(Array(FastV1Samples.body(original: huge).utf8)), "huge id")
    }

    // MARK: - Inputs

    /// The shared corpus, `../shared/corpus` from the package root, if present.
    static let corpusDirectory: URL? = existingDirectory(
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus"))
    /// The sample data in the repository, if present.
    static let sampleDirectory: URL? = existingDirectory(packageRoot.appendingPathComponent("Tests/Fixtures/sample"))

    /// The package root (`PackagePaths.root`, which counts the folders from its own file).
    static var packageRoot: URL { PackagePaths.root }

    /// `url` if it is a directory.
    static func existingDirectory(_ url: URL) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return url
    }
}
