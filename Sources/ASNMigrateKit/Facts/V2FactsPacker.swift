/// Fills a record's `PackedFacts` from the objects of a V2 notification's tapes as `V2RecordDecoder`'s fast path
/// shows them (`V2TapeObserver`: the payload, `data`, the transaction info, the renewal info), with no model and no
/// `String`: the values `RecordFacts(payload)` reads from the decoded models, by the same conversions (`V2Scalar`).
///
/// Which member feeds which compared field is not listed here: it is the path each entry of the compared-field table
/// is keyed by (`ComparedField.paths`, read once into `members`), so a field added to the table is packed with no edit
/// here.
/// The few facts that are not compared fields (identity, time, price) mirror `RecordFacts.init(_:kind:location:)`.
/// One packer serves one thread; `V2TapeDecoderTests.checkPacked` and `V1FactsPipelineTests` hold it to `RecordFacts`
/// on real, random and damaged records, `V2FactsPackerTests` to the field table.
final class V2FactsPacker: V2TapeObserver {
    /// The objects of a notification a member can be in.
    enum Object: Int, CaseIterable {
        /// The payload's own scalars.
        case notification
        /// `data`'s scalars.
        case data
        /// The transaction info.
        case transaction
        /// The renewal info.
        case renewal
    }

    /// One compared field's member in one object: its key, and its rank among the members the field reads (the
    /// lowest present one wins, as the reader's `??` does).
    struct Member {
        /// The field.
        let field: ComparedField
        /// Its place in `ComparedField.allCases`.
        let ordinal: Int
        /// The member's key.
        let key: String
        /// Its rank.
        let rank: UInt8
        /// The field's storage.
        let storage: ComparedFieldSlot.Storage
        /// The field's slot there.
        let slot: Int

        /// The member of `field` (at `ordinal`, held in `slot`) keyed `key`, of rank `rank`.
        init(field: ComparedField, ordinal: Int, key: String, rank: UInt8, slot: ComparedFieldSlot) {
            self.field = field
            self.ordinal = ordinal
            self.key = key
            self.rank = rank
            storage = slot.storage
            self.slot = slot.slot
        }
    }

    /// The members of each object (by `Object.rawValue`) that feed compared fields, from the table's paths.
    static let members: [[Member]] = tableMembers()

    /// The facts being filled.
    var facts = PackedFacts(kind: .v2)
    /// Their texts (a batch's store, moved in and out by the caller).
    var texts = FactTexts()
    /// Whether the decoder writes the record's content for its fingerprint (not for a migrated V1 record's facts).
    var writesContent = true
    /// A record whose ids break `NumericID` (the reference path words its `bad_id` reject).
    private(set) var badId = false
    /// The rank of the member that set each compared field (`UInt8.max`: none yet).
    private var ranks: [UInt8]
    /// The rank of the member that set `originalTransactionId`.
    private var idRank: UInt8 = .max

    /// An empty packer.
    init() {
        ranks = Array(repeating: .max, count: ComparedField.allCases.count)
    }

    /// Packs the facts of V2 `record` by `decoder`'s fast path, with its content fingerprint; false to leave the record
    /// to the reference path (also when an id breaks `V2IDCheck`, whose reject the reference path words).
    func pack(_ record: RawRecord, decoder: V2RecordDecoder, scratch: V2DecodeScratch) -> Bool {
        begin(kind: .v2, location: record.location)
        guard let fingerprint = decoder.tapeObserve(record, scratch: scratch, observer: self), !badId else {
            return false
        }
        facts.fingerprint = fingerprint
        return true
    }

    /// Starts the facts of a record of `kind` read at `location`.
    func begin(kind: RecordFacts.Kind, location: SourceLocation) {
        facts = PackedFacts(kind: kind)
        facts.environment = texts.add("")
        facts.source = texts.add(location.path)
        facts.line = location.line
        facts.index = location.index
        for i in ranks.indices { ranks[i] = .max }
        idRank = .max
        badId = false
    }

    // MARK: - The objects

    /// The payload's own members; for a migrated record also its `migration` (false when that is not what
    /// `MigrationInfo(fields:)` accepts, so the record is declined).
    func notification(_ o: TapeV2Object) -> Bool {
        facts.notificationType = text(o, "notificationType") ?? .absent
        facts.subtype = text(o, "subtype") ?? .absent
        facts.notificationUUID = text(o, "notificationUUID") ?? .absent
        facts.time = int64(o, "signedDate")
        fill(o, .notification)
        return true
    }

    /// The `migration` object: `MigrationInfo(fields:)`'s reading; false when it gives nil. Kept only for a migrated
    /// record (a V2 record's facts do not read it).
    func migration(_ o: TapeV2Object) -> Bool {
        guard let source = text(o, "source"), let type = text(o, "v1NotificationType"), let rule = text(o, "rule")
        else { return false }
        guard facts.kind == .migrated else { return true }
        facts.source = source
        facts.line = int64(o, "line").map { Int(truncatingIfNeeded: $0) }
        facts.index = int64(o, "index").map { Int(truncatingIfNeeded: $0) }
        facts.v1NotificationType = type
        facts.ruleId = rule
        facts.eventTimeInferred = bool(o, "eventTimeInferred") ?? false
        return true
    }

    /// `data`'s members.
    func data(_ o: TapeV2Object) {
        if let token = o.member("environment") {
            facts.environment = texts.add(RecordFacts.environmentName(o.scalar(at: token).string))
        }
        fill(o, .data)
    }

    /// The transaction info's members.
    func transaction(_ o: TapeV2Object) {
        checkId(o, "transactionId")
        checkId(o, "originalTransactionId")
        checkId(o, "webOrderLineItemId")
        setSubscription(o, rank: 0)
        facts.price = int64(o, "price")
        facts.currency = text(o, "currency") ?? .absent
        fill(o, .transaction)
    }

    /// The renewal info's members.
    func renewal(_ o: TapeV2Object) {
        checkId(o, "originalTransactionId")
        setSubscription(o, rank: 1)
        facts.hasAutoRenewStatus = int64(o, "autoRenewStatus") != nil
        fill(o, .renewal)
    }

    // MARK: - Private

    /// Sets the compared fields `object`'s members feed, where no higher-ranked member has.
    private func fill(_ o: TapeV2Object, _ object: Object) {
        for m in Self.members[object.rawValue] where m.rank < ranks[m.ordinal] {
            guard let token = o.member(m.key) else { continue }
            switch m.storage {
            case .texts:
                guard let value = text(o, at: token) else { continue }
                facts.compared.texts[m.slot] = value
            case .dates:
                guard let value = int64(o, at: token) else { continue }
                facts.compared.dates[m.slot] = value
            case .numbers:
                guard let value = int64(o, at: token) else { continue }
                facts.compared.numbers[m.slot] = Int(truncatingIfNeeded: value)
            case .flags:
                guard let value = o.scalar(at: token).bool else { continue }
                facts.compared.flags[m.slot] = value
            }
            ranks[m.ordinal] = m.rank
        }
    }

    /// `originalTransactionId` from `o` unless a higher-ranked object gave it.
    private func setSubscription(_ o: TapeV2Object, rank: UInt8) {
        guard rank < idRank, let id = text(o, "originalTransactionId") else { return }
        facts.originalTransactionId = id
        idRank = rank
    }

    /// Notes an id member that `V2IDCheck` rejects (present, not empty, not 1 to 20 digits).
    private func checkId(_ o: TapeV2Object, _ key: String) {
        guard let token = o.member(key) else { return }
        switch o.kind(token) {
        case .string, .number:
            let raw = o.rawString(at: token)
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), !raw.isEmpty else { return }
            if !NumericID.isValid(base, from: 0, to: raw.count) { badId = true }
        default:
            if let value = o.scalar(at: token).string, !value.isEmpty, !NumericID.isValid(value) { badId = true }
        }
    }

    /// A string member as a text (`V2Scalar.string`), or nil.
    private func text(_ o: TapeV2Object, _ key: String) -> FactText? {
        o.member(key).flatMap { text(o, at: $0) }
    }

    /// The value at `token` as a string member reads it: an unescaped string's or a number's bytes as they are.
    private func text(_ o: TapeV2Object, at token: Int) -> FactText? {
        switch o.kind(token) {
        case .string, .number: return texts.add(o.rawString(at: token))
        default: return o.scalar(at: token).string.map { texts.add($0) }
        }
    }

    /// An integer member (`V2Scalar.int64`), or nil.
    private func int64(_ o: TapeV2Object, _ key: String) -> Int64? {
        o.member(key).flatMap { int64(o, at: $0) }
    }

    /// The value at `token` as an integer member reads it: a canonical integer literal straight from its bytes.
    private func int64(_ o: TapeV2Object, at token: Int) -> Int64? {
        if o.kind(token) == .number, let value = TapeMemberCopier.canonicalInteger(o.rawString(at: token)) {
            return value
        }
        return o.scalar(at: token).int64
    }

    /// A Boolean member (`V2Scalar.bool`), or nil.
    private func bool(_ o: TapeV2Object, _ key: String) -> Bool? {
        o.member(key).flatMap { o.scalar(at: $0).bool }
    }

    // MARK: - The field table's paths

    /// For each object, the members the compared fields read, from each entry's `V2FieldTable` paths: the object is
    /// the path's prefix, the key its last part, the rank its place among the entry's paths.
    private static func tableMembers() -> [[Member]] {
        var members = Array(repeating: [Member](), count: Object.allCases.count)
        for (ordinal, field) in ComparedField.allCases.enumerated() {
            guard let slot = field.slot else { continue }
            for (rank, path) in field.paths.enumerated() {
                guard let (object, key) = split(path) else { continue }
                members[object.rawValue].append(
                    Member(field: field, ordinal: ordinal, key: key, rank: UInt8(truncatingIfNeeded: rank), slot: slot))
            }
        }
        return members
    }

    /// The object and key of a `V2FieldTable` path (`data.transactionInfo.productId` → transaction, `productId`).
    static func split(_ path: String) -> (Object, String)? {
        let parts = path.split(separator: ".").map(String.init)
        switch (parts.count, parts.first) {
        case (1, _): return (.notification, parts[0])
        case (2, "data"): return (.data, parts[1])
        case (3, "data") where parts[1] == "transactionInfo": return (.transaction, parts[2])
        case (3, "data") where parts[1] == "renewalInfo": return (.renewal, parts[2])
        default: return nil
        }
    }
}
