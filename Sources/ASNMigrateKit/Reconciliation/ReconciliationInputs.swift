/// Everything fed to a `Reconciler`, kept compactly: the V1 and V2 records that take part in pairing, and the counts
/// of what did not (rejects, duplicates).
///
/// Collecting only: no record is judged here. Texts are interned in `pool`; a record's position in `v1Records` /
/// `v2Records` is its input order, which later breaks ties.
struct ReconciliationInputs: Sendable {
    /// Counts mapped V1 records per V1 type, expected V2 type, subtype and rule (`mapping-coverage.csv`).
    struct CoverageKey: Hashable, Sendable {
        /// V1 notification_type.
        var v1Type: StringPool.Token
        /// Expected V2 notificationType (0 when unmapped).
        var type: StringPool.Token
        /// Expected V2 subtype.
        var subtype: StringPool.Token
        /// Rule id (0 when unmapped).
        var rule: StringPool.Token
    }

    /// The interned texts of every record.
    var pool = StringPool()
    /// V1 records, first copy of each notificationUUID, in input order (chunked: a million records grow without copies).
    var v1Records = ChunkedArray<ReconRecord>()
    /// V2 records, first copy of each notificationUUID, in input order.
    var v2Records = ChunkedArray<ReconRecord>()
    /// Rejected records of both sides, in the order they were fed.
    var rejects: [ReconciliationResult.Reject] = []
    /// The rejects grouped by side and cause.
    var causes = RejectCauses()
    /// V1 records fed (rejects and duplicates included).
    var v1Read = 0
    /// V1 records rejected.
    var v1Rejected = 0
    /// V1 records dropped as repeats of a notificationUUID.
    var v1Duplicates = 0
    /// V2 records fed (rejects and duplicates included).
    var v2Read = 0
    /// V2 records rejected.
    var v2Rejected = 0
    /// V2 records dropped as repeats of a notificationUUID.
    var v2Duplicates = 0
    /// `conflicting_duplicate_v2` rows: V2 repeats of a notificationUUID with other content.
    var conflicts: [Discrepancy] = []
    /// Mapped and unmapped V1 records per coverage key.
    var coverage: [CoverageKey: Int] = [:]
    /// DID_CHANGE_RENEWAL_STATUS (token): the V1 type that may accompany another record as its companion.
    let companionStatusType: StringPool.Token
    /// INTERACTIVE_RENEWAL and CANCEL (tokens): the V1 types a companion accompanies.
    let companionPartners: Set<StringPool.Token>
    private var v1Seen: Set<PackedUUID> = []
    private var v2Seen: [PackedUUID: UInt64] = [:]

    /// Creates an empty collection.
    init() {
        companionStatusType = pool.token("DID_CHANGE_RENEWAL_STATUS")
        companionPartners = [pool.token("INTERACTIVE_RENEWAL"), pool.token("CANCEL")]
    }

    /// Takes one V1 outcome: a reject is counted, a repeated notificationUUID is a duplicate, anything else a record.
    mutating func addV1(_ outcome: V1RecordOutcome) {
        v1Read += 1
        switch outcome {
        case .rejected(let error):
            v1Rejected += 1
            rejects.append(.init(side: "v1", error: error))
            causes.add(side: "v1", error)
        case .migrated(let payload):
            let uuid = PackedUUID(payload.notificationUUID, pool: &pool)
            guard v1Seen.insert(uuid).inserted else {
                v1Duplicates += 1
                return
            }
            var record = makeRecord(payload)
            record.uuid = uuid
            if let migration = payload.migration {
                record.v1Type = pool.token(migration.v1NotificationType)
                record.rule = pool.token(migration.ruleId)
                record.inferred = migration.eventTimeInferred
                record.source = pool.token(migration.source)
                record.line = Int32(clamping: migration.line ?? -1)
                record.index = Int32(clamping: migration.index ?? -1)
            }
            coverage[CoverageKey(v1Type: record.v1Type, type: record.type, subtype: record.subtype, rule: record.rule), default: 0] += 1
            v1Records.append(record)
        case .unmapped(let unmapped):
            let uuid = PackedUUID(unmapped.notificationUUID, pool: &pool)
            guard v1Seen.insert(uuid).inserted else {
                v1Duplicates += 1
                return
            }
            var record = ReconRecord(fields: FieldValues(ResponseBodyV2DecodedPayload(notificationType: ""), pool: &pool))
            record.unmapped = true
            record.uuid = uuid
            record.environment = pool.token(unmapped.environment)
            record.key = pool.token(unmapped.originalTransactionId)
            record.fields.webOrderLineItemId = pool.token(unmapped.webOrderLineItemId)
            record.time = unmapped.eventTime ?? FieldValues.noDate
            record.v1Type = pool.token(unmapped.v1NotificationType)
            record.source = pool.token(unmapped.location.path)
            record.line = Int32(clamping: unmapped.location.line ?? -1)
            record.index = Int32(clamping: unmapped.location.index ?? -1)
            coverage[CoverageKey(v1Type: record.v1Type, type: 0, subtype: 0, rule: 0), default: 0] += 1
            v1Records.append(record)
        }
    }

    /// Takes one decoded V2 record; `digest` identifies its content (same UUID, other digest = conflicting duplicate).
    mutating func addV2(_ payload: ResponseBodyV2DecodedPayload, location: SourceLocation, digest: [UInt8]) {
        v2Read += 1
        let uuid = PackedUUID(payload.notificationUUID, pool: &pool)
        let fingerprint = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if uuid.isPresent {
            if let first = v2Seen[uuid] {
                v2Duplicates += 1
                if first != fingerprint {
                    conflicts.append(Reconciler.conflict(payload))
                }
                return
            }
            v2Seen[uuid] = fingerprint
        }
        var record = makeRecord(payload)
        record.uuid = uuid
        record.source = pool.token(location.path)
        record.line = Int32(clamping: location.line ?? -1)
        record.index = Int32(clamping: location.index ?? -1)
        v2Records.append(record)
    }

    /// Frees the tables that find repeated notificationUUIDs (about 60 bytes a record, more than 100 MB for a million
    /// records each side) once no record will be added: pairing does not need them.
    mutating func dropDuplicateIndex() {
        v1Seen = []
        v2Seen = [:]
    }

    /// Counts one V2 record that could not be read.
    mutating func addV2Reject(_ error: ASNError) {
        v2Read += 1
        v2Rejected += 1
        rejects.append(.init(side: "v2", error: error))
        causes.add(side: "v2", error)
    }

    /// The compact record of a V2 payload (a V1 record's mapped payload, or a V2 record as read).
    private mutating func makeRecord(_ payload: ResponseBodyV2DecodedPayload) -> ReconRecord {
        var record = ReconRecord(fields: FieldValues(payload, pool: &pool))
        record.environment = pool.token(Reconciler.environmentName(payload.data.environment))
        record.key = pool.token(payload.data.transactionInfo?.originalTransactionId ?? payload.data.renewalInfo?.originalTransactionId)
        record.type = pool.token(payload.notificationType)
        record.subtype = pool.token(payload.subtype)
        record.time = payload.signedDate ?? FieldValues.noDate
        record.familyShared = payload.data.transactionInfo?.inAppOwnershipType == "FAMILY_SHARED"
        record.hasAutoRenewStatus = payload.data.renewalInfo?.autoRenewStatus != nil
        return record
    }
}
