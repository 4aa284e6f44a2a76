import Testing

@testable import ASNMigrateKit

/// The settle rule: young unpaired records are pending (state mismatches of their subscription wait too); the engine's edge items pass through as pending.
@Suite struct NightlySettleTests {
    private let day: Int64 = 86_400_000
    private func missing(_ kind: Discrepancy.Kind, at time: Int64, id: String = "1") -> Discrepancy {
        var d = Discrepancy(kind: kind)
        d.environment = "Production"
        d.originalTransactionId = id
        d.eventDate = time
        return d
    }

    @Test func youngRecordsArePendingOthersConfirmed() {
        let now = 100 * day
        let rule = NightlySettle(settle: 3 * day, now: now)
        #expect(rule.pendingReason(missing(.missingInV2, at: now - day)) == "settle")
        #expect(
            rule.pendingReason(missing(.missingInV2, at: now - 3 * day)) == nil, "exactly the settle time old: settled")
        #expect(rule.pendingReason(missing(.missingInV2, at: 50 * day)) == nil)
        #expect(
            rule.pendingReason(missing(.typeMismatch, at: now - day)) == "settle",
            "a young type mismatch may be a partner still on its way")
        #expect(
            rule.pendingReason(missing(.fieldMismatch, at: now - day)) == nil,
            "paired records' fields are judged at once")
        let split = rule.split([missing(.missingInV2, at: now - day), missing(.missingInV1, at: 50 * day, id: "2")])
        #expect(
            split.pending.map(\.difference.kind) == [.pendingInV2],
            "a young unpaired record is reported as reconcile names pending records")
        #expect(split.pending.map(\.pendingReason) == ["settle"])
        #expect(split.confirmed.map(\.kind) == [.missingInV1])
    }

    @Test func theEnginesEdgeItemsArePendingAndHoldNoStateMismatch() {
        let now = 100 * day
        let rule = NightlySettle(settle: 3 * day, now: now)
        var state = Discrepancy(kind: .stateMismatch)
        state.environment = "Production"
        state.originalTransactionId = "1"
        let split = rule.split([state], edge: [missing(.pendingInV1, at: day)])
        #expect(split.pending.map(\.difference.kind) == [.pendingInV1])
        #expect(split.pending.map(\.pendingReason) == ["edge"])
        #expect(split.pending.map(\.settlesAt) == [Timestamp.iso8601(ms: 4 * day)])
        #expect(
            split.confirmed.map(\.kind) == [.stateMismatch],
            "reconcile reports this state mismatch too: an edge item holds nothing")
        let young = rule.split([state], edge: [missing(.pendingInV1, at: now - day)])
        #expect(
            young.pending.map(\.pendingReason) == ["settle", "settle"],
            "a young edge item is settling, and holds its subscription's state mismatch")
    }

    @Test func stateMismatchOfAPendingSubscriptionWaits() {
        let now = 100 * day
        let rule = NightlySettle(settle: 3 * day, now: now)
        var state = Discrepancy(kind: .stateMismatch)
        state.environment = "Production"
        state.originalTransactionId = "1"
        var other = state
        other.originalTransactionId = "2"
        let split = rule.split([
            missing(.missingInV2, at: now - day), state, other, missing(.missingInV2, at: 50 * day, id: "3")
        ])
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
