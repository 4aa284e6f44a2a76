import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

@Suite struct SimulatorTests {
    @Test func sameSeedGivesIdenticalBytesInEveryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try SimulationFixture.run(subscribers: 120, seed: 21, months: 4, inject: 0.05, into: directory)
        let before = try SimulationFixture.files(first.out)
        _ = try SimulationFixture.run(subscribers: 120, seed: 21, months: 4, inject: 0.05, into: directory)
        let after = try SimulationFixture.files(first.out)
        #expect(Set(before.keys) == Set(after.keys))
        #expect(
            before.keys.contains("truth.csv") && before.keys.contains("truth-rejects.csv")
                && before.keys.contains("README.txt"))
        for (name, bytes) in before {
            #expect(after[name] == bytes, "\(name) differs between two runs with the same seed")
        }
    }

    @Test func differentSeedGivesDifferentFiles() throws {
        let a = try TemporaryDirectory()
        let b = try TemporaryDirectory()
        defer {
            a.remove()
            b.remove()
        }
        let one = try SimulationFixture.files(SimulationFixture.run(subscribers: 60, seed: 1, months: 3, into: a).out)
        let two = try SimulationFixture.files(SimulationFixture.run(subscribers: 60, seed: 2, months: 3, into: b).out)
        #expect(one["v1/2021-02.jsonl"] != two["v1/2021-02.jsonl"])
        #expect(one["v2/2021-02.jsonl"] != two["v2/2021-02.jsonl"])
    }

    /// Without injection, every V1 record migrates (no rejects, no unmapped) and every V2 body decodes; nothing is in truth.csv.
    @Test func cleanRunMigratesAndDecodesCompletely() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try SimulationFixture.run(subscribers: 250, seed: 31, months: 5, into: directory)
        let mapper = try SimulationFixture.mapper()
        var v1 = 0
        for item in try SimulationFixture.items(run.out + "/v1") {
            let record = try #require(item.record)
            guard case .migrated = mapper.map(record) else {
                Issue.record("V1 record at \(record.location) did not migrate")
                continue
            }
            v1 += 1
        }
        #expect(v1 == run.summary.v1Lines)
        var v2 = 0
        var tests = 0
        for item in try SimulationFixture.items(run.out + "/v2") {
            let record = try #require(item.record)
            let decoded = try #require(
                SimulationFixture.decodeV2(record.bytes), "V2 record at \(record.location) does not decode")
            #expect(decoded.payload["version"]?.stringValue == "2.0")
            #expect(decoded.payload["notificationUUID"]?.stringValue?.count == 36)
            if decoded.payload["notificationType"]?.stringValue == "TEST" {
                tests += 1
                #expect(decoded.transaction == nil)
            }
            v2 += 1
        }
        #expect(v2 == run.summary.v2Lines)
        #expect(tests > 0)
        let truth = String(decoding: try Data(contentsOf: URL(fileURLWithPath: run.out + "/truth.csv")), as: UTF8.self)
        #expect(truth == TruthRow.columns.joined(separator: ",") + "\n")
        let rejects = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: run.out + "/truth-rejects.csv")), as: UTF8.self)
        #expect(rejects == "side,source,reason-kind\n")
    }

    @Test func gzipFilesReadBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try SimulationFixture.run(subscribers: 40, seed: 3, months: 3, gzip: true, into: directory)
        let names = try SimulationFixture.files(run.out).keys.filter { $0.hasPrefix("v1/") || $0.hasPrefix("v2/") }
        #expect(!names.isEmpty && names.allSatisfy { $0.hasSuffix(".jsonl.gz") })
        #expect(try SimulationFixture.items(run.out + "/v1").count == run.summary.v1Lines)
        #expect(try SimulationFixture.items(run.out + "/v2").count == run.summary.v2Lines)
    }

    /// Every truth row points at what it describes: V1 sources hold a record mapping to the expected kind, key and
    /// order line; V2 UUIDs are present (twice for a conflicting duplicate, never for a dropped V2 record); reject
    /// sources hold lines that fail as their reason kind says.
    @Test func truthRowsDescribeTheInjectedFaults() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try SimulationFixture.run(subscribers: 250, seed: 41, months: 6, inject: 0.12, into: directory)
        let mapper = try SimulationFixture.mapper()

        var v1BySource: [String: RawRecord] = [:]
        var v1Rejected = 0
        for item in try SimulationFixture.items(run.out + "/v1") {
            let record = try #require(item.record)
            v1BySource[record.location.source] = record
            if case .rejected = mapper.map(record) { v1Rejected += 1 }
        }
        var v2ByUUID: [String: [(source: String, bytes: [UInt8])]] = [:]
        var v2Undecodable: [String] = []
        for item in try SimulationFixture.items(run.out + "/v2") {
            let record = try #require(item.record)
            guard let decoded = SimulationFixture.decodeV2(record.bytes),
                let uuid = decoded.payload["notificationUUID"]?.stringValue
            else {
                v2Undecodable.append(record.location.source)
                continue
            }
            v2ByUUID[uuid, default: []].append((record.location.source, record.bytes))
        }

        let truthText = try String(contentsOfFile: run.out + "/truth.csv", encoding: .utf8)
        let reader = CSVTestReader(truthText)
        #expect(reader.header == TruthRow.columns)
        var kinds: Set<String> = []
        var previous: [String]?
        for row in reader.rows {
            let cell = { (name: String) -> String in row[TruthRow.columns.firstIndex(of: name) ?? 0] }
            kinds.insert(cell("kind"))
            if cell("kind").hasPrefix("missing_in_") {
                // A dropped twin lies well inside the data, where reconcile calls it missing, not pending.
                let options = SimulationOptions(subscribers: 250, seed: 41, months: 6)
                let at = try #require(Timestamp.parseUTCDayOrInstant(cell("event_date"))?.ms)
                #expect(
                    at - FaultInjector.edgeMargin > options.start && at + FaultInjector.edgeMargin < options.end,
                    "\(cell("event_date"))")
            }
            if let previous {
                let key = { (r: [String]) in [r[1], r[2], r[4], r[0], r[10]] }
                #expect(!key(row).lexicographicallyPrecedes(key(previous)), "truth.csv is not sorted")
            }
            previous = row
            if !cell("v1_source").isEmpty {
                let source = String(cell("v1_source").dropFirst(run.out.count + 1))
                let record = try #require(
                    v1BySource[run.out + "/" + source] ?? v1BySource[cell("v1_source")],
                    "no V1 record at \(cell("v1_source"))")
                guard case .migrated(let payload) = mapper.map(record) else {
                    Issue.record("V1 record at \(cell("v1_source")) does not migrate")
                    continue
                }
                #expect(payload.notificationType == cell("expected_type"))
                #expect((payload.subtype ?? "") == cell("expected_subtype"))
                #expect(payload.migration?.v1NotificationType == cell("v1_notification_type"))
                #expect(
                    payload.data.renewalInfo?.originalTransactionId
                        ?? payload.data.transactionInfo?.originalTransactionId == cell("original_transaction_id"))
                #expect((payload.data.transactionInfo?.webOrderLineItemId ?? "") == cell("web_order_line_item_id"))
                #expect(payload.signedDate.map(Timestamp.iso8601) == cell("event_date"))
            }
            let copies = v2ByUUID[cell("v2_notification_uuid")]?.count ?? 0
            switch cell("kind") {
            case "missing_in_v2": #expect(cell("v2_notification_uuid").isEmpty)
            case "missing_in_v1", "type_mismatch", "field_mismatch":
                #expect(copies == 1, "\(cell("kind")) \(cell("v2_notification_uuid"))")
            case "conflicting_duplicate_v2":
                #expect(copies == 2)
                let pair = v2ByUUID[cell("v2_notification_uuid")] ?? []
                #expect(pair.count == 2 && pair[0].bytes != pair[1].bytes)
            default: Issue.record("unexpected kind \(cell("kind"))")
            }
            if cell("kind") == "field_mismatch" {
                #expect(!cell("field").isEmpty && cell("v1_value") != cell("v2_value"))
                let record = try #require(v2ByUUID[cell("v2_notification_uuid")]?.first)
                let decoded = try #require(SimulationFixture.decodeV2(record.bytes))
                #expect(
                    SimulationFixture.value(cell("field"), decoded.transaction, decoded.renewal) == cell("v2_value"))
            }
        }
        #expect(
            kinds == ["missing_in_v2", "missing_in_v1", "type_mismatch", "field_mismatch", "conflicting_duplicate_v2"])

        let rejectsText = try String(contentsOfFile: run.out + "/truth-rejects.csv", encoding: .utf8)
        let rejects = CSVTestReader(rejectsText).rows
        #expect(rejects.contains { $0[0] == "v1" } && rejects.contains { $0[0] == "v2" })
        #expect(rejects.filter { $0[0] == "v1" }.count == v1Rejected)
        #expect(Set(rejects.filter { $0[0] == "v2" }.map { $0[1] }) == Set(v2Undecodable))
        for reject in rejects where reject[0] == "v1" {
            let record = try #require(v1BySource[reject[1]])
            guard case .rejected(let error) = mapper.map(record) else {
                Issue.record("\(reject[1]) is not rejected")
                continue
            }
            #expect(error.code.rawValue == reject[2])
        }
    }
}

/// A minimal CSV reader for the simulator's own truth files (no quoted cells with commas are written there).
private struct CSVTestReader {
    let header: [String]
    let rows: [[String]]

    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        header = lines.first ?? []
        rows = Array(lines.dropFirst())
    }
}
