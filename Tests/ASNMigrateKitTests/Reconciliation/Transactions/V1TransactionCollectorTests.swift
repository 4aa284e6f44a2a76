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
