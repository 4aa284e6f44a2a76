import Foundation
import Testing

@testable import ASNMigrateKit

/// The state keeps the API-view tables in `StateCodec`'s form: a state of schema 11 holding JSON is converted in its
/// upgrade's transaction (digests computed again, entries whose new bytes are equal merged), and a damaged or newer
/// blob is refused naming its table, row and what to do.
@Suite struct APIViewStoreCodecTests {
    static let subscription = "170000812345601"
    static let key = SubscriptionKey(environment: "Production", originalTransactionId: subscription)

    /// The receipt entry the legacy JSON below holds.
    static var entry: LatestReceiptInfo {
        var e = LatestReceiptInfo()
        e.transactionId = subscription
        e.originalTransactionId = subscription
        e.webOrderLineItemId = "170000312345601"
        e.productId = "com.example.p"
        e.subscriptionGroupIdentifier = "20571234"
        e.purchaseDate = 1_614_590_100_000
        e.originalPurchaseDate = 1_614_590_100_000
        e.expiresDate = 1_615_194_900_000
        e.quantity = "1"
        e.isTrialPeriod = true
        e.isInIntroOfferPeriod = false
        e.inAppOwnershipType = "PURCHASED"
        return e
    }

    /// The record facts the legacy JSON below holds.
    static func facts(source: String) -> V1RecordFacts {
        var f = V1RecordFacts(environment: "Production", notificationType: "INITIAL_BUY", source: source)
        f.subscriptionId = subscription
        f.eventTime = 1_614_590_100_000
        f.bodyEventTime = 1_614_590_100_000
        f.relevantTransactionId = subscription
        f.autoRenewStatus = true
        f.autoRenewProductId = "com.example.p"
        f.bundleId = "com.example"
        f.transactions = [entry]
        return f
    }

    /// Foundation's JSON of the entry as schema 8 to 11 stored it, with `extra` members added (which the old reader
    /// ignored).
    static func entryJSON(extra: String = "") -> String {
        #"{"expiresDate":1615194900000,"inAppOwnershipType":"PURCHASED","isInIntroOfferPeriod":false,"isTrialPeriod":true,"originalPurchaseDate":1614590100000,"originalTransactionId":"170000812345601","productId":"com.example.p","purchaseDate":1614590100000,"quantity":"1","subscriptionGroupIdentifier":"20571234","transactionId":"170000812345601","webOrderLineItemId":"170000312345601""#
            + extra + "}"
    }

    /// Foundation's JSON of the facts as schema 8 to 11 stored it.
    static func factsJSON(source: String) -> String {
        #"{"autoRenewProductId":"com.example.p","autoRenewStatus":true,"bodyEventTime":1614590100000,"bundleId":"com.example","environment":"Production","eventTime":1614590100000,"eventTimeInferred":false,"notificationType":"INITIAL_BUY","relevantTransactionId":"170000812345601","source":""#
            + source.replacingOccurrences(of: "/", with: #"\/"#)
            + #"","subscriptionId":"170000812345601","transactions":[]}"#
    }

    /// A transaction and a status of Apple's view, and the project's JSON of each as schema 8 to 11 stored it.
    static func answers(path: String) -> [(V2APIRecord, String)] {
        var t = JWSTransactionDecodedPayload()
        t.transactionId = subscription
        t.originalTransactionId = subscription
        t.purchaseDate = 1_614_590_100_000
        t.type = "SOMETHING_NEW"
        var r = JWSRenewalInfoDecodedPayload()
        r.autoRenewStatus = 1
        let location = SourceLocation(path: path)
        return [
            (
                .transaction(
                    V2Transaction(payload: t, environment: "Production", origin: .history, location: location)),
                #"{"environment":"Production","payload":{"transactionId":"170000812345601","originalTransactionId":"170000812345601","purchaseDate":1614590100000,"type":"SOMETHING_NEW"}}"#
            ),
            (
                .status(
                    V2SubscriptionStatus(
                        environment: "Production", originalTransactionId: subscription,
                        subscriptionGroupIdentifier: nil, status: 1, transaction: t, renewal: r,
                        fetchedAt: 1_614_600_000_000, location: location)),
                #"{"environment":"Production","originalTransactionId":"170000812345601","status":1,"fetchedAt":1614600000000,"transaction":{"transactionId":"170000812345601","originalTransactionId":"170000812345601","purchaseDate":1614590100000,"type":"SOMETHING_NEW"},"renewal":{"autoRenewStatus":1}}"#
            )
        ]
    }

    /// A state holding two V1 records (sharing their one entry) and two answers, written by this version.
    static func state(_ tmp: TemporaryDirectory) throws -> (path: String, v1: String, v2: String) {
        let path = tmp.path + "/state.sqlite"
        let v1 = tmp.path + "/in/v1/a.jsonl"
        let v2 = tmp.path + "/in/v2/a.json"
        let store = try NightlyStore(path: path)
        defer { store.close() }
        let v1File = try store.ledger.beginFile(
            path: v1, side: "v1", size: 0, mtimeMs: 0, sha1: "a", date: "2021-04-03", run: 1)
        _ = try store.apiView.insertV1Transactions(facts(source: v1 + ":1"), file: v1File)
        _ = try store.apiView.insertV1Transactions(facts(source: v1 + ":2"), file: v1File)
        let v2File = try store.ledger.beginFile(
            path: v2, side: "v2", size: 0, mtimeMs: 0, sha1: "b", date: "2021-04-03", run: 1)
        for (record, _) in answers(path: v2) { _ = try store.apiView.insertAPIRecord(record, file: v2File) }
        return (path, v1, v2)
    }

    /// How many blobs of the three columns are JSON (start with `{`).
    static func jsonBlobs(_ database: SQLiteDatabase) throws -> Int64 {
        var count: Int64 = -1
        try database.prepare(
            "SELECT (SELECT COUNT(*) FROM v1_transactions WHERE substr(facts, 1, 1) = X'7B') + (SELECT COUNT(*) FROM v1_entries WHERE substr(entry, 1, 1) = X'7B') + (SELECT COUNT(*) FROM api_records WHERE substr(record, 1, 1) = X'7B')"
        ).forEach { count = $0.int64(0) }
        return count
    }

    @Test func aSchemaElevenStateWithJSONBlobsIsConvertedAndReadsBackTheSameFacts() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (path, v1, v2) = try Self.state(tmp)

        // The state as schema 11 left it: every blob JSON, and a second copy of the entry that the old reader read
        // the same (an extra member), which the second record lists.
        let old = try SQLiteDatabase(path: path, create: false)
        try old.prepare("UPDATE v1_transactions SET facts = CAST(? AS BLOB) WHERE id = 1").run([
            .text(Self.factsJSON(source: v1 + ":1"))
        ])
        try old.prepare("UPDATE v1_transactions SET facts = CAST(? AS BLOB) WHERE id = 2").run([
            .text(Self.factsJSON(source: v1 + ":2"))
        ])
        try old.prepare("UPDATE v1_entries SET entry = CAST(? AS BLOB), digest = 7").run([.text(Self.entryJSON())])
        try old.prepare(
            "INSERT INTO v1_entries (id, subscription_id, digest, entry) SELECT 99, subscription_id, 8, CAST(? AS BLOB) FROM v1_entries"
        ).run([.text(Self.entryJSON(extra: #","unknownMember":5"#))])
        var dup: [UInt8] = []
        APIViewStore.appendVarint(99, to: &dup)
        try old.prepare("UPDATE v1_transactions SET entries = ? WHERE id = 2").run([.blob(dup)])
        for (id, (_, json)) in Self.answers(path: v2).enumerated() {
            try old.prepare("UPDATE api_records SET record = CAST(? AS BLOB) WHERE id = ?").run([
                .text(json), .integer(Int64(id + 1))
            ])
        }
        try old.execute("DELETE FROM meta WHERE key = 'state_codec'; PRAGMA user_version = 11")
        #expect(try Self.jsonBlobs(old) == 6)
        old.close()

        let store = try NightlyStore(path: path)
        defer { store.close() }
        #expect(try store.database.userVersion == StateSchema.currentVersion)
        #expect(try Self.jsonBlobs(store.database) == 0, "no JSON blob remains")
        #expect(try store.state.meta("state_codec") == 1)
        #expect(
            try store.apiView.v1Transactions(of: Self.key) == [
                Self.facts(source: v1 + ":1"), Self.facts(source: v1 + ":2")
            ])
        #expect(try store.apiView.apiRecords(of: Self.key) == Self.answers(path: v2).map(\.0))
        #expect(try store.state.scalar("SELECT COUNT(*) FROM v1_entries") == 1, "the two copies of the entry are one")
        var digest: Int64 = 0
        var bytes: [UInt8] = []
        try store.database.prepare("SELECT digest, entry FROM v1_entries").forEach {
            digest = $0.int64(0)
            bytes = $0.blob(1)
        }
        #expect(digest == Int64(bitPattern: SHA1.prefix64(SHA1.digest(bytes))), "the digest is of the new bytes")

        // The converted state stores the same entry again as the same row.
        let file = try store.ledger.beginFile(
            path: v1 + "x", side: "v1", size: 0, mtimeMs: 0, sha1: "c", date: "2021-04-04", run: 2)
        _ = try store.apiView.insertV1Transactions(Self.facts(source: v1 + "x:1"), file: file)
        #expect(try store.state.scalar("SELECT COUNT(*) FROM v1_entries") == 1)
    }

    @Test(arguments: ["v1_transactions.facts", "v1_entries.entry", "api_records.record"])
    func aDamagedOrNewerBlobIsRefusedNamingItsTableRowAndWhatToDo(column: String) throws {
        let parts = column.split(separator: ".").map(String.init)
        for damage in ["version", "truncated"] {
            let tmp = try TemporaryDirectory()
            defer { tmp.remove() }
            let (path, _, _) = try Self.state(tmp)
            let db = try SQLiteDatabase(path: path, create: false)
            let sql =
                damage == "version"
                ? "UPDATE \(parts[0]) SET \(parts[1]) = X'02' || substr(\(parts[1]), 2) WHERE id = (SELECT MIN(id) FROM \(parts[0]))"
                : "UPDATE \(parts[0]) SET \(parts[1]) = substr(\(parts[1]), 1, length(\(parts[1])) - 1) WHERE id = (SELECT MIN(id) FROM \(parts[0]))"
            try db.execute(sql)
            db.close()
            let store = try NightlyStore(path: path)
            defer { store.close() }
            let error = #expect(throws: ASNError.self) {
                if parts[0] == "api_records" {
                    _ = try store.apiView.apiRecords(of: Self.key)
                } else {
                    _ = try store.apiView.v1Transactions(of: Self.key)
                }
            }
            let message = error?.message ?? ""
            #expect(message.contains("\(parts[0]) row 1 of subscription Production \(Self.subscription)"), "\(message)")
            #expect(
                message.contains("damaged or of a newer format") && message.contains("restore the state"), "\(message)")
        }
    }
}
