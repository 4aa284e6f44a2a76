import Testing
@testable import ASNMigrateKit

/// The settle rule: young unpaired records and records at the data's edge are pending; state mismatches of their subscription wait too.
@Suite struct NightlySettleTests {
    private let day: Int64 = 86_400_000
    private func missing(_ kind: Discrepancy.Kind, at time: Int64, id: String = "1") -> Discrepancy {
        var d = Discrepancy(kind: kind)
        d.environment = "Production"
        d.originalTransactionId = id
        d.eventDate = time
        return d
    }

    @Test func youngRecordsAndEdgesArePendingOthersConfirmed() {
        let now = 100 * day
        let rule = NightlySettle(settle: 3 * day, window: 2 * day, now: now, v1Bounds: (0, now), v2Bounds: (0, now))
        #expect(rule.pendingReason(missing(.missingInV2, at: now - day)) == "settle")
        #expect(rule.pendingReason(missing(.missingInV2, at: 50 * day)) == nil)
        #expect(rule.pendingReason(missing(.missingInV1, at: day)) == "edge", "its V1 partner could lie before V1's first event")
        #expect(rule.pendingReason(missing(.typeMismatch, at: now - day)) == "settle", "a young type mismatch may be a partner still on its way")
        #expect(rule.pendingReason(missing(.typeMismatch, at: day)) == nil, "the edge rule is for unpaired records only")
        #expect(rule.pendingReason(missing(.fieldMismatch, at: now - day)) == nil, "paired records' fields are judged at once")
        let old = NightlySettle(settle: 3 * day, window: 2 * day, now: now, v1Bounds: (0, 90 * day), v2Bounds: (0, 90 * day))
        #expect(old.pendingReason(missing(.missingInV2, at: 89 * day)) == "edge")
    }

    @Test func stateMismatchOfAPendingSubscriptionWaits() {
        let now = 100 * day
        let rule = NightlySettle(settle: 3 * day, window: 2 * day, now: now, v1Bounds: (0, now), v2Bounds: (0, now))
        var state = Discrepancy(kind: .stateMismatch)
        state.environment = "Production"
        state.originalTransactionId = "1"
        var other = state
        other.originalTransactionId = "2"
        let split = rule.split([missing(.missingInV2, at: now - day), state, other, missing(.missingInV2, at: 50 * day, id: "3")])
        #expect(split.pending.count == 2)
        #expect(split.pending.allSatisfy { $0.settlesAt == Timestamp.iso8601(ms: now + 2 * day) })
        #expect(split.confirmed.map(\.originalTransactionId).sorted() == ["2", "3"])
    }

    @Test func identityIgnoresValuesAndTheMovingStateDate() {
        var a = Discrepancy(kind: .stateMismatch)
        a.originalTransactionId = "1"
        a.field = "active"
        a.eventDate = 1
        a.v1Value = "true"
        var b = a
        b.eventDate = 2
        b.v1Value = "false"
        #expect(DifferenceRow.identity(a) == DifferenceRow.identity(b))
        var c = missing(.missingInV2, at: 5)
        let first = DifferenceRow.identity(c)
        c.v1Source = "other.jsonl:3"
        #expect(DifferenceRow.identity(c) != first)
        #expect(Discrepancy(cells: c.cells) == c, "a stored row reads back as the same difference")
    }
}
