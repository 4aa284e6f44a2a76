/// Compares each subscription's state at the period end as the V1 and as the V2 records imply it
/// (`SubscriptionStateRules`, `KnowledgeRule`): the rows of `subscriptions.csv` and one `state_mismatch` difference per
/// differing item (the table's `ComparedField.notificationStateFields`: productId, expiresDate, autoRenewStatus; then
/// active), less the fields `--ignore-field` drops.
struct SubscriptionStateComparison: Sendable {
    /// One row per subscription whose state both sides give, sorted by environment and originalTransactionId (bytes).
    var rows: [ReconciliationResult.SubscriptionRow] = []
    /// The `state_mismatch` rows.
    var differences: [Discrepancy] = []

    /// Compares every group of `pairing`; nothing when the period has no end (no instant to compare at).
    init(
        _ pairing: RecordPairing, groups: [SubscriptionGroup.Key: SubscriptionGroup], period: ReconciliationPeriod,
        fields: [ComparedField] = ComparedField.defaultFields, timeTolerance: Int64 = 0
    ) {
        guard period.isSet, period.end != Int64.max else { return }
        let pool = pairing.inputs.pool
        for (key, group) in groups {
            let v1Facts = Self.facts(group.v1, of: pairing.inputs.v1Records, fates: pairing.v1Fates, pool: pool)
            let v2Facts = Self.facts(group.v2, of: pairing.inputs.v2Records, fates: pairing.v2Fates, pool: pool)
            guard let s1 = SubscriptionStateRules.derive(v1Facts, at: period.end),
                let s2 = SubscriptionStateRules.derive(v2Facts, at: period.end)
            else { continue }
            // V2's state without its V2-only records, only where there are any (the knowledge rule compares the two).
            let v2OnlyNewest = v2Facts.lazy.filter(\.v2Only).map(\.time).max()
            let unknowable =
                v2OnlyNewest == nil
                ? []
                : KnowledgeRule.unknowable(
                    v2All: s2, v2Ordinary: SubscriptionStateRules.derive(v2Facts.filter { !$0.v2Only }, at: period.end),
                    v2OnlyNewest: v2OnlyNewest, v1Newest: v1Facts.lazy.map(\.time).max())
            var items: [(field: String, v1: String, v2: String)] = []
            for field in ComparedField.notificationStateFields where fields.contains(field) {
                guard !unknowable.contains(field.rawValue), let item = field.state,
                    let (v1, v2) = FieldComparison.difference(item.read(s1), item.read(s2), tolerance: timeTolerance)
                else { continue }
                items.append((field.rawValue, v1, v2))
            }
            if let (v1, v2) = FieldComparison.difference(.flag(s1.active), .flag(s2.active), tolerance: 0),
                !unknowable.contains("active")
            {
                items.append(("active", v1, v2))
            }
            let environment = pool.string(key.environment)
            let id = pool.string(key.originalTransactionId)
            for item in items {
                var d = Discrepancy(kind: .stateMismatch)
                d.environment = environment
                d.originalTransactionId = id
                d.eventDate = period.end
                d.field = item.field
                d.v1Value = item.v1
                d.v2Value = item.v2
                d.productId = [s1.productId, s2.productId].compactMap { $0 }.first { !$0.isEmpty } ?? ""
                differences.append(d)
            }
            rows.append(
                .init(
                    environment: environment, originalTransactionId: id, v1: s1, v2: s2, mismatches: items.map(\.field))
            )
        }
        rows.sort {
            UTF8Order.precedes(($0.environment, $0.originalTransactionId), ($1.environment, $1.originalTransactionId))
        }
    }

    /// The state facts of the records judged (pending, out-of-period and unmapped ones left out); a V2-only record
    /// (`v2OnlyExpected`) is kept and marked, for `KnowledgeRule`.
    private static func facts(
        _ ids: [Int32], of records: ChunkedArray<ReconRecord>, fates: [RecordFate], pool: StringPool
    ) -> [StateFact] {
        ids.compactMap { id -> StateFact? in
            let r = records[Int(id)]
            let fate = fates[Int(id)]
            switch fate {
            case .outOfPeriod, .pending, .unmapped, .open: return nil
            default: return r.unmapped ? nil : r.stateFact(pool, v2Only: fate == .v2OnlyExpected)
            }
        }
    }
}

extension ReconRecord {
    /// The record's facts for the state rules (`StateFact.record`): its one transaction and its renewal facts; nil
    /// without an event time.
    func stateFact(_ pool: StringPool, v2Only: Bool) -> StateFact? {
        let f = fields
        var transactions: [StateFact.Transaction] = []
        if f.date(.purchaseDate) != nil || f.date(.expiresDate) != nil || f.token(.transactionId) != 0 {
            transactions.append(
                .init(
                    transactionId: pool.text(f.token(.transactionId)), purchaseDate: f.date(.purchaseDate) ?? Int64.min,
                    expiresDate: f.date(.expiresDate), revocationDate: f.date(.revocationDate),
                    productId: pool.text(f.token(.productId))))
        }
        return StateFact.record(
            time: time, transactions: transactions, own: transactions.isEmpty ? nil : 0,
            renewal: StateFact.Renewal(
                autoRenewStatus: f.number(.autoRenewStatus),
                autoRenewProductId: pool.text(f.token(.autoRenewProductId)),
                gracePeriodExpiresDate: f.date(.gracePeriodExpiresDate),
                isInBillingRetryPeriod: f.flag(.isInBillingRetryPeriod)),
            v2Only: v2Only)
    }
}
