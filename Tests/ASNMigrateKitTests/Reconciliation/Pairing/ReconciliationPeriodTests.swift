import Testing

@testable import ASNMigrateKit

/// The period rule on its own: derivation, membership, which pairs are judged, and which unpaired records are pending.
@Suite struct ReconciliationPeriodTests {
    private let hour: Int64 = 3_600_000
    private let window: Int64 = 48 * 3_600_000

    @Test func derivedPeriodIsTheOverlapAndFromToOverrideEachEnd() {
        let p = ReconciliationPeriod(
            v1Span: 0...(100 * hour), v2Span: (3 * hour)...(103 * hour), from: nil, to: nil, window: window)
        #expect(p.start == 3 * hour)
        #expect(p.end == 100 * hour)
        let q = ReconciliationPeriod(
            v1Span: 0...(100 * hour), v2Span: (3 * hour)...(103 * hour), from: 50 * hour, to: nil, window: window)
        #expect(q.start == 50 * hour)
        #expect(q.end == 100 * hour)
        let one = ReconciliationPeriod(v1Span: 5...9, v2Span: nil, from: nil, to: nil, window: window)
        #expect(one.start == 5 && one.end == 9)
        let none = ReconciliationPeriod(v1Span: nil, v2Span: nil, from: nil, to: nil, window: window)
        #expect(!none.isSet)
        #expect(none.contains(12_345))
    }

    @Test func spanLeavesOutRecordsWithoutATime() {
        #expect(ReconciliationPeriod.span(of: [FieldValues.noDate, 7, 3, FieldValues.noDate]) == 3...7)
        #expect(ReconciliationPeriod.span(of: [FieldValues.noDate]) == nil)
    }

    @Test func containsIsInclusiveAndTimeLessRecordsAreAlwaysIn() {
        let p = ReconciliationPeriod(v1Span: 10...20, v2Span: 10...20, from: nil, to: nil, window: window)
        #expect(p.contains(10) && p.contains(20))
        #expect(!p.contains(9) && !p.contains(21))
        #expect(p.contains(FieldValues.noDate))
    }

    @Test func aPairIsJudgedWhenEitherMemberIsInThePeriod() {
        let p = ReconciliationPeriod(v1Span: 10...20, v2Span: 10...20, from: nil, to: nil, window: window)
        #expect(p.judgesPair(v1Time: 9, v2Time: 12))
        #expect(p.judgesPair(v1Time: 19, v2Time: 25))
        #expect(!p.judgesPair(v1Time: 5, v2Time: 9))
        #expect(!p.judgesPair(v1Time: nil, v2Time: 25), "an inferred V1 time does not count: the V2 member decides")
        #expect(p.judgesPair(v1Time: nil, v2Time: 15))
    }

    @Test func anUnpairedRecordIsPendingWhenItsWindowReachesBeyondTheOtherSidesData() {
        let v2First = 1_000 * hour
        let v2Last = 2_000 * hour
        let p = ReconciliationPeriod(
            v1Span: (1_000 * hour)...(2_000 * hour), v2Span: v2First...v2Last, from: nil, to: nil, window: window)
        // Exactly a window inside the other side's data: a partner there would have been read.
        #expect(!p.isPending(v2First + window, side: .v1))
        #expect(p.isPending(v2First + window - 1, side: .v1))
        #expect(!p.isPending(v2Last - window, side: .v1))
        #expect(p.isPending(v2Last - window + 1, side: .v1))
        #expect(!p.isPending(1_500 * hour, side: .v1))
        #expect(!p.isPending(1_500 * hour, side: .v2))
        #expect(!p.isPending(FieldValues.noDate, side: .v1), "a time-less record pairs only with time-less ones")
        let lonely = ReconciliationPeriod(v1Span: 0...(100 * hour), v2Span: nil, from: nil, to: nil, window: window)
        #expect(
            !lonely.isPending(50 * hour, side: .v1), "with no V2 data at all, every V1 record is missing, not pending")
    }

    @Test func theOtherSidesSpanDecides() {
        // V1 reaches far earlier than V2: a V1 record near V2's first event is pending, a V2 record there is not.
        let p = ReconciliationPeriod(
            v1Span: 0...(1_000 * hour), v2Span: (500 * hour)...(1_000 * hour), from: 0, to: nil, window: window)
        #expect(p.isPending(510 * hour, side: .v1))
        #expect(!p.isPending(510 * hour, side: .v2))
        #expect(p.isPending(100 * hour, side: .v1), "before the V2 data begins, a partner cannot have been read")
    }
}
