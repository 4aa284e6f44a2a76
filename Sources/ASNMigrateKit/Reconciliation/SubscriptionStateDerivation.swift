/// Derives one side's subscription state at an instant from the facts its judged records carry.
///
/// Facts about one transaction only grow, whatever order the records were delivered in (a late retry carries an old
/// snapshot of the receipt):
/// - the latest transaction is the one with the greatest `purchaseDate` any record shows;
/// - its `expiresDate` is the latest any record shows for it (an extension or a renewal date only moves forward);
/// - it is revoked when any record shows a `revocationDate` for it, and that stands;
/// - its `productId` and the renewal facts (`autoRenewStatus`, `gracePeriodExpiresDate`) come from the record with the
///   newest knowledge: the one whose transaction is the newest, then that knows of a revocation, then with the later
///   `expiresDate`, and only then the later event time.
/// Active means the expiry lies after the instant and the transaction is not revoked, or a grace period runs past it.
enum SubscriptionStateDerivation {
    /// The state at `instant`, or nil when no record gives the latest transaction an `expiresDate` (consumables).
    static func state(_ records: [ReconRecord], at instant: Int64, pool: StringPool) -> SubscriptionState? {
        let noDate = FieldValues.noDate
        let latestPurchase = records.reduce(noDate) { Swift.max($0, $1.fields.purchaseDate) }
        guard latestPurchase != noDate else { return nil }
        let transaction = records.filter { $0.fields.purchaseDate == latestPurchase }
        let expires = transaction.reduce(noDate) { Swift.max($0, $1.fields.expiresDate) }
        guard expires != noDate, let known = newest(transaction) else { return nil }
        let revoked = transaction.contains { $0.fields.revocationDate != noDate }
        let renewal = newest(records.filter(\.hasAutoRenewStatus))
        let grace = renewal?.fields.gracePeriodExpiresDate ?? noDate
        let active = (expires > instant && !revoked) || (grace != noDate && grace > instant)
        return SubscriptionState(productId: pool.text(known.fields.productId), expiresDate: expires,
                                 autoRenewStatus: renewal.map { Int($0.fields.autoRenewStatus) }, active: active)
    }

    /// The record with the newest knowledge; among equals the last in input order (the later delivery).
    static func newest(_ records: [ReconRecord]) -> ReconRecord? {
        var best: ReconRecord?
        for r in records where best.map({ !knowsLess(r, $0) }) ?? true { best = r }
        return best
    }

    /// True when `a` knows less than `b`: an older transaction, no revocation where `b` has one, an earlier expiry,
    /// then an earlier event time.
    static func knowsLess(_ a: ReconRecord, _ b: ReconRecord) -> Bool {
        let revokedA = a.fields.revocationDate != FieldValues.noDate, revokedB = b.fields.revocationDate != FieldValues.noDate
        if a.fields.purchaseDate != b.fields.purchaseDate { return a.fields.purchaseDate < b.fields.purchaseDate }
        if revokedA != revokedB { return !revokedA }
        if a.fields.expiresDate != b.fields.expiresDate { return a.fields.expiresDate < b.fields.expiresDate }
        return a.time < b.time
    }
}
