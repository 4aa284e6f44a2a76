import Foundation
import Testing

@testable import ASNMigrateKit

/// The compact form a nightly state keeps per record: every value comes back exactly, damage is detected, and a state
/// written before it (JSON payloads) is moved over with the same facts.
@Suite struct RecordFactsCodecTests {
    /// A text table in memory, as the state's `texts` table is.
    final class Texts {
        var ids: [String: Int64] = [:]
        var texts: [Int64: String] = [:]
        func id(_ text: String) -> Int64 {
            if let id = ids[text] { return id }
            let id = Int64(ids.count + 1)
            ids[text] = id
            texts[id] = text
            return id
        }
    }

    static func random(_ r: inout SplitMix64) -> RecordFacts {
        func maybe<T>(_ value: T) -> T? { r.below(3) == 0 ? nil : value }
        func text() -> String {
            let pool = [
                "DID_RENEW", "SUBSCRIBED", "", "com.example.pro.monthly", "é✓ \u{0}\"\n", "0012", "-5", "1e400",
                "18446744073709551616"
            ]
            return pool[r.below(pool.count)]
        }
        func id() -> String {
            switch r.below(4) {
            case 0: return text()
            case 1: return "0"
            default: return String(r.next() >> UInt64(r.below(64)))
            }
        }
        func date() -> Int64 {
            r.below(5) == 0 ? Int64(bitPattern: r.next()) : 1_600_000_000_000 + Int64(r.below(1 << 40)) - (1 << 39)
        }
        let kind = RecordFacts.Kind(rawValue: UInt8(r.below(3))) ?? .v2
        var f = RecordFacts(
            kind: kind,
            location: SourceLocation(path: text(), line: maybe(r.below(1 << 20)), index: maybe(r.below(1000))))
        f.environment = maybe(["Production", "Sandbox", ""][r.below(3)])
        f.originalTransactionId = maybe(id())
        f.notificationUUID =
            [nil, "", "b1f2c3d4-0000-4000-8000-00000000000a", "NOT-A-UUID", "B1F2C3D4-0000-4000-8000-00000000000A"][
                r.below(5)]
        f.notificationType = maybe(text())
        f.subtype = maybe(text())
        f.v1NotificationType = maybe(text())
        f.ruleId = maybe(text())
        f.time = maybe(date())
        f.eventTimeInferred = r.below(2) == 0
        f[text: .productId] = maybe(text())
        f[text: .webOrderLineItemId] = maybe(id())
        f[text: .bundleId] = maybe(text())
        f[text: .inAppOwnershipType] = maybe(text())
        f[text: .autoRenewProductId] = maybe(text())
        f[text: .offerIdentifier] = maybe(text())
        f[text: .transactionId] = maybe(id())
        f[date: .purchaseDate] = maybe(date())
        f[date: .expiresDate] = maybe(date())
        f[date: .originalPurchaseDate] = maybe(date())
        f[date: .revocationDate] = maybe(date())
        f[date: .gracePeriodExpiresDate] = maybe(date())
        f[number: .revocationReason] = maybe(r.below(5) == 0 ? Int.min : r.below(3))
        f[number: .autoRenewStatus] = maybe(r.below(2))
        f[number: .expirationIntent] = maybe(Int(Int32.max) + r.below(3))
        f[number: .priceIncreaseStatus] = maybe(-r.below(3))
        f[number: .offerType] = maybe(r.below(4))
        f[flag: .isUpgraded] = maybe(r.below(2) == 0)
        f[flag: .isInBillingRetryPeriod] = maybe(r.below(2) == 0)
        f.hasAutoRenewStatus = r.below(2) == 0
        return f
    }

    @Test func randomFactsComeBackExactly() throws {
        var r = SplitMix64(seed: 23)
        let texts = Texts()
        for n in 0..<5_000 {
            let facts = Self.random(&r)
            let bytes = try RecordFactsCodec.encode(facts) { texts.id($0) }
            let back = bytes.withUnsafeBytes { raw in
                RecordFactsCodec.decode(
                    raw, environment: facts.environment ?? "", originalTransactionId: facts.originalTransactionId ?? "",
                    notificationUUID: facts.notificationUUID == "" ? nil : facts.notificationUUID, time: facts.time,
                    text: { texts.texts[$0] })
            }
            #expect(back == facts, "record \(n) (seed 23): \(facts)")
        }
    }

    @Test func aRenewalTakesFewBytes() throws {
        let texts = Texts()
        var f = RecordFacts(kind: .v2, location: SourceLocation(path: "/data/v2/2024-01.jsonl", line: 123_456))
        f.environment = "Production"
        f.originalTransactionId = "170000812345604"
        f.notificationUUID = "b1f2c3d4-0000-4000-8000-00000000000a"
        f.notificationType = "DID_RENEW"
        f.time = 1_704_067_200_123
        f[text: .productId] = "com.example.pro.monthly"
        f[text: .autoRenewProductId] = "com.example.pro.monthly"
        f[text: .bundleId] = "com.example.app"
        f[text: .inAppOwnershipType] = "PURCHASED"
        f[text: .transactionId] = "170000899999999"
        f[text: .webOrderLineItemId] = "170000812345678"
        f[date: .purchaseDate] = 1_704_067_190_000
        f[date: .expiresDate] = 1_706_745_590_000
        f[date: .originalPurchaseDate] = 1_690_000_000_000
        f[number: .autoRenewStatus] = 1
        f.hasAutoRenewStatus = true
        let bytes = try RecordFactsCodec.encode(f) { texts.id($0) }
        #expect(bytes.count <= 48, "a monthly renewal takes \(bytes.count) bytes (the JSON payload took about 1,800)")
    }

    /// The bytes of format 1, worked out by hand from the layout: states written by earlier releases read the same.
    @Test func formatOneBytesStayTheSame() throws {
        let texts = Texts()
        var f = RecordFacts(kind: .v2, location: SourceLocation(path: "p"))
        f.time = 1_000
        f[text: .productId] = "pro"
        f[text: .transactionId] = "300"
        f[date: .purchaseDate] = 1_010
        f[date: .expiresDate] = 1_005
        f[number: .autoRenewStatus] = 1
        f[flag: .isUpgraded] = true
        f[flag: .isInBillingRetryPeriod] = false
        let bytes = try RecordFactsCodec.encode(f) { texts.id($0) }
        // flags: kind 2, environment (bit 4) and key (bit 5) absent, upgraded known (7) and true (8), retry known (9):
        // 2 + 16 + 32 + 128 + 256 + 512 = 946 = varint B2 07. Mask: path (4), productId (7), transactionId (13),
        // purchaseDate (14), expiresDate (15), autoRenewStatus (20) = 1_106_064 = varint 90 C1 43. Then path text 1,
        // productId text 2, transactionId 300 << 1 = 600 (D8 04), purchaseDate +10 from the time (zigzag 20 = 14),
        // expiresDate −5 from purchaseDate (zigzag 9), autoRenewStatus 1 (zigzag 2).
        #expect(bytes == [1, 0xB2, 0x07, 0x90, 0xC1, 0x43, 1, 2, 0xD8, 0x04, 0x14, 0x09, 0x02])
    }

    @Test func damagedBytesAreNeverAWrongValue() throws {
        var r = SplitMix64(seed: 29)
        let texts = Texts()
        var detected = 0
        for _ in 0..<2_000 {
            let facts = Self.random(&r)
            var bytes = try RecordFactsCodec.encode(facts) { texts.id($0) }
            // Cut the bytes short, or flip a byte's top bit (a varint that runs on): always detected.
            if r.below(2) == 0 {
                bytes.removeLast(1 + r.below(bytes.count))
            } else {
                let at = r.below(bytes.count)
                bytes[at] ^= 0x80
                if at == 0 { bytes[0] = 9 }
            }
            let back = bytes.withUnsafeBytes { raw in
                RecordFactsCodec.decode(
                    raw, environment: "", originalTransactionId: "", notificationUUID: nil, time: nil,
                    text: { texts.texts[$0] })
            }
            if back == nil { detected += 1 }
        }
        #expect(detected == 2_000)
    }

    /// A state written by the format before facts (schema 2: JSON payloads, `seen_uuids`) opens with every record's
    /// facts as the payload gives them, its UUIDs still seen, and a `records` view for queries.
    @Test func aFormatTwoStateIsMovedToFacts() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/state.sqlite"
        var payload = ResponseBodyV2DecodedPayload(notificationType: "DID_RENEW")
        payload.notificationUUID = "b1f2c3d4-0000-4000-8000-00000000000a"
        payload.signedDate = 1_704_067_200_123
        payload.data.environment = "Production"
        var t = JWSTransactionDecodedPayload()
        t.originalTransactionId = "170000812345604"
        t.transactionId = "170000899999999"
        t.productId = "com.example.pro.monthly"
        t.purchaseDate = 1_704_067_190_000
        t.expiresDate = 1_706_745_590_000
        payload.data.transactionInfo = t
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute(StateSchema.migrations[0] + StateSchema.migrations[1] + "PRAGMA user_version = 2;")
            try db.execute(
                "INSERT INTO files (id, path, side, size, mtime_ms, sha1, records_read, records_stored, duplicates, other_environment, rejects, first_ingested, ingested, ingest_run) VALUES (1, '/in/v2.jsonl', 'v2', 10, 0, 'x', 1, 1, 0, 0, 0, '2024-01-02', '2024-01-02', 1)"
            )
            try db.prepare(
                "INSERT INTO records (file_id, side, form, environment, original_transaction_id, notification_uuid, event_ms, inferred, expires_ms, source, payload) VALUES (1, 'v2', 'v2', 'Production', '170000812345604', ?, 1704067200123, 0, 1706745590000, '/in/v2.jsonl:7', ?)"
            )
            .run([.text(payload.notificationUUID), .text(JSONWriter.string(.object(payload.json)))])
            try db.execute(
                "INSERT INTO seen_uuids VALUES ('v2', 'b1f2c3d4-0000-4000-8000-00000000000a', '0123456789abcdef0123456789abcdef01234567', 1), ('v2', 'c1f2c3d4-0000-4000-8000-00000000000b', 'ffffffffffffffff0123456789abcdef01234567', 1)"
            )
            db.close()
        }
        let store = try NightlyStore(path: path)
        let records = try store.facts.records(
            of: SubscriptionKey(environment: "Production", originalTransactionId: "170000812345604"))
        #expect(
            records == [
                StoredRecord(
                    facts: RecordFacts(payload, kind: .v2, location: SourceLocation(path: "/in/v2.jsonl", line: 7)),
                    digest: Int64(bitPattern: 0x0123_4567_89ab_cdef))
            ])
        #expect(
            try store.facts.seen(side: "v2", uuid: "b1f2c3d4-0000-4000-8000-00000000000a")
                == .init(digest: 0x0123_4567_89ab_cdef))
        #expect(
            try store.facts.seen(side: "v2", uuid: "c1f2c3d4-0000-4000-8000-00000000000b") == .init(digest: -1),
            "a pruned record's UUID stays seen")
        #expect(try store.facts.seen(side: "v1", uuid: "b1f2c3d4-0000-4000-8000-00000000000a") == nil)
        #expect(
            try store.state.scalar(
                "SELECT COUNT(*) FROM records WHERE notification_uuid = 'b1f2c3d4-0000-4000-8000-00000000000a' AND file_path = '/in/v2.jsonl'"
            ) == 1)
        #expect(try store.state.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'seen_uuids'") == 0)
    }
}
