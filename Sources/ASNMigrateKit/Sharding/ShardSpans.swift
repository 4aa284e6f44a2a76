/// The first and last event time of each side over every record read, whether or not a shard keeps it: a shard's
/// period and pending edges are the whole run's (`ReconciliationPeriod`), so its judgements are the unsharded run's.
struct ShardSpans: Sendable {
    /// V1's span (inferred event times left out), nil while no V1 record had a time.
    private(set) var v1: ClosedRange<Int64>?
    /// V2's span of `signedDate`s, nil while no V2 record had one.
    private(set) var v2: ClosedRange<Int64>?

    /// Counts a V1 outcome's event time, as `Reconciler` counts the records it keeps.
    mutating func addV1(_ outcome: V1RecordOutcome) {
        switch outcome {
        case .migrated(let payload):
            guard !(payload.migration?.eventTimeInferred ?? false) else { return }
            Self.extend(&v1, payload.signedDate)
        case .unmapped(let unmapped): Self.extend(&v1, unmapped.eventTime)
        case .rejected: break
        }
    }

    /// Counts a V2 record's `signedDate`.
    mutating func addV2(_ payload: ResponseBodyV2DecodedPayload) {
        Self.extend(&v2, payload.signedDate)
    }

    private static func extend(_ span: inout ClosedRange<Int64>?, _ time: Int64?) {
        guard let time, time != FieldValues.noDate else { return }
        span = span.map { Swift.min($0.lowerBound, time)...Swift.max($0.upperBound, time) } ?? time...time
    }
}
