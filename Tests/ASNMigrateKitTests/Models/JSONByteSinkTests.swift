import Foundation
import Testing

@testable import ASNMigrateKit

/// The bytes the V2 content digest hashes are written straight from the model (`JSONByteSink`); they must be exactly
/// those `JSONWriter` writes for the model's `JSONObject`, or stored digests (nightly states) and conflicting-duplicate
/// findings would change. Checked on random payloads, the sample, and the shared corpus when present.
@Suite struct JSONByteSinkTests {
    /// Records each key a model offers and the kind of its value (sinks are given absent values too).
    struct KeyRecorder: JSONMemberSink {
        enum Kind { case string, int, bool, object }
        var keys: [(key: String, kind: Kind)] = []
        mutating func add(_ key: String, _ value: String?) { keys.append((key, .string)) }
        mutating func add(_ key: String, _ value: Int64?) { keys.append((key, .int)) }
        mutating func add(_ key: String, _ value: Int?) { keys.append((key, .int)) }
        mutating func add(_ key: String, _ value: Bool?) { keys.append((key, .bool)) }
        mutating func add<Member: JSONMembers>(_ key: String, object value: Member?) { keys.append((key, .object)) }
    }

    static func keys(of model: some JSONMembers) -> [(key: String, kind: KeyRecorder.Kind)] {
        var recorder = KeyRecorder()
        model.writeMembers(to: &recorder)
        return recorder.keys
    }

    static func randomText(_ r: inout SplitMix64) -> String {
        let pieces = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "✓", "😀", "\u{2028}"
        ]
        return String((0..<r.below(12)).map { _ in pieces[r.below(pieces.count)] }.joined())
    }

    /// A random object holding a random subset of `keys`, each with a value of its kind (objects left out).
    static func randomObject(_ keys: [(key: String, kind: KeyRecorder.Kind)], _ r: inout SplitMix64) -> JSONObject {
        var object = JSONObject()
        for (key, kind) in keys where r.below(3) != 0 {
            switch kind {
            case .string where key.hasSuffix("ransactionId") || key == "webOrderLineItemId":
                // Apple's ids are digit strings; the decoder rejects any other.
                object.members.append(.init(key: key, value: .string(String(r.next() >> UInt64(r.below(60))))))
            case .string: object.members.append(.init(key: key, value: .string(randomText(&r))))
            case .int:
                let value = r.below(4) == 0 ? Int64(bitPattern: r.next()) : Int64(r.below(2_000_000_000_000))
                object.members.append(.init(key: key, value: .number(String(value))))
            case .bool: object.members.append(.init(key: key, value: .bool(r.below(2) == 0)))
            case .object: continue
            }
        }
        return object
    }

    static func checkSame(_ payload: ResponseBodyV2DecodedPayload, _ what: String) {
        let expected = JSONWriter.bytes(.object(payload.json))
        #expect(payload.compactJSONBytes == expected, "\(what)")
        var line: [UInt8] = Array("prefix ".utf8)
        payload.appendCompactJSON(to: &line)
        #expect(line == Array("prefix ".utf8) + expected, "\(what): appended after what the buffer held")
    }

    @Test func randomPayloadsGiveTheWritersBytes() throws {
        var r = SplitMix64(seed: 41)
        let empty = JSONObject()
        let top = Self.keys(
            of: ResponseBodyV2DecodedPayload(
                notificationType: "X", subtype: nil, notificationUUID: nil, version: nil, signedDate: nil,
                data: NotificationData(), migration: nil))
        let data = Self.keys(of: NotificationData())
        let transaction = Self.keys(of: JWSTransactionDecodedPayload(empty))
        let renewal = Self.keys(of: JWSRenewalInfoDecodedPayload(empty))
        #expect(top.count >= 6 && data.count >= 6 && transaction.count >= 20 && renewal.count >= 15)
        var compared = 0
        for n in 0..<3_000 {
            var body = Self.randomObject(top, &r)
            body.members.removeAll { $0.key == "notificationType" }
            body.members.append(.init(key: "notificationType", value: .string("DID_RENEW")))
            var dataObject = Self.randomObject(data, &r)
            if r.below(4) != 0 {
                dataObject.members.append(
                    .init(key: "transactionInfo", value: .object(Self.randomObject(transaction, &r))))
            }
            if r.below(4) != 0 {
                dataObject.members.append(.init(key: "renewalInfo", value: .object(Self.randomObject(renewal, &r))))
            }
            body.members.append(.init(key: "data", value: .object(dataObject)))
            let outcomes = V2RecordDecoder().decode(
                RawRecord(location: SourceLocation(path: "random", line: n + 1), bytes: JSONWriter.bytes(.object(body)))
            )
            guard var payload = outcomes.first?.record?.payload else { continue }
            Self.checkSame(payload, "random payload \(n) (seed 41)")
            payload.migration = MigrationInfo(
                source: Self.randomText(&r), line: r.below(2) == 0 ? nil : r.below(1000), index: nil,
                v1NotificationType: "RENEWAL", ruleId: "renewal", eventTimeInferred: r.below(2) == 0)
            Self.checkSame(payload, "random payload \(n) with migration")
            compared += 1
        }
        #expect(compared > 2_500, "only \(compared) random payloads decoded")
    }

    @Test func sampleAndCorpusRecordsGiveTheWritersBytes() throws {
        var folders = [PackagePaths.sample.appendingPathComponent("v2")]
        if let corpus = PackagePaths.corpusV1?.deletingLastPathComponent().appendingPathComponent("v2") {
            folders.append(corpus)
        }
        var compared = 0
        for folder in folders {
            try RecordReader.forEach(in: try InputPaths.select([folder.path]).files) { item in
                guard case .record(let record) = item else { return }
                for outcome in V2RecordDecoder().decode(record) {
                    guard let payload = outcome.record?.payload else { continue }
                    Self.checkSame(payload, "\(record.location.source)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 30, "only \(compared) records compared")
    }
}
