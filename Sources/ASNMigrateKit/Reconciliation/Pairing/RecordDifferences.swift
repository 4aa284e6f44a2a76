/// Turns the records' fates into difference rows (`differences.csv`) and pending rows (`pending.csv`).
///
/// A V1 record gives `missing_in_v2`, `pending_in_v2`, `unmapped_v1`, `type_mismatch`, or one `field_mismatch` per
/// compared field that both members of a matched pair carry with different values; a V2 record gives
/// `missing_in_v1` or `pending_in_v1`. Other fates give no row.
struct RecordDifferences: Sendable {
    /// Difference rows, V1 records' first, each side in input order (sorted later).
    var differences: [Discrepancy] = []
    /// Pending rows, in the same order.
    var pending: [Discrepancy] = []

    /// The rows of `pairing`'s fates, comparing `fields` in matched pairs.
    init(_ pairing: RecordPairing, fields: [ComparedField], timeTolerance: Int64 = 0) {
        let v1 = pairing.inputs.v1Records
        let v2 = pairing.inputs.v2Records
        let rows = RowBuilder(pool: pairing.inputs.pool)
        for i in v1.indices {
            let a = v1[i]
            switch pairing.v1Fates[i] {
            case .missing:
                differences.append(rows.withV1(rows.base(a, .missingInV2), a))
            case .pending:
                pending.append(rows.withV1(rows.base(a, .pendingInV2), a))
            case .unmapped:
                differences.append(rows.withV1(rows.base(a, .unmappedV1), a))
            case .typeMismatch:
                let b = v2[Int(pairing.v1Partner[i])]
                differences.append(rows.withV2(rows.withV1(rows.base(a, .typeMismatch), a), b))
            case .matched:
                let j = Int(pairing.v1Partner[i])
                guard pairing.v2Fates[j] == .matched else { break }
                let b = v2[j]
                for field in fields
                where a.fields.has(field) && b.fields.has(field) && !a.fields.same(field, as: b.fields) {
                    if field.usesTimeTolerance,
                        TimeTolerance.equal(a.fields.date(field), b.fields.date(field), tolerance: timeTolerance)
                    {
                        continue
                    }
                    var d = rows.withV2(rows.withV1(rows.base(a, .fieldMismatch), a), b)
                    d.field = field.rawValue
                    d.v1Value = a.fields.text(field, pool: pairing.inputs.pool) ?? ""
                    d.v2Value = b.fields.text(field, pool: pairing.inputs.pool) ?? ""
                    differences.append(d)
                }
            default:
                break
            }
        }
        for j in v2.indices {
            switch pairing.v2Fates[j] {
            case .missing: differences.append(rows.withV2(rows.base(v2[j], .missingInV1), v2[j]))
            case .pending: pending.append(rows.withV2(rows.base(v2[j], .pendingInV1), v2[j]))
            default: break
            }
        }
    }

    /// Fills a row's cells from compact records.
    private struct RowBuilder {
        /// The records' interned texts.
        let pool: StringPool

        /// A row of `kind` with the record's subscription, webOrderLineItemId and event time.
        func base(_ r: ReconRecord, _ kind: Discrepancy.Kind) -> Discrepancy {
            var d = Discrepancy(kind: kind)
            d.environment = pool.string(r.environment)
            d.originalTransactionId = pool.string(r.key)
            d.webOrderLineItemId = pool.string(r.fields.token(.webOrderLineItemId))
            d.eventDate = r.hasTime ? r.time : nil
            return d
        }

        /// `d` with the V1 record's cells.
        func withV1(_ d: Discrepancy, _ r: ReconRecord) -> Discrepancy {
            var d = d
            d.v1NotificationType = pool.string(r.v1Type)
            d.expectedType = pool.string(r.type)
            d.expectedSubtype = pool.string(r.subtype)
            d.v1Source = r.sourceText(pool)
            d.productId = pool.string(r.fields.token(.productId))
            d.bundleId = pool.string(r.fields.token(.bundleId))
            d.v1EventTimeInferred = r.inferred
            return d
        }

        /// `d` with the V2 record's cells; the V1 side's product and bundle win when it has them (`withV1` runs first).
        func withV2(_ d: Discrepancy, _ r: ReconRecord) -> Discrepancy {
            var d = d
            d.v2NotificationType = pool.string(r.type)
            d.v2Subtype = pool.string(r.subtype)
            d.v2NotificationUUID = r.uuid.text(pool)
            if d.productId.isEmpty { d.productId = pool.string(r.fields.token(.productId)) }
            if d.bundleId.isEmpty { d.bundleId = pool.string(r.fields.token(.bundleId)) }
            d.v2SignedDate = r.hasTime ? r.time : nil
            return d
        }
    }
}
