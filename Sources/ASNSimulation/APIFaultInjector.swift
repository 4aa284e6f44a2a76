import ASNMigrateKit

/// Perturbs one subscriber's App Store Server API view (`SimulatedAPIView`), and says which difference each
/// perturbation makes `reconcile --v1 DIR/v1 --v2 DIR/v2-api` report (`truth-api.csv`).
///
/// Faults on the view itself (at most one per subscriber, never on a subscriber whose V1 archive lost a notification,
/// never on the anchor):
/// - a transaction dropped from Apple's history → one `transaction_missing_in_v2` row (the V1 transaction's identity:
///   its first V1 record in reading order as `v1_source`, `field` transactionId);
/// - a changed field of a history transaction (one of `changeableFields`) → one `transaction_field_mismatch` row with
///   both values, rendered as `reconcile` renders them (dates ISO 8601, booleans true/false, codes as digits);
/// - a changed `status` in the subscription's statuses response → one `state_mismatch` row (`event_date` the fetch time).
/// Only transactions of an auto-renewable subscription bought by the customer (`PURCHASED`, or a family member's
/// renewal, which V1 is sent too) that a V1 notification
/// announced are touched, never the subscription's latest (the statuses response carries it), never the only one of a
/// customer (a customer without transactions was not fetched), and only when the V1 value of the changed field equals
/// Apple's (so the change is the only difference). All lie more than 4 days inside the simulated span, so a date moved
/// up to 72 hours earlier stays in the period, and the pending rule (window 48 h) applies to none.
///
/// A V1 notification lost (`FaultInjector`'s `dropV1`) changes the V1 side too: its transaction, when no other V1
/// record announces it, is `unannounced_in_v1` if a later receipt still shows it (that record is the `v1_source`),
/// else `transaction_missing_in_v1` (Apple's identity, `v2_value` the transactionId). `dropIsClean` admits a drop only
/// when that is all it changes: every transaction still shown keeps its merged facts, the subscription's V1 state at
/// the fetch time is unchanged, and a transaction it hides is an auto-renewable one V1 was sent a notification for by
/// Apple's table: the purchaser's (`PURCHASED`), or a family member's renewal (`FAMILY_SHARED`, not the first purchase).
package enum APIFaultInjector {
    /// A truth row, and the record whose V1 line is its `v1_source` (nil when the row has none).
    package struct Truth: Sendable, Equatable {
        /// The row, `v1_source` still empty.
        package var row: TruthRow
        /// The index of the record whose first written V1 line is the source.
        package var sourceRecord: Int?
    }

    /// The fields of a history transaction that may be changed: every field the compared-field table compares against
    /// Apple's history, in its order, but `transactionId` (a changed one is a restored copy, not a difference).
    package static let changeableFields: [String] = ComparedField.apiViewFields.filter { $0 != .transactionId }
        .map(\.rawValue)

    /// Fields `reconcile` compares only when the V1 side knows a value (the table's `.whenV1States`).
    static let comparedOnlyWhenKnown: Set<String> = Set(
        ComparedField.apiViewFields.filter { $0.apiView == .whenV1States }.map(\.rawValue))

    /// How far inside the simulated span a touched transaction's purchase lies.
    static let margin = 4 * SimulationCalendar.day

    // MARK: - Faults on the view

    /// Picks at most one fault for the subscriber and applies it to `view`; `span` is the simulated span (statuses are
    /// fetched at its end). Each candidate (every transaction but the latest, then the status) is picked with
    /// probability `rate`; the first picked that can be perturbed unambiguously is.
    /// `statusesCompared` is false when the statuses are fetched more than `reconcile`'s default window after the V1
    /// archive ends: `reconcile` counts them (`statuses_after_v1_end`) instead of comparing them, so no status is changed.
    package static func inject(
        _ view: inout SimulatedAPIView.Derived, archive: SimulatedV1Archive, rate: Double,
        span: ClosedRange<Int64>, statusesCompared: Bool = true, random: inout SimulationRandom
    ) -> [Truth] {
        guard rate > 0 else { return [] }
        let seen = archive.transactions(dropping: [])
        let keys = view.history.keys.sorted { a, b in a[0] != b[0] ? a[0] < b[0] : IdentifierOrder.less(a[1], b[1]) }
        for key in keys {
            let list = view.history[key] ?? []
            guard list.count >= 2, list.last?.type == LifecycleV2.autoRenewableType else { continue }
            for position in list.indices.dropLast() {
                guard random.chance(rate) else { continue }
                let apple = list[position]
                guard let id = apple.transactionId, let mine = seen[id], mine.transaction.announced,
                    apple.type == LifecycleV2.autoRenewableType,
                    apple.inAppOwnershipType == "PURCHASED"
                        || (apple.inAppOwnershipType == "FAMILY_SHARED" && id != apple.originalTransactionId),
                    let purchase = apple.purchaseDate, let v1Purchase = mine.transaction.info.purchaseDate,
                    purchase - margin > span.lowerBound, purchase + margin < span.upperBound, v1Purchase == purchase
                else { continue }
                if random.weighted([1, 1.5]) == 0 {
                    view.history[key]?.remove(at: position)
                    var row = self.row("transaction_missing_in_v2", mine.transaction)
                    row.field = "transactionId"
                    row.v1Value = id
                    return [Truth(row: row, sourceRecord: mine.firstRecord)]
                }
                let shape = mine.transaction.v2Shape
                let fields = changeableFields.filter { field in
                    let v1 = value(of: field, in: shape)
                    return v1 == value(of: field, in: apple) && (!v1.isEmpty || !comparedOnlyWhenKnown.contains(field))
                        && canChange(field, apple)
                }
                guard !fields.isEmpty else { continue }
                let field = random.pick(fields)
                var changed = apple
                perturb(field, &changed, random: &random)
                let before = value(of: field, in: shape)
                let after = value(of: field, in: changed)
                guard before != after else { continue }
                view.history[key]?[position] = changed
                var row = self.row("transaction_field_mismatch", mine.transaction)
                row.field = field
                row.v1Value = before
                row.v2Value = after
                return [Truth(row: row, sourceRecord: mine.firstRecord)]
            }
            guard statusesCompared, random.chance(rate), let latest = list.last, let renewal = view.renewals[key],
                let status = LifecycleV2.status(latest, renewal: renewal, at: span.upperBound)?.rawValue,
                archive.state(of: key[1], dropping: [], at: span.upperBound)?.status.rawValue == status
            else { continue }
            let replacement = random.pick([1, 2, 3, 4, 5].filter { $0 != status })
            view.statusOverrides[key] = replacement
            var row = TruthRow(
                kind: "state_mismatch", environment: key[0], originalTransactionId: key[1], webOrderLineItemId: "",
                eventDate: span.upperBound)
            row.field = "status"
            row.productId = latest.productId ?? ""
            row.bundleId = latest.bundleId ?? ""
            row.v1Value = String(status)
            row.v2Value = String(replacement)
            return [Truth(row: row)]
        }
        return []
    }

    // MARK: - Lost V1 notifications

    /// Whether losing the V1 lines of the records in `dropped` has only the effects `lostNotificationRows` describes
    /// (see the type's notes); `instant` is the statuses' fetch time.
    package static func dropIsClean(
        _ archive: SimulatedV1Archive, dropped: Set<Int>, view: SimulatedAPIView.Derived, instant: Int64
    ) -> Bool {
        let before = archive.transactions(dropping: [])
        let after = archive.transactions(dropping: dropped)
        let apple = appleTransactions(view)
        for (id, was) in before {
            if let now = after[id] {
                guard now.transaction.info == was.transaction.info,
                    now.transaction.environment == was.transaction.environment,
                    now.transaction.originalTransactionId == was.transaction.originalTransactionId
                else { return false }
                if now.transaction.announced == was.transaction.announced { continue }
            }
            // A lost notification hides a purchaser's transaction, or a family member's renewal (Apple's table: family
            // members receive DID_RENEW, DID_RECOVER and INTERACTIVE_RENEWAL, not INITIAL_BUY).
            guard let t = apple[id], t.type == LifecycleV2.autoRenewableType, t.purchaseDate != nil,
                t.inAppOwnershipType == "PURCHASED"
                    || (t.inAppOwnershipType == "FAMILY_SHARED" && t.transactionId != t.originalTransactionId),
                t.environment == was.transaction.environment,
                t.originalTransactionId == was.transaction.originalTransactionId
            else { return false }
        }
        for key in view.renewals.keys {
            guard
                archive.state(of: key[1], dropping: dropped, at: instant)
                    == archive.state(of: key[1], dropping: [], at: instant)
            else { return false }
        }
        return true
    }

    /// The rows that losing the V1 lines of the records in `dropped` causes (admitted by `dropIsClean`).
    package static func lostNotificationRows(
        _ archive: SimulatedV1Archive, dropped: Set<Int>, view: SimulatedAPIView.Derived
    ) -> [Truth] {
        guard !dropped.isEmpty else { return [] }
        let before = archive.transactions(dropping: [])
        let after = archive.transactions(dropping: dropped)
        let apple = appleTransactions(view)
        var truths: [Truth] = []
        for id in before.keys.sorted(by: IdentifierOrder.less) {
            guard let was = before[id] else { continue }
            if let now = after[id] {
                guard was.transaction.announced, !now.transaction.announced else { continue }
                var row = self.row("unannounced_in_v1", now.transaction)
                row.field = "transactionId"
                row.v1Value = id
                truths.append(Truth(row: row, sourceRecord: now.firstRecord))
            } else if let t = apple[id], let purchase = t.purchaseDate {
                var row = TruthRow(
                    kind: "transaction_missing_in_v1", environment: t.environment ?? "",
                    originalTransactionId: t.originalTransactionId ?? "",
                    webOrderLineItemId: t.webOrderLineItemId ?? "", eventDate: purchase)
                row.field = "transactionId"
                row.v2Value = id
                row.productId = t.productId ?? ""
                row.bundleId = t.bundleId ?? ""
                truths.append(Truth(row: row))
            }
        }
        return truths
    }

    // MARK: - Helpers

    /// Apple's transactions of the view by transactionId (one subscriber's view holds one environment).
    private static func appleTransactions(_ view: SimulatedAPIView.Derived) -> [String: JWSTransactionDecodedPayload] {
        var byId: [String: JWSTransactionDecodedPayload] = [:]
        for list in view.history.values {
            for t in list { if let id = t.transactionId { byId[id] = t } }
        }
        return byId
    }

    /// A row about a V1 transaction, as `reconcile` identifies it: the V1 side's identity and purchase date.
    private static func row(_ kind: String, _ t: V1Transaction) -> TruthRow {
        var row = TruthRow(
            kind: kind, environment: t.environment, originalTransactionId: t.originalTransactionId,
            webOrderLineItemId: t.info.webOrderLineItemId ?? "", eventDate: t.info.purchaseDate ?? 0)
        row.v1NotificationType = t.sourceType
        row.productId = t.info.productId ?? ""
        row.bundleId = t.bundleId ?? ""
        return row
    }

    /// A compared field of a transaction as `reconcile` renders it ("" when absent; isUpgraded absent is false): read
    /// by the compared-field table, rendered by the one comparison.
    static func value(of field: String, in t: JWSTransactionDecodedPayload) -> String {
        guard let compared = ComparedField(rawValue: field) else { return "" }
        let value = compared.value(in: t)
        return FieldComparison.cells(value, value, tolerance: 0).0
    }

    /// Whether `perturb` can change the field (it changes only values that are present, but flips isUpgraded always).
    private static func canChange(_ field: String, _ t: JWSTransactionDecodedPayload) -> Bool {
        field == "isUpgraded" || !value(of: field, in: t).isEmpty
    }

    /// Changes one field as its kind says (`FieldPerturbation`): a product to another subscription, dates 1 to 72 hours
    /// earlier, codes, flags and the ownership to another value, the offer identifier and webOrderLineItemId extended,
    /// quantity by one; an absent isUpgraded becomes true.
    static func perturb(_ field: String, _ t: inout JWSTransactionDecodedPayload, random: inout SimulationRandom) {
        let earlier = random.int(in: 1...(72 * 3_600)) * 1_000
        guard let compared = ComparedField(rawValue: field),
            let change = FieldPerturbation(compared, earlier: earlier, setsAbsentFlag: true)
        else { return }
        var transaction: JWSTransactionDecodedPayload? = t
        var renewal: JWSRenewalInfoDecodedPayload?
        change.apply(&transaction, &renewal, random: &random)
        t = transaction ?? t
    }
}
