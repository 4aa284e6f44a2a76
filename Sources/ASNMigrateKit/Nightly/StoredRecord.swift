/// One record as the state database keeps it: the subscription key and times the night needs to find it, and the
/// migrated (V1) or decoded (V2) V2 payload as JSON, from which it is fed back to the `Reconciler` unchanged.
///
/// The payload is the V2 model's JSON, so the V1 `password` and `latest_receipt` are never in it.
public struct StoredRecord: Sendable, Equatable {
    /// How the payload is to be read back.
    public enum Form: String, Sendable {
        /// A V1 record migrated to V2 (`migration` set).
        case migrated
        /// A V1 record no rule maps (a small JSON object of what the engine needs).
        case unmapped
        /// A V2 record.
        case v2
    }

    /// How the payload is to be read back.
    public var form: Form
    /// "Production" / "Sandbox" ("" when unknown).
    public var environment: String
    /// The subscription ("" when the record has none).
    public var originalTransactionId: String
    /// notificationUUID ("" when none).
    public var notificationUUID: String
    /// Event time (V1) or signedDate (V2), epoch ms.
    public var eventMs: Int64?
    /// V1: the event time is only inferred.
    public var inferred: Bool
    /// The later of the transaction's expiresDate and the grace period's end, epoch ms.
    public var expiresMs: Int64?
    /// Where the record was read.
    public var location: SourceLocation
    /// The payload JSON.
    public var payload: String
    /// Hex content digest (V2 only; "" for V1).
    public var digest: String

    /// "v1" or "v2".
    public var side: String { form == .v2 ? "v2" : "v1" }

    // MARK: - From input

    /// A migrated V1 record.
    public init(migrated p: ResponseBodyV2DecodedPayload) {
        form = .migrated
        environment = Reconciler.environmentName(p.data.environment)
        originalTransactionId = Self.subscription(p)
        notificationUUID = p.notificationUUID ?? ""
        eventMs = p.signedDate
        inferred = p.migration?.eventTimeInferred ?? false
        expiresMs = Self.expiry(p)
        location = SourceLocation(path: p.migration?.source ?? "", line: p.migration?.line, index: p.migration?.index)
        payload = JSONWriter.string(.object(p.json))
        digest = ""
    }

    /// A V1 record no rule maps.
    public init(unmapped u: UnmappedNotification) {
        form = .unmapped
        environment = u.environment ?? ""
        originalTransactionId = u.originalTransactionId ?? ""
        notificationUUID = u.notificationUUID
        eventMs = u.eventTime
        inferred = false
        expiresMs = nil
        location = u.location
        var b = JSONObjectBuilder()
        b.add("v1NotificationType", u.v1NotificationType)
        b.add("reason", u.reason)
        b.add("path", u.location.path)
        b.add("line", u.location.line)
        b.add("index", u.location.index)
        b.add("notificationUUID", u.notificationUUID)
        b.add("environment", u.environment)
        b.add("originalTransactionId", u.originalTransactionId)
        b.add("webOrderLineItemId", u.webOrderLineItemId)
        b.add("eventTime", u.eventTime)
        payload = JSONWriter.string(.object(b.object))
        digest = ""
    }

    /// A V2 record.
    public init(v2 record: V2Record) {
        let p = record.payload
        form = .v2
        environment = Reconciler.environmentName(p.data.environment)
        originalTransactionId = Self.subscription(p)
        notificationUUID = p.notificationUUID ?? ""
        eventMs = p.signedDate
        inferred = false
        expiresMs = Self.expiry(p)
        location = record.location
        payload = JSONWriter.string(.object(p.json))
        digest = SHA1.hex(record.contentDigest)
    }

    /// A record read back from the database.
    public init(form: Form, environment: String, originalTransactionId: String, notificationUUID: String, eventMs: Int64?,
                inferred: Bool, expiresMs: Int64?, location: SourceLocation, payload: String, digest: String = "") {
        self.form = form
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.notificationUUID = notificationUUID
        self.eventMs = eventMs
        self.inferred = inferred
        self.expiresMs = expiresMs
        self.location = location
        self.payload = payload
        self.digest = digest
    }

    // MARK: - Back to the engine

    /// Feeds the record to `reconciler` exactly as `reconcile` would have fed the original.
    public func feed(into reconciler: inout Reconciler, decoder: V2RecordDecoder) throws(ASNError) {
        let value = try decoder.parser.parse(payload)
        switch form {
        case .unmapped:
            guard case .object(let object) = value else { throw damaged("not an object") }
            let r = V2FieldReader(object)
            let where_ = SourceLocation(path: r.string("path") ?? "", line: r.int("line"), index: r.int("index"))
            let u = UnmappedNotification(
                v1NotificationType: r.string("v1NotificationType") ?? "", reason: r.string("reason") ?? "", location: where_,
                notificationUUID: r.string("notificationUUID") ?? "", environment: r.string("environment"),
                originalTransactionId: r.string("originalTransactionId"), webOrderLineItemId: r.string("webOrderLineItemId"),
                eventTime: r.int64("eventTime"))
            reconciler.addV1(.unmapped(u))
        case .migrated, .v2:
            let outcomes = decoder.decode(value, at: location)
            guard outcomes.count == 1, let record = outcomes[0].record else {
                throw damaged(outcomes.first?.error?.message ?? "not one notification")
            }
            if form == .migrated {
                reconciler.addV1(.migrated(record.payload))
            } else {
                reconciler.addV2(record.payload, location: location, digest: record.contentDigest)
            }
        }
    }

    // MARK: - Private

    private func damaged(_ what: String) -> ASNError {
        ASNError(.stateDatabase, "a stored \(form.rawValue) record from \(location.source) cannot be read back (\(what)); the state database is damaged: restore it from a backup or start a new one")
    }

    private static func subscription(_ p: ResponseBodyV2DecodedPayload) -> String {
        p.data.transactionInfo?.originalTransactionId ?? p.data.renewalInfo?.originalTransactionId ?? ""
    }

    private static func expiry(_ p: ResponseBodyV2DecodedPayload) -> Int64? {
        let dates = [p.data.transactionInfo?.expiresDate, p.data.renewalInfo?.gracePeriodExpiresDate].compactMap { $0 }
        return dates.max()
    }
}
