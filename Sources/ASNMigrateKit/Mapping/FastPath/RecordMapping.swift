/// The per-record stage of `migrate` behind one small interface, so the fast path and the reference path are interchangeable.
package protocol RecordMapping: Sendable {
    /// Maps one record.
    func map(_ record: RawRecord) -> V1RecordOutcome

    /// Maps one record and keeps the body it was decoded into (nil for a reject), so a caller can read more from the
    /// same decoding instead of parsing the record again (`reconcile` against Apple's API view).
    func mapKeepingBody(_ record: RawRecord) -> MappedRecord
}

/// A record's mapping outcome with the V1 body it was mapped from.
package struct MappedRecord: Sendable {
    /// The outcome.
    package var outcome: V1RecordOutcome
    /// The decoded body; nil when the record is a reject.
    package var body: ResponseBodyV1?
    /// The envelope's receive time, if any.
    package var receivedAt: Int64?
}

extension V1RecordMapper: RecordMapping {}
