/// A decoded V2 notification (`responseBodyV2DecodedPayload`); `migrate` writes one per V1 notification, with `migration` added.
package struct ResponseBodyV2DecodedPayload: Sendable, Equatable, Hashable, JSONMembers {
    /// `notificationType`, raw (unknown values are kept).
    package var notificationType: String
    /// `subtype`, raw; nil when the notification has none.
    package var subtype: String?
    /// `notificationUUID`.
    package var notificationUUID: String?
    /// `version`.
    package var version: String?
    /// `signedDate`, epoch ms: for migrated records, the V1 event time.
    package var signedDate: Int64?
    /// `data`.
    package var data: NotificationData
    /// `migration`: present on records written by `migrate`.
    package var migration: MigrationInfo?

    /// Creates a payload.
    package init(
        notificationType: String, subtype: String? = nil, notificationUUID: String? = nil, version: String? = "2.0",
        signedDate: Int64? = nil, data: NotificationData = NotificationData(), migration: MigrationInfo? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
        self.migration = migration
    }

    /// A payload of `notificationType` with its other scalar members read from `r`.
    package init<Source: V2FieldSource>(
        notificationType: String, scalars r: Source, data: NotificationData, migration: MigrationInfo?
    ) {
        self.init(notificationType: notificationType, data: data, migration: migration)
        var reader = V2MemberReader(r)
        visitScalars(&reader)
    }

    /// The optional scalar members, in the fixed order of this model's JSON (after `notificationType`, before `data`
    /// and `migration`): the one place their keys are named.
    package mutating func visitScalars<Visitor: V2MemberVisitor>(_ v: inout Visitor) {
        v.visit("subtype", &subtype)
        v.visit("notificationUUID", &notificationUUID)
        v.visit("version", &version)
        v.visit("signedDate", &signedDate)
    }

    /// Gives each present member to `b`, in the fixed order of this model's JSON.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        b.add("notificationType", notificationType)
        var scalars = self
        scalars.visitScalars(&b)
        b.add("data", object: data)
        b.add("migration", object: migration)
    }
}
