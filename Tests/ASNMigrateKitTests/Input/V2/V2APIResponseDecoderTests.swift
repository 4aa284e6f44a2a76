import Foundation
import Testing

@testable import ASNMigrateKit

/// Every input shape of Apple's API view: history pages, statuses responses, lone transactions (JWS or decoded), CSV rows.
@Suite struct V2APIResponseDecoderTests {
    let decoder = V2RecordDecoder()

    /// A transaction payload with `id`, optionally without an environment of its own.
    static func transaction(_ id: String, environment: String? = "Production", signedDate: Int64 = 1_700_000_000_000)
        -> String
    {
        let env = environment.map { #","environment":"\#($0)""# } ?? ""
        return
            #"{"transactionId":"\#(id)","originalTransactionId":"1000000001","webOrderLineItemId":"5\#(id)","productId":"pro.monthly","purchaseDate":1699000000000,"expiresDate":1701600000000,"type":"Auto-Renewable Subscription","signedDate":\#(signedDate)\#(env)}"#
    }

    /// The outcomes of reading `text` as one file named `name`.
    static func read(_ name: String, _ text: String, columnMap: V2ColumnMap? = nil) throws -> [V2ReadOutcome] {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write(name, text)
        var outcomes: [V2ReadOutcome] = []
        try V2RecordReader(columnMap: columnMap).read([InputFile(path: path)]) { outcomes.append($0) }
        return outcomes
    }

    /// The transaction of an outcome, or nil.
    static func transaction(of outcome: V2ReadOutcome) -> V2Transaction? {
        if case .api(.transaction(let t)) = outcome { return t }
        return nil
    }

    @Test func historyPagesAsJSONLinesGiveOneRecordPerEntryAndOneRejectPerBadEntry() throws {
        let page1 =
            #"{"revision":"r1","hasMore":true,"bundleId":"com.example.app","appAppleId":1,"environment":"Sandbox","signedTransactions":["\#(V2Fixture.jws(Self.transaction("11", environment: nil)))","signed_transaction_value","\#(V2Fixture.jws(Self.transaction("12")))"]}"#
        let page2 =
            #"{"revision":"r2","hasMore":false,"environment":"Production","signedTransactions":["\#(V2Fixture.jws(Self.transaction("13")))"]}"#
        let outcomes = try Self.read("history.jsonl", page1 + "\n" + page2 + "\n")
        #expect(outcomes.count == 4)
        let transactions = outcomes.compactMap(Self.transaction(of:))
        #expect(transactions.map { $0.payload.transactionId ?? "" } == ["11", "12", "13"])
        #expect(
            transactions.map(\.environment) == ["Sandbox", "Production", "Production"],
            "the page's environment when the transaction has none")
        #expect(transactions.map { $0.location.line ?? 0 } == [1, 1, 2])
        #expect(transactions.map { $0.location.index ?? -1 } == [0, 2, 0])
        #expect(transactions.allSatisfy { $0.origin == .history })
        let reject = try #require(outcomes[1].error)
        #expect(reject.code == .malformedJWS)
        #expect(reject.location?.key == "signedTransactions[1]")
    }

    @Test func historyPageWhoseSignedTransactionsIsNotAnArrayIsOneReject() throws {
        let outcomes = decoder.decode(
            .object(JSONObject([.init(key: "signedTransactions", value: .string("x"))])),
            at: SourceLocation(path: "h.json", line: 1))
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.error?.code == .wrongFieldType)
    }

    @Test(
        arguments: [
            (#""fetchedAt":1700500000000,"#, Int64(1_700_500_000_000)),
            (#""receivedAt":"2023-11-20T17:06:40Z","#, Int64(1_700_500_000_000)),
            ("", Int64(1_700_000_900_000))
        ] as [(String, Int64)])
    func statusesResponseIsDatedByItsEnvelopeOrItsNewestSignedDate(envelope: String, fetchedAt: Int64) throws {
        var renewal =
            #"{"originalTransactionId":"1000000001","autoRenewStatus":1,"autoRenewProductId":"pro.monthly","signedDate":1700000900000}"#
        renewal = V2Fixture.jws(renewal)
        let entry =
            #"{"originalTransactionId":"1000000001","status":1,"signedTransactionInfo":"\#(V2Fixture.jws(Self.transaction("21")))","signedRenewalInfo":"\#(renewal)"}"#
        let bad = #"{"originalTransactionId":"1000000002","status":2,"signedTransactionInfo":"signed_transaction_two"}"#
        let response =
            #"{\#(envelope)"environment":"Production","bundleId":"com.example.app","data":[{"subscriptionGroupIdentifier":"g1","lastTransactions":[\#(entry),\#(bad)]}]}"#
        let outcomes = try Self.read("statuses.json", response)
        #expect(outcomes.count == 2)
        guard case .api(.status(let status))? = outcomes.first else {
            Issue.record("expected a status, got \(outcomes)")
            return
        }
        #expect(status.fetchedAt == fetchedAt)
        #expect(status.status == 1)
        #expect(status.originalTransactionId == "1000000001")
        #expect(status.subscriptionGroupIdentifier == "g1")
        #expect(status.transaction?.transactionId == "21")
        #expect(status.renewal?.autoRenewStatus == 1)
        #expect(outcomes[1].error?.code == .malformedJWS)
        #expect(outcomes[1].error?.location?.index == 1)
    }

    @Test func loneTransactionsAsBareJWSDecodedObjectsAndJSONStringsPerLine() throws {
        let lines = [
            V2Fixture.jws(Self.transaction("31")), Self.transaction("32"),
            "\"" + V2Fixture.jws(Self.transaction("33")) + "\""
        ]
        let outcomes = try Self.read("transactions.jsonl", lines.joined(separator: "\n") + "\n")
        let transactions = outcomes.compactMap(Self.transaction(of:))
        #expect(transactions.map { $0.payload.transactionId ?? "" } == ["31", "32", "33"])
        #expect(transactions.allSatisfy { $0.origin == .single && $0.environment == "Production" })
    }

    @Test func transactionWithEmptyIdIsAReject() throws {
        let outcomes = try Self.read("t.json", #"{"transactionId":"","originalTransactionId":"1"}"#)
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.error?.code == .wrongFieldType)
    }

    @Test func csvTableOfTransactionsReadsThroughAColumnMap() throws {
        let map = try V2ColumnMap.parse(
            """
            format 1
            data.transactionInfo.transactionId         | transaction_id
            data.transactionInfo.originalTransactionId | original_transaction_id
            data.transactionInfo.productId             | product_id
            data.transactionInfo.purchaseDate          | purchase_date
            data.environment                           | environment
            """, path: "tx.map")
        let csv = """
            transaction_id,original_transaction_id,product_id,purchase_date,environment
            41,1000000001,pro.monthly,2023-11-03T08:26:40Z,Production
            ,1000000001,pro.monthly,2023-11-03T08:26:40Z,Production
            42,1000000001,pro.monthly,not a date,Sandbox
            43,1000000001,pro.monthly,1699000000000,Sandbox

            """
        let outcomes = try Self.read("transactions.csv", csv, columnMap: map)
        #expect(outcomes.count == 4, "one outcome per row")
        let transactions = outcomes.compactMap(Self.transaction(of:))
        #expect(transactions.map { $0.payload.transactionId ?? "" } == ["41", "43"])
        #expect(transactions.map(\.environment) == ["Production", "Sandbox"])
        #expect(transactions.first?.payload.purchaseDate == 1_699_000_000_000)
        #expect(outcomes[1].error?.location?.line == 3)
        #expect(outcomes[2].error?.location?.line == 4)
    }

    @Test func columnMapWithNeitherNotificationTypeNorTransactionIdIsRefused() throws {
        #expect(throws: ASNError.self) {
            try V2ColumnMap.parse("format 1\ndata.transactionInfo.productId | product_id\n", path: "bad.map")
        }
    }
}
