/// One difference found by `reconcile`: a row of `differences.csv`, as a value; rendering is separate.
package struct Discrepancy: Sendable, Equatable, Hashable {
    /// The kinds of difference, as written in the `kind` column.
    package enum Kind: String, Sendable, CaseIterable, Comparable {
        /// A V1 record with no V2 counterpart.
        case missingInV2 = "missing_in_v2"
        /// A V2 record with no V1 counterpart (and not expected to lack one).
        case missingInV1 = "missing_in_v1"
        /// A V1 record paired with a V2 record of another type or subtype.
        case typeMismatch = "type_mismatch"
        /// A paired field that differs.
        case fieldMismatch = "field_mismatch"
        /// The subscription's state at the period end differs.
        case stateMismatch = "state_mismatch"
        /// A V2 notificationUUID seen again with different content.
        case conflictingDuplicateV2 = "conflicting_duplicate_v2"
        /// A V1 record no mapping rule maps.
        case unmappedV1 = "unmapped_v1"
        /// Not a difference (`pending.csv` only): an in-period V1 record with no V2 partner yet, whose partner could lie
        /// beyond the V2 data's first or last event time.
        case pendingInV2 = "pending_in_v2"
        /// Not a difference (`pending.csv` only): an in-period V2 record with no V1 partner yet, whose partner could lie
        /// beyond the V1 data's first or last event time.
        case pendingInV1 = "pending_in_v1"
        /// A transaction in Apple's API view (in the period) that no V1 record ever showed.
        case transactionMissingInV1 = "transaction_missing_in_v1"
        /// A transaction the V1 archive showed (in the period) that Apple's fetched history lacks.
        case transactionMissingInV2 = "transaction_missing_in_v2"
        /// A field of a transaction that differs between the V1 archive and Apple's API view.
        case transactionFieldMismatch = "transaction_field_mismatch"
        /// A transaction V1 only ever showed inside a later receipt, never as a notification's own: a lost V1 notification.
        case unannouncedInV1 = "unannounced_in_v1"
        /// With `--switch`: a subscription live after its newest record whose next event no V2 notification tells
        /// of, although the V2 notifications reach past it.
        case silentInV2 = "silent_in_v2"
        /// With `--switch`: a V2 renewal after at least a whole period that no notification announced.
        case renewalGap = "renewal_gap"
        /// With `--switch`: the first V2 notification after the switch contradicts V1's last record before it.
        case seamStateMismatch = "seam_state_mismatch"
        /// Not a difference (`pending.csv` only): a subscription live at its newest record whose next event lies
        /// beyond what the V2 notifications reach yet.
        case awaitingV2 = "awaiting_v2"

        /// Orders kinds by their CSV text.
        package static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// The kind.
    package var kind: Kind
    /// "Production" / "Sandbox".
    package var environment: String = ""
    /// The subscription.
    package var originalTransactionId: String = ""
    /// The renewal purchase, when known.
    package var webOrderLineItemId: String = ""
    /// The event time, epoch ms (nil when unknown).
    package var eventDate: Int64?
    /// The V1 notification_type.
    package var v1NotificationType: String = ""
    /// The V2 type the V1 record maps to.
    package var expectedType: String = ""
    /// The V2 subtype the V1 record maps to.
    package var expectedSubtype: String = ""
    /// The V2 record's notificationType.
    package var v2NotificationType: String = ""
    /// The V2 record's subtype.
    package var v2Subtype: String = ""
    /// The V2 field name (camelCase) for field and state mismatches.
    package var field: String = ""
    /// The V1 side's value.
    package var v1Value: String = ""
    /// The V2 side's value.
    package var v2Value: String = ""
    /// `path:line` of the V1 record.
    package var v1Source: String = ""
    /// The V2 record's notificationUUID.
    package var v2NotificationUUID: String = ""
    /// The transaction's productId: the V1 record's when it has one, else the V2 record's (state mismatches: the V1
    /// state's product, else the V2 state's).
    package var productId: String = ""
    /// The bundleId: the V1 record's when it has one, else the V2 record's.
    package var bundleId: String = ""
    /// The V2 record's signedDate, epoch ms (nil when no V2 record is involved).
    package var v2SignedDate: Int64?
    /// Whether the V1 record's event time is only inferred (nil when no V1 record is involved).
    package var v1EventTimeInferred: Bool?
    /// What the purchase the row stands for cost, as V2 states it (`V2PriceList`); nil for rows that stand for no
    /// whole purchase (`V2PriceList.valuedKinds`) or whose product V2 states no price for.
    package var price: V2PriceList.Price?

    /// Creates a discrepancy of a kind; fill the rest by assignment.
    package init(kind: Kind) {
        self.kind = kind
    }

    /// The `differences.csv` (and `pending.csv`) columns, in order.
    package static let columns = [
        "kind", "environment", "original_transaction_id", "web_order_line_item_id", "event_date",
        "v1_notification_type",
        "expected_type", "expected_subtype", "v2_notification_type", "v2_subtype", "field", "v1_value", "v2_value",
        "v1_source", "v2_notification_uuid", "product_id", "bundle_id", "v2_signed_date", "v1_event_time_inferred",
        "price", "currency"
    ]

    /// The row's cells, in `columns` order.
    package var cells: [String] {
        [
            kind.rawValue, environment, originalTransactionId, webOrderLineItemId,
            eventDate.map(Timestamp.iso8601(ms:)) ?? "",
            v1NotificationType, expectedType, expectedSubtype, v2NotificationType, v2Subtype, field, v1Value, v2Value,
            v1Source, v2NotificationUUID, productId, bundleId, v2SignedDate.map(Timestamp.iso8601(ms:)) ?? "",
            v1EventTimeInferred.map { $0 ? "true" : "false" } ?? "",
            price.map { CurrencyAmount.text(milliunits: $0.milliunits, currency: $0.currency) } ?? "",
            price?.currency ?? ""
        ]
    }

    /// The report order: environment, original_transaction_id, event_date, kind, field, then every other cell.
    ///
    /// The leading columns are compared straight from the fields, so that a sort cuts a row's cells only when two rows
    /// tie on all of them; the result is `reportOrder(cells:)`'s on the rows' cells.
    package static func reportOrder(_ a: Discrepancy, _ b: Discrepancy) -> Bool {
        func precedes(_ x: String, _ y: String) -> Bool { x.utf8.lexicographicallyPrecedes(y.utf8) }
        if a.environment != b.environment { return precedes(a.environment, b.environment) }
        if a.originalTransactionId != b.originalTransactionId {
            return precedes(a.originalTransactionId, b.originalTransactionId)
        }
        if a.eventDate != b.eventDate {
            // Within years 0000–9999 the ISO 8601 text has a fixed width, so its order is the instants' order.
            if let x = a.eventDate, let y = b.eventDate, fixedWidthDates.contains(x), fixedWidthDates.contains(y) {
                return x < y
            }
            let x = a.eventDate.map(Timestamp.iso8601(ms:)) ?? ""
            let y = b.eventDate.map(Timestamp.iso8601(ms:)) ?? ""
            if x != y { return precedes(x, y) }
        }
        if a.kind != b.kind { return precedes(a.kind.rawValue, b.kind.rawValue) }
        if a.field != b.field { return precedes(a.field, b.field) }
        return reportOrder(cells: a.cells, b.cells)
    }

    /// Instants whose ISO 8601 text has four-digit years: 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.
    private static let fixedWidthDates: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// The report order over rows given as cells (`cells`, as `merge` reads them back from `differences.csv`).
    package static func reportOrder(cells ca: [String], _ cb: [String]) -> Bool {
        for column in [1, 2, 4, 0, 10] where ca[column] != cb[column] {
            return ca[column].utf8.lexicographicallyPrecedes(cb[column].utf8)
        }
        for (x, y) in zip(ca, cb) where x != y {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return false
    }
}
