import Foundation
import Testing

@testable import ASNMigrateKit

/// The V1 side of the transaction comparison: which transactions a raw V1 record shows.
@Suite struct V1TransactionCollectorTests {
    @Test func legacyLatestExpiredReceiptInfoIsATransactionTheArchiveShows() throws {
        // A legacy body: the transaction only in top-level latest_expired_receipt_info (an object, as V1 sent it).
        let expired = V1Fixture.tx(id: "301", purchase: "2020-03-01T00:00:00Z", expires: "2020-04-01T00:00:00Z")
        let text =
            #"{"notification_type":"DID_CHANGE_RENEWAL_STATUS","environment":"PROD","auto_renew_status":"false","password":"s3cr3t","#
            + #""original_transaction_id":"1000000001","auto_renew_status_change_date_ms":"1585699200000","latest_expired_receipt_info":\#(expired)}"#
        let record = RawRecord(location: SourceLocation(path: "v1.jsonl", line: 7), bytes: Array(text.utf8))
        let facts = try #require(
            V1TransactionCollector.facts(of: record, parser: JSONParser(skippingKeys: Envelope.secretKeys)))
        var collector = V1TransactionCollector()
        collector.add(facts)
        #expect(collector.transactions.map { $0.info.transactionId } == ["301"])
        let transaction = try #require(collector.transactions.first)
        #expect(transaction.environment == "Production" && transaction.originalTransactionId == "1000000001")
        #expect(transaction.source == "v1.jsonl:7")
        #expect(transaction.info.expiresDate == V1Fixture.ms("2020-04-01T00:00:00Z"))
    }
}

/// The collector keeps each record's state facts, not the record: the states they give are the records' own.
@Suite struct V1TransactionCollectorStateTests {
    /// Midnight UTC of a day, as ISO 8601.
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> String {
        String(format: "%04d-%02d-%02dT00:00:00Z", year, month, day)
    }

    /// Random receipts over three subscriptions (each record also shows other subscriptions' transactions, as an app
    /// receipt does), some refunded or upgraded, with renewal info: at every instant, the state from the kept facts is
    /// the state `SubscriptionStatusComparison.state(of:records:)` derives from the records that mention the
    /// subscription, and the transactions are the same values.
    @Test func keptStateFactsGiveTheRecordsStates() throws {
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        let subscriptions = ["1000000001", "1000000002", "1000000003000000"]
        let types = ["DID_RENEW", "INTERACTIVE_RENEWAL", "DID_CHANGE_RENEWAL_STATUS", "CANCEL", "DID_FAIL_TO_RENEW"]
        var rng = SplitMix64(seed: 20_261_126)
        var statesCompared = 0
        for round in 0..<40 {
            let keys = Set(subscriptions.map { SubscriptionKey(environment: "Production", originalTransactionId: $0) })
            var collector = V1TransactionCollector(statusSubscriptions: keys)
            var all: [V1RecordFacts] = []
            for record in 0..<(1 + rng.below(12)) {
                let owner = rng.pick(subscriptions)
                var entries: [String] = []
                for month in 0..<(1 + rng.below(4)) {
                    let sub = rng.oneIn(3) ? rng.pick(subscriptions) : owner
                    let start = 1 + rng.below(9)
                    var extra: [String: String] = [:]
                    if rng.oneIn(5) {
                        extra["cancellation_date_ms"] = String(V1Fixture.ms(Self.day(2021, start, 15)))
                    }
                    if rng.oneIn(6) { extra["is_upgraded"] = "true" }
                    entries.append(
                        V1Fixture.tx(
                            id: "\(sub.prefix(10))\(round)\(start)\(month)", original: sub,
                            product: rng.oneIn(4) ? "com.example.app.premium.yearly" : "pro.monthly",
                            purchase: Self.day(2021, start, 1), expires: Self.day(2021, start + 1, 1),
                            extra: extra))
                }
                let type = rng.pick(types)
                let top: [String: String] =
                    type == "DID_CHANGE_RENEWAL_STATUS"
                    ? [
                        "auto_renew_status_change_date_ms": String(
                            V1Fixture.ms(Self.day(2021, 1 + rng.below(9), 20)))
                    ]
                    : [:]
                let pending =
                    rng.oneIn(3)
                    ? [] : [V1Fixture.pending(original: owner, status: rng.oneIn(2) ? "1" : "0")]
                let text = V1Fixture.body(type: type, top: top, transactions: entries, pending: pending)
                let raw = RawRecord(
                    location: SourceLocation(path: "v1.jsonl", line: record + 1), bytes: Array(text.utf8))
                let facts = try #require(V1TransactionCollector.facts(of: raw, parser: parser))
                collector.add(facts)
                all.append(facts)
            }
            for id in subscriptions {
                let key = SubscriptionKey(environment: "Production", originalTransactionId: id)
                let mentioning = all.filter { facts in
                    facts.subscriptionId == id || facts.transactions.contains { $0.originalTransactionId == id }
                }
                for day in stride(from: 1, through: 28, by: 3) {
                    for month in 1...9 {
                        let instant = V1Fixture.ms(String(format: "2021-%02d-%02dT12:00:00Z", month, day))
                        let lag = Int64(rng.below(3)) * 86_400_000
                        let expected = SubscriptionStatusComparison.state(
                            of: id, records: mentioning, at: instant, lag: lag)
                        let kept = SubscriptionStatusComparison.state(
                            facts: collector.stateFacts(of: key) ?? [], at: instant, lag: lag)
                        #expect(kept == expected, "round \(round), \(id) at \(Timestamp.iso8601(ms: instant))")
                        if expected != nil { statesCompared += 1 }
                    }
                }
            }
            // Sharing text changes no value: the transactions equal a collector's without status subscriptions.
            var plain = V1TransactionCollector()
            for facts in all { plain.add(facts) }
            #expect(plain.transactions == collector.transactions)
        }
        #expect(statesCompared > 1_000)
    }
}
