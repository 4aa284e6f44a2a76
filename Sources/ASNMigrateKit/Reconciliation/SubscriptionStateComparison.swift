/// Compares each subscription's state at the period end as the V1 and as the V2 records imply it
/// (`SubscriptionStateDerivation`): the rows of `subscriptions.csv` and one `state_mismatch` difference per differing
/// item (productId, expiresDate, autoRenewStatus, active).
struct SubscriptionStateComparison: Sendable {
    /// One row per subscription whose state both sides give, sorted by environment and originalTransactionId (bytes).
    var rows: [ReconciliationResult.SubscriptionRow] = []
    /// The `state_mismatch` rows.
    var differences: [Discrepancy] = []

    /// Compares every group of `pairing`; nothing when the period has no end (no instant to compare at).
    init(_ pairing: RecordPairing, groups: [SubscriptionGroup.Key: SubscriptionGroup], period: ReconciliationPeriod) {
        guard period.isSet, period.end != Int64.max else { return }
        let pool = pairing.inputs.pool
        for (key, group) in groups {
            guard let s1 = Self.state(group.v1, of: pairing.inputs.v1Records, fates: pairing.v1Fates, at: period.end, pool: pool),
                  let s2 = Self.state(group.v2, of: pairing.inputs.v2Records, fates: pairing.v2Fates, at: period.end, pool: pool)
            else { continue }
            var items: [(field: String, v1: String, v2: String)] = []
            if s1.productId != s2.productId { items.append(("productId", s1.productId ?? "", s2.productId ?? "")) }
            if s1.expiresDate != s2.expiresDate {
                items.append(("expiresDate", s1.expiresDate.map(Timestamp.iso8601(ms:)) ?? "", s2.expiresDate.map(Timestamp.iso8601(ms:)) ?? ""))
            }
            if s1.autoRenewStatus != s2.autoRenewStatus {
                items.append(("autoRenewStatus", s1.autoRenewStatus.map(String.init) ?? "", s2.autoRenewStatus.map(String.init) ?? ""))
            }
            if s1.active != s2.active { items.append(("active", String(s1.active), String(s2.active))) }
            let environment = pool.string(key.environment), id = pool.string(key.originalTransactionId)
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
            rows.append(.init(environment: environment, originalTransactionId: id, v1: s1, v2: s2, mismatches: items.map(\.field)))
        }
        rows.sort { UTF8Order.precedes([$0.environment, $0.originalTransactionId], [$1.environment, $1.originalTransactionId]) }
    }

    /// One side's state at `instant`, from the records judged (pending, out-of-period and unmapped ones left out) that
    /// both sides could have: a V2-only notification (`v2OnlyExpected`: a renewal-date extension, an expiry, a refund
    /// reversal) tells what V1 by design never hears of until a later notification, so its facts are not compared.
    private static func state(_ ids: [Int32], of records: ChunkedArray<ReconRecord>, fates: [RecordFate], at instant: Int64, pool: StringPool) -> SubscriptionState? {
        let judged = ids.compactMap { id -> ReconRecord? in
            let r = records[Int(id)]
            switch fates[Int(id)] {
            case .outOfPeriod, .pending, .unmapped, .open, .v2OnlyExpected: return nil
            default: return r.unmapped ? nil : r
            }
        }
        return SubscriptionStateDerivation.state(judged, at: instant, pool: pool)
    }
}
