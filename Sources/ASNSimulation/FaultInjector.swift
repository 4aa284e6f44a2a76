import ASNMigrateKit

/// Perturbs a chosen fraction of one subscriber's records, and says which difference each perturbation makes
/// `reconcile` report under the comparison rules.
///
/// Each record is picked with probability `rate`. A picked record is perturbed only when the effect is unambiguous;
/// otherwise it is left alone (so the realised fraction is below `rate`, and README.txt reports it). A record may be
/// perturbed when all of these hold:
/// - it is a twin (V1 and V2 both sent it), not the anchor's, not a V2-only record, not a companion and without one;
/// - it has no retries on either side, was not delivered late, and its V1 event time is not inferred;
/// - no companion, record with a companion, or inferred-time record of its subscription lies within 3 days (companions
///   pair with unpaired V2 records within 10 minutes; the order of the inferred pass is left open);
/// - its transaction is not its subscription's latest (some later record carries a newer purchase date), so neither
///   side's state at the period end (latest transaction, last autoRenewStatus, active) can change;
/// - no other perturbed record of its subscription lies within 5 days (so pass 3's "any V2 record within 48 h" can
///   only meet the record's own twin);
/// - its kind is not one `reconcile` would count as `v2_only_expected` when unpaired.
/// Within those, the effects are:
/// - drop the V1 record → its V2 twin stays unpaired: one `missing_in_v1` row (V2 identity, event_date = signedDate);
///   only where the loss has an unambiguous effect on the comparison with Apple's API view too (`v1DropAllowed`);
/// - drop the V2 record → the V1 record stays unpaired (no other V2 record of its kind, or any non-V2-only one, is
///   within 48 h): one `missing_in_v2` row (V1 identity and expected kind);
/// - drops only where every time of the record lies more than `reconcile`'s default window plus an hour inside the
///   simulated span (`edges`): nearer the first or last event of the data, an unpaired record is `pending`, not missing;
/// - change one compared field of the V2 record (never webOrderLineItemId, which pass 1 keys on, nor bundleId,
///   which sits both in `data` and in the transaction): the pair still matches in pass 1: one `field_mismatch` row with
///   both values (dates rendered ISO 8601 as `migrate --format csv` does, booleans true/false, codes as digits);
///   dates only move earlier, so no transaction becomes the latest;
/// - change the V2 type to one no V1 record of the subscription maps to within 5 days → the pair meets in pass 3:
///   one `type_mismatch` row (the data is unchanged, so no field rows);
/// - write a second V2 record with the same notificationUUID after the first and one compared field changed →
///   the first is kept: one `conflicting_duplicate_v2` row (V2 identity of the record, no V1 or field columns);
/// - write a malformed line after the record's line on either side → one `truth-rejects.csv` row (no difference).
/// All records lie at least a day inside the period the anchor fixes, so the period rule swallows none of these.
package struct FaultInjector {
    /// A perturbation of one record.
    package enum Fault: Sendable, Equatable {
        /// The V1 record is not written.
        case dropV1
        /// The V2 record is not written.
        case dropV2
        /// A compared field of the V2 record was changed (already applied to the record).
        case changeField(field: String, v1Value: String, v2Value: String)
        /// The V2 type was changed (already applied to the record).
        case changeType
        /// A second V2 record with the same notificationUUID and different content is written after it.
        case conflictingDuplicate(SimulatedV2Notification)
        /// A malformed line is written after the V1 record's line.
        case malformedV1(line: [UInt8], reasonKind: String)
        /// A malformed line is written after the V2 record's line.
        case malformedV2(line: [UInt8], reasonKind: String)
    }

    /// The compared fields that may be changed: those notification pairing compares by default (the compared-field
    /// table, in its order), but the ones the simulated records are paired and grouped by (`keptFields`).
    package static let changeableFields: [String] = ComparedField.defaultFields.filter { field in
        (field.row.bit != nil || field.flagSlot != nil) && !keptFields.contains(field)
    }.map(\.rawValue)

    /// Compared fields a fault never changes: `webOrderLineItemId` pairs a V2 record with its V1 twin, and `bundleId`
    /// is the app's, the same on every record.
    static let keptFields: Set<ComparedField> = [.webOrderLineItemId, .bundleId]

    /// Kinds a changed V2 type may take.
    static let replacementKinds = [
        NotificationKind("DID_RENEW"), NotificationKind("DID_RENEW", "BILLING_RECOVERY"),
        NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"),
        NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
        NotificationKind("DID_FAIL_TO_RENEW"), NotificationKind("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
    ]

    private static let day = SimulationCalendar.day

    /// Picks and applies faults to `records` (changed fields and types are applied in place); returns them by record index.
    /// `edges` is the simulated span (the anchor's first and last event); drops stay clear of it (see above).
    /// `v1DropAllowed` is asked, with every V1 record dropped so far plus the candidate, whether losing those V1 lines
    /// has an unambiguous effect on the comparison with Apple's API view (`APIFaultInjector.dropIsClean`).
    package static func inject(
        _ records: inout [SimulatedRecord], rate: Double, edges: ClosedRange<Int64>,
        random: inout SimulationRandom, v1DropAllowed: (Set<Int>) -> Bool = { _ in true }
    ) -> [Int: Fault] {
        guard rate > 0 else { return [:] }
        var faults: [Int: Fault] = [:]
        var sensitive: [String: [Int64]] = [:]
        var latestPurchase: [String: Int64] = [:]
        var kindTimes: [String: [(NotificationKind, Int64)]] = [:]
        for record in records {
            guard let key = record.originalTransactionId else { continue }
            if record.role == .companion || record.hasCompanion || record.inferredTime {
                sensitive[key, default: []].append(record.time)
                if let v1 = record.v1Mapped?.signedDate { sensitive[key, default: []].append(v1) }
            }
            for purchase in [record.v1Mapped?.data.transactionInfo?.purchaseDate, record.v2?.transaction?.purchaseDate]
                .compactMap({ $0 })
            {
                latestPurchase[key] = max(latestPurchase[key] ?? purchase, purchase)
            }
            if record.v1Mapped != nil,
                let kind = record.v1Mapped.map({ NotificationKind($0.notificationType, $0.subtype) })
            {
                kindTimes[key, default: []].append((kind, record.time))
            }
        }
        var perturbed: [String: [Int64]] = [:]
        var droppedV1: Set<Int> = []

        for index in records.indices {
            guard random.chance(rate) else { continue }
            let record = records[index]
            guard eligible(record, sensitive: sensitive, latestPurchase: latestPurchase, perturbed: perturbed),
                let key = record.originalTransactionId, let v2 = record.v2, let mapped = record.v1Mapped
            else { continue }
            let choice = random.weighted([1, 1, 1.2, 1, 1, 0.4, 0.4])
            var fault: Fault?
            switch choice {
            case 0:
                fault = clearOfEdges(record, edges) && v1DropAllowed(droppedV1.union([index])) ? .dropV1 : nil
                if fault != nil { droppedV1.insert(index) }
            case 1: fault = clearOfEdges(record, edges) ? .dropV2 : nil
            case 2:
                let fields = changeableFields.filter {
                    value(of: $0, in: mapped.data.transactionInfo, mapped.data.renewalInfo) != nil
                        && value(of: $0, in: v2) != nil
                }
                guard !fields.isEmpty else { break }
                let field = random.pick(fields)
                var changed = v2
                perturb(field, &changed, random: &random)
                guard let before = value(of: field, in: mapped.data.transactionInfo, mapped.data.renewalInfo),
                    let after = value(of: field, in: changed),
                    before != after
                else { break }
                records[index].v2 = changed
                fault = .changeField(field: field, v1Value: before, v2Value: after)
            case 3:
                let near = (kindTimes[key] ?? []).filter { abs($0.1 - record.time) <= 5 * day }.map(\.0)
                let ownership = v2.transaction?.inAppOwnershipType
                let options = replacementKinds.filter { kind in
                    !near.contains(kind) && !kind.isV2OnlyExpected(ownership: ownership, hasOriginalTransactionId: true)
                }
                guard !options.isEmpty else { break }
                let kind = random.pick(options)
                records[index].v2?.notificationType = kind.type
                records[index].v2?.subtype = kind.subtype
                fault = .changeType
            case 4:
                let fields = changeableFields.filter { value(of: $0, in: v2) != nil }
                guard !fields.isEmpty else { break }
                var duplicate = v2
                perturb(random.pick(fields), &duplicate, random: &random)
                duplicate.signatureSeed = random.next()
                guard duplicate != v2 else { break }
                fault = .conflictingDuplicate(duplicate)
            case 5:
                fault =
                    random.chance(0.5)
                    ? .malformedV1(
                        line: Array(
                            #"{"notification_type":"DID_RENEW","environment":PROD,"bid":"com.example.simulated"}"#.utf8),
                        reasonKind: "malformed_json")
                    : .malformedV1(
                        line: Array(
                            #"{"received_at":"2021-01-01T00:00:00.000Z","body":{"environment":"PROD","auto_renew_status":"true"}}"#
                                .utf8),
                        reasonKind: "missing_notification_type")
            default:
                fault =
                    random.chance(0.5)
                    ? .malformedV2(
                        line: Array(#"{"signedPayload":eyJhbGciOiJFUzI1NiJ9.e30.c2ln}"#.utf8),
                        reasonKind: "malformed_json")
                    : .malformedV2(
                        line: Array(#"{"signedPayload":"this-is-not-a-jws"}"#.utf8), reasonKind: "malformed_jws")
            }
            guard let fault else { continue }
            faults[index] = fault
            perturbed[key, default: []].append(record.time)
        }
        return faults
    }

    /// The difference `reconcile` must report for a fault, or nil (malformed lines are rejects, not differences).
    /// `v1Source` is the V1 record's `path:line`.
    package static func truthRow(_ fault: Fault, record: SimulatedRecord, v1Source: String) -> TruthRow? {
        guard let v2 = record.v2, let mapped = record.v1Mapped, let key = record.originalTransactionId else {
            return nil
        }
        let environment = record.environment.rawValue
        let v1Time = mapped.signedDate ?? record.time
        var row: TruthRow
        switch fault {
        case .dropV1:
            row = TruthRow(
                kind: "missing_in_v1", environment: environment, originalTransactionId: key,
                webOrderLineItemId: v2.transaction?.webOrderLineItemId ?? "", eventDate: v2.signedDate)
            fillV2(&row, v2)
            return row
        case .conflictingDuplicate(let duplicate):
            row = TruthRow(
                kind: "conflicting_duplicate_v2", environment: environment, originalTransactionId: key,
                webOrderLineItemId: duplicate.transaction?.webOrderLineItemId ?? "", eventDate: duplicate.signedDate)
            fillV2(&row, duplicate)
            return row
        case .malformedV1, .malformedV2:
            return nil
        case .dropV2:
            row = TruthRow(
                kind: "missing_in_v2", environment: environment, originalTransactionId: key,
                webOrderLineItemId: mapped.data.transactionInfo?.webOrderLineItemId ?? "", eventDate: v1Time)
        case .changeField(let field, let v1Value, let v2Value):
            row = TruthRow(
                kind: "field_mismatch", environment: environment, originalTransactionId: key,
                webOrderLineItemId: mapped.data.transactionInfo?.webOrderLineItemId ?? "", eventDate: v1Time)
            row.field = field
            row.v1Value = v1Value
            row.v2Value = v2Value
        case .changeType:
            row = TruthRow(
                kind: "type_mismatch", environment: environment, originalTransactionId: key,
                webOrderLineItemId: mapped.data.transactionInfo?.webOrderLineItemId ?? "", eventDate: v1Time)
        }
        row.v1NotificationType = record.v1Type ?? ""
        row.expectedType = mapped.notificationType
        row.expectedSubtype = mapped.subtype ?? ""
        row.v1Source = v1Source
        row.productId = mapped.data.transactionInfo?.productId ?? ""
        row.bundleId = mapped.data.transactionInfo?.bundleId ?? mapped.data.bundleId ?? ""
        row.v1EventTimeInferred = record.inferredTime
        if fault != .dropV2 {
            fillV2(&row, v2)
        }
        return row
    }

    /// Completes a truth row from its V2 record: type, subtype, UUID, signedDate, and product and bundle where the V1
    /// side left them empty.
    private static func fillV2(_ row: inout TruthRow, _ v2: SimulatedV2Notification) {
        row.v2NotificationType = v2.notificationType
        row.v2Subtype = v2.subtype ?? ""
        row.v2NotificationUUID = v2.notificationUUID
        if row.productId.isEmpty { row.productId = v2.transaction?.productId ?? "" }
        if row.bundleId.isEmpty { row.bundleId = v2.transaction?.bundleId ?? SimulatedProduct.bundleId }
        row.v2SignedDate = v2.signedDate
    }

    // MARK: - Eligibility

    /// How far inside the simulated span a dropped record must lie: `reconcile`'s default window, plus an hour for the
    /// V2 delay of the edge events.
    static let edgeMargin = ReconcileOptions().window + SimulationCalendar.hour

    /// Whether every time of the record lies more than `edgeMargin` inside `edges`, so that reconcile judges its
    /// unpaired twin missing rather than pending.
    private static func clearOfEdges(_ record: SimulatedRecord, _ edges: ClosedRange<Int64>) -> Bool {
        let times = [record.time, record.v1Mapped?.signedDate, record.v2?.signedDate].compactMap { $0 }
        return times.allSatisfy { $0 - edgeMargin > edges.lowerBound && $0 + edgeMargin < edges.upperBound }
    }

    private static func eligible(
        _ record: SimulatedRecord, sensitive: [String: [Int64]], latestPurchase: [String: Int64],
        perturbed: [String: [Int64]]
    ) -> Bool {
        guard record.role == .twin, let key = record.originalTransactionId, let v2 = record.v2,
            let mapped = record.v1Mapped,
            record.v1Line != nil, record.v1Retries == 0, record.v2Retries == 0, !record.late, !record.inferredTime,
            !record.hasCompanion,
            let purchase = mapped.data.transactionInfo?.purchaseDate, let v2Purchase = v2.transaction?.purchaseDate,
            let latest = latestPurchase[key], max(purchase, v2Purchase) < latest
        else { return false }
        let kind = NotificationKind(v2.notificationType, v2.subtype)
        guard !kind.isV2OnlyExpected(ownership: v2.transaction?.inAppOwnershipType, hasOriginalTransactionId: true)
        else { return false }
        let times = [record.time, mapped.signedDate ?? record.time, v2.signedDate]
        for t in times {
            if (sensitive[key] ?? []).contains(where: { abs($0 - t) <= 3 * day }) { return false }
            if (perturbed[key] ?? []).contains(where: { abs($0 - t) <= 5 * day }) { return false }
        }
        return true
    }

    // MARK: - Fields

    /// A compared field of a V2 notification, rendered as in the reports.
    static func value(of field: String, in n: SimulatedV2Notification) -> String? {
        value(of: field, in: n.transaction, n.renewal)
    }

    /// A compared field of a transaction / renewal info pair, rendered as the reports render it (dates ISO 8601,
    /// booleans true/false, codes as digits): read by the compared-field table; nil when absent.
    static func value(of field: String, in t: JWSTransactionDecodedPayload?, _ r: JWSRenewalInfoDecodedPayload?)
        -> String?
    {
        guard let compared = ComparedField(rawValue: field) else { return nil }
        var data = NotificationData()
        data.transactionInfo = t
        data.renewalInfo = r
        let value = compared.row.value(in: ResponseBodyV2DecodedPayload(notificationType: "", data: data))
        switch value {
        case .text(let text): return text.isEmpty ? nil : text
        case .date(nil), .number(nil), .flag(nil): return nil
        case .date, .number, .flag: return FieldComparison.cells(value, value, tolerance: 0).0
        }
    }

    /// Changes one field as its kind says (`FieldPerturbation`): dates 1 to 72 hours earlier, codes, flags and texts
    /// to another value.
    static func perturb(_ field: String, _ n: inout SimulatedV2Notification, random: inout SimulationRandom) {
        let earlier = random.int(in: 1...(72 * 3_600)) * 1_000
        guard let compared = ComparedField(rawValue: field),
            let change = FieldPerturbation(compared, earlier: earlier, setsAbsentFlag: false)
        else { return }
        change.apply(&n.transaction, &n.renewal, random: &random)
    }
}
