import ASNMigrateKit

/// One row of `truth.csv`: a difference `reconcile` must report, in `differences.csv`'s columns.
package struct TruthRow: Sendable, Equatable {
    /// The columns of `truth.csv`: those of `differences.csv` up to its money (`price`, `currency`), which the
    /// simulation does not predict (reports value rows by the first V2 price of their subscription's product).
    package static let columns = Array(Discrepancy.columns.prefix { $0 != "price" })

    /// `missing_in_v2`, `missing_in_v1`, `type_mismatch`, `field_mismatch` or `conflicting_duplicate_v2`.
    package var kind: String
    /// "Production" or "Sandbox".
    package var environment: String
    /// The subscription key.
    package var originalTransactionId: String
    /// The webOrderLineItemId of the record's transaction, or "".
    package var webOrderLineItemId: String
    /// The event time (V1 event time when a V1 record is involved, else the V2 signedDate), epoch ms.
    package var eventDate: Int64
    /// The V1 `notification_type`, or "".
    package var v1NotificationType = ""
    /// The V2 type the V1 record maps to, or "".
    package var expectedType = ""
    /// The V2 subtype the V1 record maps to, or "".
    package var expectedSubtype = ""
    /// The V2 record's type, or "".
    package var v2NotificationType = ""
    /// The V2 record's subtype, or "".
    package var v2Subtype = ""
    /// The differing V2 field (camelCase), or "".
    package var field = ""
    /// The V1 side's value of `field`.
    package var v1Value = ""
    /// The V2 side's value of `field`.
    package var v2Value = ""
    /// `path:line` of the V1 record, or "".
    package var v1Source = ""
    /// The V2 record's notificationUUID, or "".
    package var v2NotificationUUID = ""
    /// The productId: the V1 record's when it has one, else the V2 record's.
    package var productId = ""
    /// The bundleId: the V1 record's when it has one, else the V2 record's.
    package var bundleId = ""
    /// The V2 record's signedDate, epoch ms, or nil when no V2 record is involved.
    package var v2SignedDate: Int64?
    /// Whether the V1 event time is only inferred, or nil when no V1 record is involved.
    package var v1EventTimeInferred: Bool?

    /// Creates a row with its identifying columns.
    package init(
        kind: String, environment: String, originalTransactionId: String, webOrderLineItemId: String, eventDate: Int64
    ) {
        self.kind = kind
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.eventDate = eventDate
    }

    /// The cells in `columns` order; `event_date` as ISO 8601 UTC with milliseconds.
    package var cells: [String] {
        [
            kind, environment, originalTransactionId, webOrderLineItemId, Timestamp.iso8601(ms: eventDate),
            v1NotificationType,
            expectedType, expectedSubtype, v2NotificationType, v2Subtype, field, v1Value, v2Value, v1Source,
            v2NotificationUUID,
            productId, bundleId, v2SignedDate.map(Timestamp.iso8601(ms:)) ?? "",
            v1EventTimeInferred.map { $0 ? "true" : "false" } ?? ""
        ]
    }

    /// `differences.csv`'s order: environment, original_transaction_id (numerically), event_date, kind, field; then every other cell.
    package static func precedes(_ a: TruthRow, _ b: TruthRow) -> Bool {
        if a.environment != b.environment { return a.environment < b.environment }
        if a.originalTransactionId != b.originalTransactionId {
            return IdentifierOrder.less(a.originalTransactionId, b.originalTransactionId)
        }
        if a.eventDate != b.eventDate { return a.eventDate < b.eventDate }
        if a.kind != b.kind { return a.kind < b.kind }
        if a.field != b.field { return a.field < b.field }
        return a.cells.lexicographicallyPrecedes(b.cells)
    }
}
