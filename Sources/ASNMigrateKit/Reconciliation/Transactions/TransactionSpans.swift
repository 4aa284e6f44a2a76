/// The whole run's extents that the comparison with Apple's API view judges every subscription by: the period, the
/// pending edges, facts learnt after a side's data ends and statuses fetched after the archive ends all follow from
/// them, so a subscription compared alone against these spans gets the rows it gets among every other.
package struct TransactionSpans: Sendable, Equatable {
    /// The V1 archive's first and last event time (inferred times left out); nil when it has none.
    package var v1: ClosedRange<Int64>?
    /// The first and last purchase date of Apple's transactions; nil when none has one.
    package var v2: ClosedRange<Int64>?

    /// Creates the spans.
    package init(v1: ClosedRange<Int64>?, v2: ClosedRange<Int64>?) {
        self.v1 = v1
        self.v2 = v2
    }
}
