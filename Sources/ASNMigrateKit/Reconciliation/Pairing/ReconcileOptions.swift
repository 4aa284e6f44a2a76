/// The settings of one `reconcile` run.
package struct ReconcileOptions: Sendable, Equatable {
    /// How far apart (ms) a V1 event time and a V2 signedDate may be to pair (default 48h).
    package var window: Int64 = 48 * 3_600_000
    /// The judged period's first instant (epoch ms, inclusive); nil = derived from the data.
    package var from: Int64?
    /// The judged period's last instant (epoch ms, inclusive); nil = derived from the data.
    package var to: Int64?
    /// V1's first and last (not inferred) event time over all the data, when the records fed are only part of it
    /// (`nightly` re-pairs some subscriptions of its state); nil = the span of the records fed. The period and the
    /// pending rule use it.
    package var v1Span: ClosedRange<Int64>?
    /// V2's first and last signedDate over all the data (see `v1Span`); nil = the span of the records fed.
    package var v2Span: ClosedRange<Int64>?
    /// The fields compared between paired records.
    package var fields: [ComparedField] = ComparedField.defaultFields
    /// Two times that differ by less than this (ms) compare equal (`--time-tolerance`; 0: exactly).
    package var timeTolerance: Int64 = 0
    /// `--switch`: each environment's switch from V1 to V2 notifications (empty: none).
    package var switchDates = SwitchDates()
    /// With `--switch`: each switched environment's V2 reach (its newest V2 notification's `signedDate` from the
    /// switch on) over all the data, when the records fed are only part of it (`nightly`); nil = over the records fed.
    package var switchReach: [String: Int64]?
    /// With `--switch`: keep the seam's counts subscription by subscription (`nightly` stores them and sums them).
    package var keepsSwitchShares = false
    /// The run date, tool version and input roots, reported after the counts in `summary.csv`.
    package var run = RunInfo()

    /// Creates default options.
    package init() {}
}
