extension StateFact {
    /// The one reading of a record for the state rules, the same in every mode (`migrate`'s `status`, notification
    /// pairing and `subscriptions.csv`, `nightly`'s stored facts, the API-view comparison): the transactions the record
    /// shows (a V1 receipt entry read by `Transaction.init(v1:)`), the position of the one it is about, and its renewal
    /// facts, which count as renewal info when they state any of the four (`Renewal.stated`); nil without a time.
    package static func record(
        time: Int64?, moment: Int64? = nil, transactions: [Transaction], own: Int?, renewal: Renewal,
        v2Only: Bool = false
    ) -> StateFact? {
        guard let time else { return nil }
        return StateFact(
            time: time, transactions: transactions, own: own, renewal: renewal.stated, v2Only: v2Only, moment: moment)
    }

    /// `record` of a record that shows at most one transaction, the one it is about (a notification's, as notification
    /// pairing reads it): the same facts, with the transaction held inline.
    package static func record(
        time: Int64?, transaction: Transaction?, renewal: Renewal, v2Only: Bool = false
    ) -> StateFact? {
        guard let time else { return nil }
        return StateFact(
            time: time, transactions: Transactions(transaction), own: transaction == nil ? nil : 0,
            renewal: renewal.stated, v2Only: v2Only)
    }
}

extension StateFact.Transaction {
    /// A V1 receipt entry's facts: an upgraded transaction's `cancellation_date` is the upgrade, not a revocation
    /// (as `V2Builder.transaction` maps it); an entry without `purchase_date` is kept, oldest of all.
    package init(v1 entry: LatestReceiptInfo) {
        self.init(
            transactionId: entry.transactionId, purchaseDate: entry.purchaseDate ?? Int64.min,
            expiresDate: entry.expiresDate, revocationDate: entry.isUpgraded == true ? nil : entry.cancellationDate,
            productId: entry.productId)
    }
}

extension StateFact.Renewal {
    /// These facts as renewal info, or nil when they state none of the four. Apple gives each field of
    /// `pending_renewal_info` and `JWSRenewalInfoDecodedPayload` optionally, `auto_renew_status` included
    /// (`../shared/spec/renewal-info-fields-summary.txt`), so a renewal info that states only a grace period, a billing
    /// retry or the next product is still the newest renewal info, and one without grace or retry ends them.
    package var stated: StateFact.Renewal? {
        autoRenewStatus != nil || autoRenewProductId != nil || gracePeriodExpiresDate != nil
            || isInBillingRetryPeriod != nil ? self : nil
    }
}
