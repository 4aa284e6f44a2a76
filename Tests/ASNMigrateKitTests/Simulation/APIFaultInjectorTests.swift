import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// The simulator's faults on Apple's API view and what a lost V1 notification does to the transaction comparison,
/// on a hand-made subscriber: three monthly purchases 101, 102, 103 and Apple's history of them.
@Suite struct APIFaultInjectorTests {
    typealias S = TransactionScenario
    static let key = ["Production", "1000000001"]

    /// A record whose V1 line is `type` showing `transactions`, received at `at`.
    static func record(_ type: String, _ transactions: [String], at: String) -> SimulatedRecord {
        var record = SimulatedRecord(
            label: "renewal", role: .twin, environment: .production, originalTransactionId: "1000000001",
            time: V1Fixture.ms(at))
        record.v1Line = Array(
            #"{"received_at":\#(V1Fixture.ms(at)),"body":\#(V1Fixture.body(type: type, transactions: transactions))}"#
                .utf8)
        record.v1DeliveryTime = V1Fixture.ms(at)
        return record
    }

    static let a = S.tx("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
    static let b = S.tx("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z")
    static let c = S.tx("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")

    /// Apple's view of the three purchases; `ownershipOf102` changes 102's ownership.
    static func view(ownershipOf102: String = "PURCHASED") -> SimulatedAPIView.Derived {
        var view = SimulatedAPIView.Derived()
        view.history[key] = [
            S.apple("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z"),
            S.apple(
                "102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z", ownership: ownershipOf102),
            S.apple("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        ]
        return view
    }

    static let end = V1Fixture.ms("2023-06-01T00:00:00Z")

    @Test func aLostNotificationSeenInALaterReceiptIsUnannouncedWithThatRecordAsSource() throws {
        let archive = SimulatedV1Archive(records: [
            Self.record("INITIAL_BUY", [Self.a], at: "2023-01-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, Self.b], at: "2023-02-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, Self.b, Self.c], at: "2023-03-01T00:01:00Z")
        ])
        #expect(APIFaultInjector.dropIsClean(archive, dropped: [1], view: Self.view(), instant: Self.end))
        let truths = APIFaultInjector.lostNotificationRows(archive, dropped: [1], view: Self.view())
        #expect(truths.count == 1)
        let truth = try #require(truths.first)
        #expect(truth.sourceRecord == 2)
        #expect(truth.row.kind == "unannounced_in_v1")
        #expect(truth.row.cells[1...4] == ["Production", "1000000001", "5102", "2023-02-01T00:00:00.000Z"])
        #expect(
            truth.row.v1NotificationType == "DID_RENEW" && truth.row.field == "transactionId"
                && truth.row.v1Value == "102")
        #expect(APIFaultInjector.lostNotificationRows(archive, dropped: [], view: Self.view()).isEmpty)
    }

    @Test func aLostNotificationNeverSeenAgainIsMissingInV1WithApplesIdentity() throws {
        let archive = SimulatedV1Archive(records: [
            Self.record("INITIAL_BUY", [Self.a], at: "2023-01-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.b], at: "2023-02-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.c], at: "2023-03-01T00:01:00Z")
        ])
        #expect(APIFaultInjector.dropIsClean(archive, dropped: [1], view: Self.view(), instant: Self.end))
        let truths = APIFaultInjector.lostNotificationRows(archive, dropped: [1], view: Self.view())
        #expect(truths.map(\.row.kind) == ["transaction_missing_in_v1"])
        #expect(truths.first?.sourceRecord == nil)
        #expect(truths.first?.row.v2Value == "102" && truths.first?.row.v1Value == "")
        #expect(truths.first?.row.cells[1...4] == ["Production", "1000000001", "5102", "2023-02-01T00:00:00.000Z"])
    }

    @Test func dropsWithMoreThanThatEffectAreNotAdmitted() throws {
        // The lost record alone shows 102's later expiry: V1's merged facts of 102 would change too.
        let extended = S.tx("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-05T00:00:00Z")
        let facts = SimulatedV1Archive(records: [
            Self.record("INITIAL_BUY", [Self.a], at: "2023-01-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, extended], at: "2023-02-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, Self.b, Self.c], at: "2023-03-01T00:01:00Z")
        ])
        #expect(!APIFaultInjector.dropIsClean(facts, dropped: [1], view: Self.view(), instant: Self.end))
        // A family member's renewal: Apple's table sends DID_RENEW to family members, so its loss is as real as a
        // purchaser's (before format 2 of v2-only-transactions.rules every family transaction was v2_only_expected).
        let hidden = SimulatedV1Archive(records: [
            Self.record("INITIAL_BUY", [Self.a], at: "2023-01-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.b], at: "2023-02-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.c], at: "2023-03-01T00:01:00Z")
        ])
        #expect(APIFaultInjector.dropIsClean(hidden, dropped: [1], view: Self.view(), instant: Self.end))
        #expect(
            APIFaultInjector.dropIsClean(
                hidden, dropped: [1], view: Self.view(ownershipOf102: "FAMILY_SHARED"), instant: Self.end))
    }

    @Test func aFaultOnTheHistoryIsExactlyWhatItsRowSays() throws {
        let archive = SimulatedV1Archive(records: [
            Self.record("INITIAL_BUY", [Self.a], at: "2023-01-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, Self.b], at: "2023-02-01T00:01:00Z"),
            Self.record("DID_RENEW", [Self.a, Self.b, Self.c], at: "2023-03-01T00:01:00Z")
        ])
        let span = V1Fixture.ms("2022-12-01T00:00:00Z")...Self.end
        var kinds: Set<String> = []
        for seed in 0..<24 {
            var view = Self.view()
            let original = try #require(view.history[Self.key])
            var random = SimulationRandom(seed: UInt64(seed), stream: 1, substream: 4)
            let truths = APIFaultInjector.inject(&view, archive: archive, rate: 1, span: span, random: &random)
            #expect(truths.count == 1, "rate 1: the first candidate (101) is perturbed, once")
            let truth = try #require(truths.first)
            kinds.insert(truth.row.kind)
            let now = try #require(view.history[Self.key])
            #expect(truth.sourceRecord == 0 && truth.row.v1NotificationType == "INITIAL_BUY")
            #expect(Array(now.dropFirst(now.count - 2)) == Array(original.dropFirst()), "only 101 is touched")
            switch truth.row.kind {
            case "transaction_missing_in_v2":
                #expect(now.count == 2 && truth.row.v1Value == "101")
            case "transaction_field_mismatch":
                let field = truth.row.field
                #expect(APIFaultInjector.changeableFields.contains(field))
                #expect(truth.row.v1Value == APIFaultInjector.value(of: field, in: original[0]))
                #expect(
                    truth.row.v2Value == APIFaultInjector.value(of: field, in: now[0])
                        && truth.row.v2Value != truth.row.v1Value)
                for other in APIFaultInjector.changeableFields where other != field {
                    #expect(
                        APIFaultInjector.value(of: other, in: now[0])
                            == APIFaultInjector.value(of: other, in: original[0]), "\(other)")
                }
            default:
                Issue.record("unexpected kind \(truth.row.kind)")
            }
        }
        #expect(kinds == ["transaction_missing_in_v2", "transaction_field_mismatch"])
        // Rate 0 touches nothing.
        var view = Self.view()
        var random = SimulationRandom(seed: 1, stream: 1, substream: 4)
        #expect(APIFaultInjector.inject(&view, archive: archive, rate: 0, span: span, random: &random).isEmpty)
        #expect(view.history == Self.view().history)
    }
}
