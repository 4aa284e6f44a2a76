/// What became of one V1 record (`V1RecordMapper`, `FastRecordMapper`): migrated, unmapped or rejected.
package enum V1RecordOutcome: Sendable, Equatable {
    /// Mapped onto V2.
    case migrated(ResponseBodyV2DecodedPayload)
    /// Read, but no rule maps it.
    case unmapped(UnmappedNotification)
    /// Could not be read; the error says why and where.
    case rejected(ASNError)
}
