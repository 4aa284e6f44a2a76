import Foundation
import Testing

@testable import ASNMigrateKit

/// The state's one codec for the API-view tables: each stored form reads a golden blob this version wrote and still
/// writes exactly those bytes; random models (unknown raw values, huge ids, absent members, unicode) come back
/// exactly; damaged or newer blobs read as nothing, never as a wrong value.
@Suite struct StateCodecTests {
    typealias Texts = RecordFactsCodecTests.Texts

    // MARK: - Golden blobs

    /// A receipt entry with every kind of member.
    static var goldenEntry: LatestReceiptInfo {
        var e = LatestReceiptInfo()
        e.transactionId = "170000812345601"
        e.originalTransactionId = "170000812345601"
        e.webOrderLineItemId = "0170000312345601"
        e.productId = "com.example.sampleapp.pro.monthly"
        e.subscriptionGroupIdentifier = "20571234"
        e.purchaseDate = 1_614_590_100_000
        e.originalPurchaseDate = 1_614_590_100_000
        e.expiresDate = 1_615_194_900_000
        e.quantity = "1"
        e.isTrialPeriod = true
        e.isInIntroOfferPeriod = false
        e.inAppOwnershipType = "PURCHASED"
        e.appAccountToken = "é✓"
        return e
    }

    /// A V1 record's transaction facts with every kind of member.
    static var goldenFacts: V1RecordFacts {
        var f = V1RecordFacts(environment: "Production", notificationType: "DID_RENEW", source: "/in/v1/a.jsonl:12")
        f.subscriptionId = "170000812345601"
        f.eventTime = 1_614_590_100_000
        f.bodyEventTime = 1_614_590_000_000
        f.relevantTransactionId = "170000812345699"
        f.autoRenewStatus = true
        f.autoRenewProductId = "com.example.sampleapp.pro.monthly"
        f.gracePeriodExpiresDate = 1_615_194_900_000
        f.isInBillingRetryPeriod = false
        f.bundleId = "com.example.sampleapp"
        return f
    }

    /// A subscription status with a transaction and renewal info.
    static var goldenStatus: V2APIRecord {
        var t = JWSTransactionDecodedPayload()
        t.transactionId = "2000000123456789"
        t.originalTransactionId = "2000000123456700"
        t.productId = "com.example.sampleapp.pro.monthly"
        t.purchaseDate = 1_700_000_000_000
        t.expiresDate = 1_702_592_000_000
        t.quantity = 1
        t.type = "A NEW TYPE"
        t.isUpgraded = false
        t.price = 9_990
        var r = JWSRenewalInfoDecodedPayload()
        r.originalTransactionId = "2000000123456700"
        r.autoRenewStatus = 1
        r.gracePeriodExpiresDate = 1_702_600_000_000
        r.isInBillingRetryPeriod = true
        return .status(
            V2SubscriptionStatus(
                environment: "Sandbox", originalTransactionId: "2000000123456700", subscriptionGroupIdentifier: "G1",
                status: 4, transaction: t, renewal: r, fetchedAt: 1_702_700_000_000,
                location: SourceLocation(path: "/in/v2/status.json")))
    }

    /// The bytes this version writes for the golden models (texts numbered from 1 in the order first met).
    static let goldenEntryHex =
        "010d098192a0b0d6d326118192a0b0d6d32618103031373030303033313233343536303122012a0234c0888ed1fd5d3c00448090e4c0045a03666d8a0104900105c3a9e29c93"
    static let goldenFactsHex =
        "010e0a01118192a0b0d6d3261cc0888ed1fd5d252cbf9a0c320239e392a0b0d6d326464a0354c0aaf0c0045d62046b187a05"
    static let goldenStatusHex =
        "01070a0111bc99a387d5dfc6031a0223082c808ca18d8e63372d0909959aa387d5dfc60311bc99a387d5dfc6032a033c80a0abfef9624c80a0f6a71353025a048d01c3018c9c013f140409bc99a387d5dfc6032302348088f2ad8d633e"

    @Test func aReceiptEntryReadsItsGoldenBlobAndIsWrittenAsIt() throws {
        let texts = Texts()
        let bytes = try StateCodec.encode(Self.goldenEntry) { texts.id($0) }
        #expect(Self.hex(bytes) == Self.goldenEntryHex)
        let golden = try #require(Self.bytes(Self.goldenEntryHex))
        #expect(StateCodec.receiptEntry(golden) { texts.texts[$0] } == Self.goldenEntry)
        #expect(texts.texts[1] == "com.example.sampleapp.pro.monthly", "a shared text is a texts id")
    }

    @Test func transactionFactsReadTheirGoldenBlobAndAreWrittenAsIt() throws {
        let texts = Texts()
        let bytes = try StateCodec.encode(Self.goldenFacts) { texts.id($0) }
        #expect(Self.hex(bytes) == Self.goldenFactsHex)
        let golden = try #require(Self.bytes(Self.goldenFactsHex))
        #expect(StateCodec.v1Facts(golden) { texts.texts[$0] } == Self.goldenFacts)
        #expect(texts.ids["/in/v1/a.jsonl"] != nil, "the source's path is a shared text, its line a number")
    }

    @Test func anAPIAnswerReadsItsGoldenBlobAndIsWrittenAsIt() throws {
        let texts = Texts()
        let bytes = try StateCodec.encode(Self.goldenStatus) { texts.id($0) }
        #expect(Self.hex(bytes) == Self.goldenStatusHex)
        let golden = try #require(Self.bytes(Self.goldenStatusHex))
        let location = SourceLocation(path: "/in/v2/status.json")
        #expect(
            StateCodec.apiRecord(golden, kind: StateCodec.statusKind, at: location) { texts.texts[$0] }
                == Self.goldenStatus)
        #expect(
            StateCodec.apiRecord(golden, kind: StateCodec.transactionKind, at: location) { texts.texts[$0] } == nil,
            "a status is not read as a transaction")
    }

    @Test func noStoredByteNamesASwiftProperty() throws {
        let texts = Texts()
        var all: [UInt8] = []
        all += try StateCodec.encode(Self.goldenEntry) { texts.id($0) }
        all += try StateCodec.encode(Self.goldenFacts) { texts.id($0) }
        all += try StateCodec.encode(Self.goldenStatus) { texts.id($0) }
        let text = String(decoding: all, as: UTF8.self) + texts.ids.keys.joined()
        for name in ["transactionId", "purchaseDate", "eventTime", "subscriptionId", "source", "payload"] {
            #expect(!text.contains(name), "\(name)")
        }
    }

    // MARK: - Tables

    /// Every member each model visits has a tag, and no two members of a table share one.
    @Test func everyVisitedMemberHasItsOwnTag() throws {
        func keys<Model: StateCodecModel>(_ model: Model) -> [String] {
            var lister = KeyLister()
            var copy = model
            copy.visitMembers(&lister)
            return lister.keys
        }
        let tables: [(String, [String], StateCodec.Table)] = [
            ("entry", keys(LatestReceiptInfo()), StateCodec.receiptEntryTable),
            ("transaction", keys(JWSTransactionDecodedPayload()), StateCodec.transactionTable),
            ("renewal", keys(JWSRenewalInfoDecodedPayload()), StateCodec.renewalTable)
        ]
        for (name, visited, table) in tables {
            #expect(Set(visited) == Set(table.keys), "\(name)")
        }
        for table in [
            StateCodec.receiptEntryTable, StateCodec.transactionTable, StateCodec.renewalTable, StateCodec.v1FactsTable,
            StateCodec.answerTable
        ] {
            let tags = table.values.map(\.tag)
            #expect(Set(tags).count == tags.count && !tags.contains(0))
        }
    }

    // MARK: - Round trips

    @Test func randomReceiptEntriesComeBackExactly() throws {
        var r = SplitMix64(seed: 40)
        for _ in 0..<2000 {
            let texts = Texts()
            let entry: LatestReceiptInfo = Self.randomModel(&r)
            let bytes = try StateCodec.encode(entry) { texts.id($0) }
            #expect(StateCodec.receiptEntry(bytes) { texts.texts[$0] } == entry)
            #expect(try StateCodec.encode(entry) { texts.id($0) } == bytes, "equal entries give equal bytes")
        }
    }

    @Test func randomTransactionFactsComeBackExactly() throws {
        var r = SplitMix64(seed: 41)
        for _ in 0..<2000 {
            let texts = Texts()
            let facts = Self.randomFacts(&r)
            let bytes = try StateCodec.encode(facts) { texts.id($0) }
            #expect(StateCodec.v1Facts(bytes) { texts.texts[$0] } == facts, "\(facts.source)")
        }
    }

    @Test func randomAPIAnswersComeBackExactly() throws {
        var r = SplitMix64(seed: 42)
        let location = SourceLocation(path: "/in/v2/a.json")
        for _ in 0..<2000 {
            let texts = Texts()
            let record: V2APIRecord
            let kind: Int64
            if r.oneIn(2) {
                kind = StateCodec.transactionKind
                record = .transaction(
                    V2Transaction(
                        payload: Self.randomModel(&r), environment: Self.randomText(&r), origin: .history,
                        location: location))
            } else {
                kind = StateCodec.statusKind
                record = .status(
                    V2SubscriptionStatus(
                        environment: Self.randomText(&r), originalTransactionId: Self.randomId(&r),
                        subscriptionGroupIdentifier: r.oneIn(3) ? nil : Self.randomText(&r),
                        status: r.oneIn(3) ? nil : Int(truncatingIfNeeded: r.next()),
                        transaction: r.oneIn(3) ? nil : Self.randomModel(&r),
                        renewal: r.oneIn(3) ? nil : Self.randomModel(&r),
                        fetchedAt: r.oneIn(3) ? nil : Self.randomDate(&r), location: location))
            }
            let bytes = try StateCodec.encode(record) { texts.id($0) }
            #expect(StateCodec.apiRecord(bytes, kind: kind, at: location) { texts.texts[$0] } == record)
            #expect(try StateCodec.encode(record) { texts.id($0) } == bytes, "equal answers give equal bytes")
        }
    }

    @Test func sourcesSplitAndJoinByteForByte() {
        for source in [
            "/a/b.jsonl:12", "/a/b.jsonl[3]", "/a/b.jsonl", ":12", "a:012", "a:", "a[1]x", "a[]",
            "x:9223372036854775808",
            "é:1", "a:1:2", "a[1]:2", "a:1[2]", ""
        ] {
            let parts = SourceParts(source)
            #expect(parts.text == source, "\(source)")
        }
        #expect(SourceParts("/a/b.jsonl:12") == SourceParts(path: "/a/b.jsonl", line: 12, index: nil))
        #expect(SourceParts("a:012").line == nil, "a line with a leading zero is kept in the path")
    }

    // MARK: - Damage

    @Test func aTruncatedOrNewerBlobReadsAsNothing() throws {
        let texts = Texts()
        let forms: [([UInt8], ([UInt8]) -> Bool)] = [
            (
                try StateCodec.encode(Self.goldenEntry) { texts.id($0) },
                { StateCodec.receiptEntry($0) { texts.texts[$0] } != nil }
            ),
            (
                try StateCodec.encode(Self.goldenFacts) { texts.id($0) },
                { StateCodec.v1Facts($0) { texts.texts[$0] } != nil }
            ),
            (
                try StateCodec.encode(Self.goldenStatus) { texts.id($0) },
                {
                    StateCodec.apiRecord($0, kind: StateCodec.statusKind, at: SourceLocation(path: "")) {
                        texts.texts[$0]
                    } != nil
                }
            )
        ]
        for (bytes, reads) in forms {
            #expect(reads(bytes))
            for cut in 0..<bytes.count { #expect(!reads(Array(bytes[..<cut])), "cut at \(cut)") }
            #expect(!reads(bytes + [0]), "a byte too many")
            for version in [0, 2, 0x7B] as [UInt8] {
                #expect(!reads([version] + bytes.dropFirst()), "version \(version)")
            }
        }
        let bytes = try StateCodec.encode(Self.goldenEntry) { texts.id($0) }
        #expect(StateCodec.receiptEntry(bytes) { _ in nil } == nil, "an unknown text id is damage")
    }

    // MARK: - Random models

    /// A text: Apple's values, unknown raw values, unicode, ids with leading zeros or past 64 bits.
    static func randomText(_ r: inout SplitMix64) -> String {
        r.pick([
            "Production", "Sandbox", "", "PURCHASED", "SOME_FUTURE_VALUE", "é✓ \u{0}\"\n😀", "0012", "-5", "1e400",
            "18446744073709551616", "9223372036854775807", "9223372036854775808", "com.example.pro.monthly"
        ])
    }

    /// An id: a text of `randomText`, zero, or a number of any size.
    static func randomId(_ r: inout SplitMix64) -> String {
        switch r.below(4) {
        case 0: return randomText(&r)
        case 1: return "0"
        default: return String(r.next() >> UInt64(r.below(64)))
        }
    }

    /// A date: near now, or any 64 bits.
    static func randomDate(_ r: inout SplitMix64) -> Int64 {
        r.oneIn(5) ? Int64(bitPattern: r.next()) : 1_600_000_000_000 + Int64(r.below(1 << 40)) - (1 << 39)
    }

    /// A model with each member absent one time in three, else random.
    static func randomModel<Model: StateCodecModel>(_ r: inout SplitMix64) -> Model {
        var filler = RandomFiller(random: r)
        var model = Model()
        model.visitMembers(&filler)
        r = filler.random
        return model
    }

    /// Random transaction facts, with no receipt entries (they are stored apart).
    static func randomFacts(_ r: inout SplitMix64) -> V1RecordFacts {
        let source: String
        switch r.below(4) {
        case 0: source = randomText(&r) + ":" + String(r.below(1 << 30))
        case 1: source = randomText(&r) + "[" + String(r.below(1000)) + "]"
        case 2: source = randomText(&r)
        default: source = "/tmp/in/v1/part-" + String(r.below(10)) + ".jsonl:" + randomId(&r)
        }
        var f = V1RecordFacts(environment: randomText(&r), notificationType: randomText(&r), source: source)
        f.subscriptionId = r.oneIn(3) ? nil : randomId(&r)
        f.eventTime = r.oneIn(3) ? nil : randomDate(&r)
        f.eventTimeInferred = r.oneIn(2)
        f.bodyEventTime = r.oneIn(3) ? nil : randomDate(&r)
        f.relevantTransactionId = r.oneIn(3) ? nil : randomId(&r)
        f.autoRenewStatus = r.oneIn(3) ? nil : r.oneIn(2)
        f.autoRenewProductId = r.oneIn(3) ? nil : randomText(&r)
        f.gracePeriodExpiresDate = r.oneIn(3) ? nil : randomDate(&r)
        f.isInBillingRetryPeriod = r.oneIn(3) ? nil : r.oneIn(2)
        f.bundleId = r.oneIn(3) ? nil : randomText(&r)
        return f
    }

    // MARK: - Helpers

    /// Lower-case hex of bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of lower-case hex.
    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { all, byte in
            if let byte { all?.append(byte) } else { all = nil }
        }
    }
}

/// Lists the keys a model visits.
private struct KeyLister: V2MemberVisitor {
    var keys: [String] = []
    mutating func visit(_ key: String, _ value: inout String?) { keys.append(key) }
    mutating func visit(_ key: String, _ value: inout Int64?) { keys.append(key) }
    mutating func visit(_ key: String, _ value: inout Int?) { keys.append(key) }
    mutating func visit(_ key: String, _ value: inout Bool?) { keys.append(key) }
}

/// Sets each visited member at random, absent one time in three.
private struct RandomFiller: V2MemberVisitor {
    var random: SplitMix64
    mutating func visit(_ key: String, _ value: inout String?) {
        value = random.oneIn(3) ? nil : StateCodecTests.randomId(&random)
    }
    mutating func visit(_ key: String, _ value: inout Int64?) {
        value = random.oneIn(3) ? nil : StateCodecTests.randomDate(&random)
    }
    mutating func visit(_ key: String, _ value: inout Int?) {
        value = random.oneIn(3) ? nil : (random.oneIn(4) ? Int(truncatingIfNeeded: random.next()) : random.below(10))
    }
    mutating func visit(_ key: String, _ value: inout Bool?) { value = random.oneIn(3) ? nil : random.oneIn(2) }
}
