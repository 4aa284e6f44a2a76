import Foundation
import Testing

@testable import ASNMigrateKit

/// V2 records kept inside a team's envelope: webhook bodies and stored API responses with the time they arrived.
@Suite struct V2EnvelopeTests {
    /// One statuses response body (its renewal info signed at `signedDate` ms).
    static func statusesResponse(extra: String = "", signedDate: Int64 = 1_700_000_900_000) -> String {
        let renewal = V2Fixture.jws(
            #"{"originalTransactionId":"1000000001","autoRenewStatus":1,"autoRenewProductId":"pro.monthly","signedDate":\#(signedDate)}"#
        )
        let entry =
            #"{"originalTransactionId":"1000000001","status":1,"signedTransactionInfo":"\#(V2Fixture.jws(V2APIResponseDecoderTests.transaction("21")))","signedRenewalInfo":"\#(renewal)"}"#
        return
            #"{\#(extra)"environment":"Production","bundleId":"com.example.app","data":[{"subscriptionGroupIdentifier":"g1","lastTransactions":[\#(entry)]}]}"#
    }

    /// The fetch time of the one status `text` holds, or nil (and an issue recorded) when it holds no status.
    static func fetchedAt(_ text: String) throws -> Int64? {
        let outcomes = try V2APIResponseDecoderTests.read("statuses.json", text)
        guard outcomes.count == 1, case .api(.status(let status)) = outcomes[0] else {
            Issue.record("expected one status, got \(outcomes)")
            return nil
        }
        return status.fetchedAt
    }

    @Test(
        arguments: [
            // The envelope's time is the fetch time: epoch seconds, epoch ms, ISO 8601, under each documented key.
            (#"{"fetchedAt":1700500000,"response":\#(statusesResponse())}"#, Int64(1_700_500_000_000)),
            (#"{"fetched_at":"2023-11-20T17:06:40.000Z","response":\#(statusesResponse())}"#, Int64(1_700_500_000_000)),
            (#"{"receivedAt":1700500000000,"body":\#(statusesResponse())}"#, Int64(1_700_500_000_000)),
            (#"{"received_at":"2023-11-20T17:06:40Z","payload":\#(statusesResponse())}"#, Int64(1_700_500_000_000)),
            // Two envelopes deep, the outer one dated.
            (
                #"{"received_at":1700500000000,"data":{"meta":1,"response":\#(statusesResponse())}}"#,
                Int64(1_700_500_000_000)
            ),
            // The response's own time wins over its envelope's.
            (
                #"{"fetchedAt":1800000000000,"response":\#(statusesResponse(extra: #""fetchedAt":1700500000000,"#))}"#,
                Int64(1_700_500_000_000)
            ),
            // An undated envelope: the newest signedDate inside, as for a bare response.
            (#"{"source":"cron","response":\#(statusesResponse())}"#, Int64(1_700_000_900_000))
        ] as [(String, Int64)])
    func statusesResponseInAnEnvelopeIsDatedByIt(text: String, expected: Int64) throws {
        #expect(try Self.fetchedAt(text) == expected)
    }

    @Test func notificationsAndHistoryPagesInEnvelopesAreRead() throws {
        let signed = #"{"signedPayload":"\#(V2Fixture.jws(V2Fixture.decodedWithJWS))"}"#
        let escaped = signed.replacingOccurrences(of: "\"", with: "\\\"")
        let page =
            #"{"revision":"r1","hasMore":false,"environment":"Production","signedTransactions":["\#(V2Fixture.jws(V2APIResponseDecoderTests.transaction("31")))"]}"#
        let lines = [
            #"{"received_at":1700000000000,"body":\#(signed)}"#,
            #"{"received_at":1700000000000,"body":"\#(escaped)"}"#,
            #"{"received_at":1700000000000,"payload":"\#(V2Fixture.jws(V2Fixture.decodedWithJWS))"}"#,
            #"{"fetchedAt":1700000000000,"response":\#(page)}"#
        ]
        let outcomes = try V2APIResponseDecoderTests.read("archive.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(outcomes.count == 4)
        #expect(outcomes.prefix(3).allSatisfy { $0.record != nil }, "\(outcomes)")
        #expect(outcomes.prefix(3).map { $0.record?.location.line } == [1, 2, 3])
        #expect(V2APIResponseDecoderTests.transaction(of: outcomes[3])?.payload.transactionId == "31")
    }

    @Test func aBadBodyIsOneRejectAndAnObjectThatIsNoEnvelopeKeepsItsOwnMessage() throws {
        let lines = [
            #"{"received_at":1700000000000,"body":{"signedPayload":"signed_payload_value"}}"#,
            #"{"received_at":1700000000000,"body":{"color":"red"}}"#,
            #"{"a":{"b":{"c":1}},"data":{"data":{"data":{"data":\#(Self.statusesResponse())}}}}"#
        ]
        let outcomes = try V2APIResponseDecoderTests.read("archive.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(outcomes.count == 3)
        #expect(outcomes[0].error?.code == .malformedJWS)
        let notRecord = try #require(outcomes[1].error)
        #expect(notRecord.code == .missingNotificationType)
        #expect(notRecord.message.contains("received_at, body"), "names the outer object's keys: \(notRecord.message)")
        #expect(
            notRecord.message.contains("App Store Server API response"),
            "lists every accepted form: \(notRecord.message)")
        // Four envelopes deep is beyond V2Envelope.maximumDepth: one reject, not a record.
        #expect(outcomes[2].error?.code == .missingNotificationType)
        #expect(outcomes[2].error?.location?.line == 3)
    }
}
