/// Compares each subscription's state at the period end as the V1 and as the V2 records imply it
/// (`SubscriptionStateRules`, `KnowledgeRule`): the rows of `subscriptions.csv` and one `state_mismatch` difference per
/// differing item (the table's `ComparedField.notificationStateFields`: productId, expiresDate, autoRenewStatus; then
/// active), less the fields `--ignore-field` drops.
struct SubscriptionStateComparison: Sendable {
    /// One row per subscription whose state both sides give, sorted by environment and originalTransactionId (bytes).
    var rows: [ReconciliationResult.SubscriptionRow] = []
    /// The `state_mismatch` rows.
    var differences: [Discrepancy] = []

    /// The state items the knowledge rule weighs: the table's state items compared in notifications, then `active`;
    /// each with its value in a state, nil when absent.
    static let knowledgeItems: [(name: String, value: @Sendable (SubscriptionState) -> ComparedValue?)] =
        ComparedField.notificationStateFields.compactMap { field in
            field.state.map { item in (field.rawValue, { item.read($0).present }) }
        } + [("active", { .flag($0.active) })]

    /// Compares every group of `pairing`; nothing when the period has no end (no instant to compare at).
    init(
        _ pairing: RecordPairing, groups: SubscriptionGroups, period: ReconciliationPeriod,
        fields: [ComparedField] = ComparedField.defaultFields, timeTolerance: Int64 = 0
    ) {
        guard period.isSet, period.end != Int64.max else { return }
        let (pool, v1Records, v2Records) = (pairing.inputs.pool, pairing.inputs.v1Records, pairing.inputs.v2Records)
        // One of each list and table for every group: a group's facts are dropped before the next group's are read.
        var v1Facts: [StateFact] = []
        var v2Facts: [StateFact] = []
        var scratch = SubscriptionStateRules.Scratch()
        for group in 0..<groups.count {
            Self.facts(groups.v1(group), of: v1Records, fates: pairing.v1Fates, pool: pool, into: &v1Facts)
            Self.facts(groups.v2(group), of: v2Records, fates: pairing.v2Fates, pool: pool, into: &v2Facts)
            guard let s1 = SubscriptionStateRules.derive(v1Facts, at: period.end, reusing: &scratch),
                let s2 = SubscriptionStateRules.derive(v2Facts, at: period.end, reusing: &scratch)
            else { continue }
            // V2's state without its V2-only records, only where there are any (the knowledge rule compares the two).
            let v2OnlyNewest = v2Facts.lazy.filter(\.v2Only).map(\.time).max()
            let unknowable =
                v2OnlyNewest == nil
                ? []
                : KnowledgeRule.unknowable(
                    Self.knowledgeItems, v2All: s2,
                    v2Ordinary: SubscriptionStateRules.derive(
                        v2Facts.lazy.filter { !$0.v2Only }, at: period.end, reusing: &scratch),
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
            let key = groups.keys[group]
            let environment = pool.string(key.environment)
            let id = pool.string(key.originalTransactionId)
            // The moment the states were last set: the newest record either state rests on (never after the end).
            let newest = [v1Facts.lazy.map(\.time).max(), v2Facts.lazy.map(\.time).max()].compactMap { $0 }.max()
            let moment = Swift.min(newest ?? period.end, period.end)
            for item in items {
                var d = Discrepancy(kind: .stateMismatch)
                d.environment = environment
                d.originalTransactionId = id
                d.eventDate = moment
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

    /// Replaces `facts` with the state facts of the records judged (pending, out-of-period and unmapped ones left
    /// out); a V2-only record (`v2OnlyExpected`) is kept and marked, for `KnowledgeRule`.
    private static func facts(
        _ ids: ArraySlice<Int32>, of records: ChunkedArray<ReconRecord>, fates: [RecordFate], pool: StringPool,
        into facts: inout [StateFact]
    ) {
        facts.removeAll(keepingCapacity: true)
        for id in ids {
            let r = records[Int(id)]
            let fate = fates[Int(id)]
            switch fate {
            case .outOfPeriod, .pending, .unmapped, .open: continue
            default:
                guard !r.unmapped, let fact = r.stateFact(pool, v2Only: fate == .v2OnlyExpected) else { continue }
                facts.append(fact)
            }
        }
    }
}

extension ReconRecord {
    /// The record's facts for the state rules (`StateFact.record`): its one transaction and its renewal facts; nil
    /// without an event time. Made from the interned values: a numeric transactionId stays a number.
    func stateFact(_ pool: StringPool, v2Only: Bool) -> StateFact? {
        let f = fields
        var transaction: StateFact.Transaction?
        if f.date(.purchaseDate) != nil || f.date(.expiresDate) != nil || f.token(.transactionId) != 0 {
            transaction = StateFact.Transaction(
                transactionID: pool.transactionID(f.token(.transactionId)),
                purchaseDate: f.date(.purchaseDate) ?? Int64.min, expiresDate: f.date(.expiresDate),
                revocationDate: f.date(.revocationDate), productId: pool.text(f.token(.productId)))
        }
        return StateFact.record(
            time: time, transaction: transaction,
            renewal: StateFact.Renewal(
                autoRenewStatus: f.number(.autoRenewStatus),
                autoRenewProductId: pool.text(f.token(.autoRenewProductId)),
                gracePeriodExpiresDate: f.date(.gracePeriodExpiresDate),
                isInBillingRetryPeriod: f.flag(.isInBillingRetryPeriod)),
            v2Only: v2Only)
    }
}
