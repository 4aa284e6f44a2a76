/// What V1 could know by an instant, for comparing it with everything V2 knows.
///
/// V2 sends notifications V1 never had (`Mappings/v2-only.rules`: a renewal-date extension, a voluntary expiry, a
/// grace-period expiry, a refund reversal). V1 hears what they tell only with its next notification, whose receipt and
/// renewal info show it. So V2's state uses every record V2 has; a field whose V2 value comes from a V2-only record
/// (V2's ordinary records alone give another value) is left out of the comparison while no V1 record after that
/// V2-only record is known by the instant; everything else V2 knows is compared.
package enum KnowledgeRule {
    /// The names of the state items V1 could not yet have heard of: those of `items` (the compared fields' state items,
    /// from their table, which the caller passes in, and `active`; each a name and its value in a state, nil when the
    /// state does not hold it) whose value in `v2All` differs from `v2Ordinary` (V2's records without the V2-only
    /// ones; without that state, an item differs when `v2All` holds it) when V1's newest known record (`v1Newest`)
    /// is not after the newest V2-only record (`v2OnlyNewest`).
    package static func unknowable<Value: Equatable>(
        _ items: [(name: String, value: @Sendable (SubscriptionState) -> Value?)], v2All: SubscriptionState?,
        v2Ordinary: SubscriptionState?, v2OnlyNewest: Int64?, v1Newest: Int64?
    ) -> Set<String> {
        guard let v2OnlyNewest, let all = v2All else { return [] }
        if let v1Newest, v1Newest > v2OnlyNewest { return [] }
        var fields: Set<String> = []
        for item in items where item.value(all) != v2Ordinary.flatMap(item.value) { fields.insert(item.name) }
        return fields
    }

    /// The state items of Apple's status that V1 could not yet know at `instant`: Apple's latest transaction is the one
    /// V1 also knows as the latest, with a later expiry, and V1's newest record is from before the expiry it knows. That
    /// is a renewal-date extension (V2-only RENEWAL_EXTENDED, made before the transaction expires), which V1 hears of
    /// only with its next notification, so `expiresDate` is not compared, nor `status` when V1's status with Apple's
    /// expiry would equal Apple's. A V1 record from after the known expiry would have shown the extension.
    package static func unknowableInStatus(
        v1 mine: SubscriptionState, appleTransactionId: String?, appleExpires: Int64?, appleStatus: Int?,
        at instant: Int64
    ) -> Set<String> {
        guard let id = appleTransactionId, id == mine.transactionId, let extended = appleExpires,
            let known = mine.expiresDate, extended > known,
            let newest = mine.newestRecordTime, newest < known
        else { return [] }
        var fields: Set<String> = ["expiresDate"]
        let withExtension =
            mine.status == .revoked
            ? SubscriptionStatus.revoked
            : SubscriptionStatus.at(
                instant, expires: extended, revoked: nil, gracePeriodExpires: mine.gracePeriodExpiresDate,
                billingRetry: mine.isInBillingRetryPeriod) ?? mine.status
        if withExtension.rawValue == appleStatus { fields.insert("status") }
        return fields
    }
}
