/// The first and last event time of each side over every record read, whether or not a shard keeps it: a shard's
/// period and pending edges are the whole run's (`ReconciliationPeriod`), so its judgements are the unsharded run's.
struct ShardSpans: Sendable, Equatable {
    /// V1's span (inferred event times left out), nil while no V1 record had a time.
    private(set) var v1: ClosedRange<Int64>?
    /// V2's span of `signedDate`s, nil while no V2 record had one.
    private(set) var v2: ClosedRange<Int64>?

    /// No span yet.
    init() {}

    /// The spans `v1` and `v2` (read back from a partition's manifests).
    init(v1: ClosedRange<Int64>?, v2: ClosedRange<Int64>?) {
        self.v1 = v1
        self.v2 = v2
    }

    /// Both sides' spans widened by `other`'s (the slices of a partitioned input).
    mutating func formUnion(_ other: ShardSpans) {
        for time in [other.v1?.lowerBound, other.v1?.upperBound] { Self.extend(&v1, time) }
        for time in [other.v2?.lowerBound, other.v2?.upperBound] { Self.extend(&v2, time) }
    }

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

    /// Counts a V1 record's facts: its event time unless only inferred (`addV1(_:)` of its outcome).
    mutating func addV1(_ facts: PackedFacts) {
        guard !facts.eventTimeInferred else { return }
        Self.extend(&v1, facts.time)
    }

    /// Counts a V2 record's facts: its `signedDate`.
    mutating func addV2(_ facts: PackedFacts) {
        Self.extend(&v2, facts.time)
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
