/// A decoded V2 notification (`responseBodyV2DecodedPayload`); `migrate` writes one per V1 notification, with `migration` added.
public struct ResponseBodyV2DecodedPayload: Sendable, Equatable, Hashable {
    /// `notificationType`, raw (unknown values are kept).
    public var notificationType: String
    /// `subtype`, raw; nil when the notification has none.
    public var subtype: String?
    /// `notificationUUID`.
    public var notificationUUID: String?
    /// `version`.
    public var version: String?
    /// `signedDate`, epoch ms: for migrated records, the V1 event time.
    public var signedDate: Int64?
    /// `data`.
    public var data: NotificationData
    /// `migration`: present on records written by `migrate`.
    public var migration: MigrationInfo?

    /// Creates a payload.
    public init(notificationType: String, subtype: String? = nil, notificationUUID: String? = nil, version: String? = "2.0",
                signedDate: Int64? = nil, data: NotificationData = NotificationData(), migration: MigrationInfo? = nil) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
        self.migration = migration
    }

    /// The payload as an ordered JSON object, absent values left out.
    public var json: JSONObject {
        var b = JSONObjectBuilder()
        b.add("notificationType", notificationType)
        b.add("subtype", subtype)
        b.add("notificationUUID", notificationUUID)
        b.add("version", version)
        b.add("signedDate", signedDate)
        b.add("data", json: .object(data.json))
        b.add("migration", json: migration.map { .object($0.json) })
        return b.object
    }
}
