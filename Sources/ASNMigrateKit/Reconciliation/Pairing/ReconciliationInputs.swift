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

    /// A subscription's product, as tokens (the key of `prices`).
    struct PriceKey: Hashable, Sendable {
        /// Environment.
        var environment: StringPool.Token
        /// originalTransactionId.
        var subscription: StringPool.Token
        /// productId.
        var product: StringPool.Token
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
    /// The first V2 `price` (milliunits) and `currency` (token) per environment, subscription and product (tokens):
    /// one entry per subscription's product, not per record.
    var prices: [PriceKey: (milliunits: Int64, currency: StringPool.Token)] = [:]
    /// Whether `addV2` fills `prices`.
    var collectsPrices = false
    /// DID_CHANGE_RENEWAL_STATUS (token): the V1 type that may accompany another record as its companion.
    let companionStatusType: StringPool.Token
    /// INTERACTIVE_RENEWAL and CANCEL (tokens): the V1 types a companion accompanies.
    let companionPartners: Set<StringPool.Token>
    /// The texts of the record `add(_:fingerprint:)` packs, reused from record to record.
    private var scratchTexts = FactTexts()
    private var v1Seen = SeenUUIDs<Bool>()
    private var v2Seen = SeenUUIDs<UInt64>()

    /// Creates an empty collection.
    init() {
        companionStatusType = pool.token("DID_CHANGE_RENEWAL_STATUS")
        companionPartners = [pool.token("INTERACTIVE_RENEWAL"), pool.token("CANCEL")]
    }

    /// Takes one V1 outcome: a reject is counted, a repeated notificationUUID is a duplicate, anything else a record.
    mutating func addV1(_ outcome: V1RecordOutcome) {
        switch outcome {
        case .rejected(let error): addV1Reject(error)
        case .migrated(let payload):
            add(RecordFacts(payload, kind: .migrated, location: SourceLocation(path: "")), fingerprint: 0)
        case .unmapped(let unmapped):
            add(RecordFacts(unmapped: unmapped), fingerprint: 0)
        }
    }

    /// Counts one V1 record that was rejected.
    mutating func addV1Reject(_ error: ASNError) {
        v1Read += 1
        v1Rejected += 1
        rejects.append(.init(side: "v1", error: error))
        causes.add(side: "v1", error)
    }

    /// Takes one decoded V2 record; `digest` identifies its content (same UUID, other digest = conflicting duplicate).
    mutating func addV2(_ payload: ResponseBodyV2DecodedPayload, location: SourceLocation, digest: [UInt8]) {
        var texts = FactTexts()
        let packed = PackedFacts(V2Record(payload: payload, location: location, contentDigest: digest), texts: &texts)
        add(packed, texts: texts)
    }

    /// Everything `addV2` reads of a V2 payload: its facts, its price and currency (the members at `v2Paths`).
    struct V2Readings: Equatable {
        /// The record's facts.
        var facts: RecordFacts
        /// The transaction's `price`.
        var price: Int64?
        /// The transaction's `currency`.
        var currency: String?
    }

    /// The `V2FieldTable` paths of the members `addV2` reads (`V2Readings`).
    static let v2Paths = RecordFacts.v2Paths + ["data.transactionInfo.price", "data.transactionInfo.currency"]

    /// What `addV2` reads of `payload`.
    static func readings(of payload: ResponseBodyV2DecodedPayload) -> V2Readings {
        V2Readings(
            facts: RecordFacts(payload, kind: .v2, location: SourceLocation(path: "")),
            price: payload.data.transactionInfo?.price, currency: payload.data.transactionInfo?.currency)
    }

    /// Takes one record's facts (V1 or V2, by `facts.kind`), as `add(_:texts:)` does; `fingerprint` is a V2 record's.
    mutating func add(_ facts: RecordFacts, fingerprint: UInt64) {
        var texts = FactTexts()
        swap(&texts, &scratchTexts)
        defer { swap(&texts, &scratchTexts) }
        texts.removeAll()
        var packed = PackedFacts(facts, texts: &texts)
        packed.fingerprint = fingerprint
        add(packed, texts: texts)
    }

    /// Takes one record's facts, their texts in `texts`: the one place a record enters the engine. A repeated
    /// notificationUUID is a duplicate; on V2, one whose content fingerprint differs from the first copy's is also a
    /// conflict (`conflicting_duplicate_v2`).
    mutating func add(_ facts: PackedFacts, texts: FactTexts) {
        if facts.kind == .v2, collectsPrices { notePrice(facts, texts: texts) }
        let uuid = PackedUUID(facts.notificationUUID, in: texts, pool: &pool)
        if facts.kind == .v2 {
            v2Read += 1
            if uuid.isPresent {
                if let first = v2Seen.insert(uuid, facts.fingerprint) {
                    v2Duplicates += 1
                    if first != facts.fingerprint { conflicts.append(Reconciler.conflict(facts.facts(in: texts))) }
                    return
                }
            }
        } else {
            v1Read += 1
            guard v1Seen.insert(uuid, true) == nil else {
                v1Duplicates += 1
                return
            }
        }
        var record = ReconRecord(fields: FieldValues(facts, texts: texts, pool: &pool))
        record.uuid = uuid
        record.environment = pool.token(facts.environment, in: texts)
        record.key = pool.token(facts.originalTransactionId, in: texts)
        record.type = pool.token(facts.notificationType, in: texts)
        record.subtype = pool.token(facts.subtype, in: texts)
        record.time = facts.time ?? FieldValues.noDate
        record.familyShared = texts.equals(facts[text: .inAppOwnershipType], "FAMILY_SHARED")
        record.source = pool.token(facts.source, in: texts)
        record.line = Int32(clamping: facts.line ?? -1)
        record.index = Int32(clamping: facts.index ?? -1)
        switch facts.kind {
        case .v2:
            v2Records.append(record)
        case .migrated, .unmapped:
            record.unmapped = facts.kind == .unmapped
            record.v1Type = pool.token(facts.v1NotificationType, in: texts)
            record.rule = pool.token(facts.ruleId, in: texts)
            record.inferred = facts.eventTimeInferred
            coverage[
                CoverageKey(v1Type: record.v1Type, type: record.type, subtype: record.subtype, rule: record.rule),
                default: 0] += 1
            v1Records.append(record)
        }
    }

    /// Keeps the V2 record's `price` and `currency` under its environment, subscription and product, unless that key
    /// has one (the first in input order stays).
    private mutating func notePrice(_ facts: PackedFacts, texts: FactTexts) {
        guard let price = facts.price, price >= 0, facts.currency.isPresent, !texts.equals(facts.currency, "")
        else { return }
        let key = PriceKey(
            environment: pool.token(facts.environment, in: texts),
            subscription: pool.token(facts.originalTransactionId, in: texts),
            product: pool.token(facts[text: .productId], in: texts))
        if prices[key] == nil { prices[key] = (price, pool.token(facts.currency, in: texts)) }
    }

    /// Frees the tables that find repeated notificationUUIDs (about 60 bytes a record, more than 100 MB for a million
    /// records each side) once no record will be added: pairing does not need them.
    mutating func dropDuplicateIndex() {
        v1Seen = SeenUUIDs()
        v2Seen = SeenUUIDs()
    }

    /// The prices of the subscriptions `rows` name, as text (the other subscriptions' prices are never looked up).
    func priceList(for rows: [Discrepancy]) -> V2PriceList {
        let subscriptions = Set(rows.map { [$0.environment, $0.originalTransactionId] })
        var list = V2PriceList()
        for (key, price) in prices {
            let environment = pool.string(key.environment)
            let subscription = pool.string(key.subscription)
            guard subscriptions.contains([environment, subscription]) else { continue }
            list.add(
                .init(
                    environment: environment, originalTransactionId: subscription, productId: pool.string(key.product)),
                milliunits: price.milliunits, currency: pool.string(price.currency))
        }
        return list
    }

    /// Counts one V2 record that could not be read.
    mutating func addV2Reject(_ error: ASNError) {
        v2Read += 1
        v2Rejected += 1
        rejects.append(.init(side: "v2", error: error))
        causes.add(side: "v2", error)
    }
}
