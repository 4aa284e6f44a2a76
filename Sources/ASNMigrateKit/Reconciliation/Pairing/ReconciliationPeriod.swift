/// The judged period and the extent of each side's data: which pairs and records `reconcile` judges, and which
/// unpaired records are pending because their partner could lie outside the data read.
///
/// Pure and independent of the engine's storage, so a nightly run can apply the same rule to its own period:
/// - pairing runs over every record read, whatever the period;
/// - a pair is judged when either member lies in the period (a time-less member counts as in it);
/// - an unpaired in-period record is `pending`, not missing, when its pairing window reaches beyond the other side's
///   data (before that side's first event time or after its last), so its partner could simply not be in the data yet.
package struct ReconciliationPeriod: Sendable, Equatable {
    /// The two sides.
    package enum Side: Sendable, Equatable {
        /// The V1 archive.
        case v1
        /// The V2 records.
        case v2
    }

    /// The first judged instant (epoch ms, inclusive); `Int64.min` when neither the data nor `--from` gives one.
    package var start: Int64
    /// The last judged instant (epoch ms, inclusive); `Int64.max` when neither the data nor `--to` gives one.
    package var end: Int64
    /// V1's first and last event time among the records read (inferred times left out); nil when it has none.
    package var v1Span: ClosedRange<Int64>?
    /// V2's first and last `signedDate` among the records read; nil when it has none.
    package var v2Span: ClosedRange<Int64>?
    /// The pairing window (ms): how far a partner may lie from a record.
    package var window: Int64

    /// Derives the period: `from`/`to` where given, else the overlap of both spans (one span alone when the other
    /// side has no timed record). Only records that were read give spans; rejected input never moves the period.
    package init(v1Span: ClosedRange<Int64>?, v2Span: ClosedRange<Int64>?, from: Int64?, to: Int64?, window: Int64) {
        self.v1Span = v1Span
        self.v2Span = v2Span
        self.window = window
        switch (v1Span, v2Span) {
        case (let a?, let b?):
            start = Swift.max(a.lowerBound, b.lowerBound)
            end = Swift.min(a.upperBound, b.upperBound)
        case (let a?, nil):
            start = a.lowerBound
            end = a.upperBound
        case (nil, let b?):
            start = b.lowerBound
            end = b.upperBound
        case (nil, nil):
            start = Int64.min
            end = Int64.max
        }
        if let from { start = from }
        if let to { end = to }
    }

    /// The span of a list of event times (`FieldValues.noDate` left out); nil when none has a time.
    package static func span(of times: some Sequence<Int64>) -> ClosedRange<Int64>? {
        var low = Int64.max
        var high = Int64.min
        for t in times where t != FieldValues.noDate {
            low = Swift.min(low, t)
            high = Swift.max(high, t)
        }
        return low <= high ? low...high : nil
    }

    /// Whether the period has a start or an end at all (some data or `--from`/`--to`).
    package var isSet: Bool { start != Int64.min || end != Int64.max }

    /// Whether the period has no instant in it (the sides' data do not overlap).
    package var isEmpty: Bool { start > end }

    /// Whether an instant lies in the period; a record without a time (`FieldValues.noDate`) always does.
    package func contains(_ time: Int64) -> Bool {
        time == FieldValues.noDate || (time >= start && time <= end)
    }

    /// Whether a pair is judged: either member lies in the period. Pass nil for a member whose time does not count
    /// (a V1 time that is only inferred): the other member then decides alone.
    package func judgesPair(v1Time: Int64?, v2Time: Int64?) -> Bool {
        (v1Time.map(contains) ?? false) || (v2Time.map(contains) ?? false)
    }

    /// Whether an unpaired in-period record of `side` at `time` is pending: its window `[time - window, time + window]`
    /// reaches before the other side's first or after its last event time, so its partner could lie outside the data.
    /// Never for a time-less record, nor when the other side has no timed record (everything there is missing).
    package func isPending(_ time: Int64, side: Side) -> Bool {
        guard time != FieldValues.noDate, let other = side == .v1 ? v2Span : v1Span else { return false }
        return time &- window < other.lowerBound || time &+ window > other.upperBound
    }
}
