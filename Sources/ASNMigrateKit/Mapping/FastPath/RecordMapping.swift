/// The per-record stage of `migrate` behind one small interface, so the fast path and the reference path are interchangeable.
package protocol RecordMapping: Sendable {
    /// Maps one record.
    func map(_ record: RawRecord) -> V1RecordOutcome
}

extension V1RecordMapper: RecordMapping {}
