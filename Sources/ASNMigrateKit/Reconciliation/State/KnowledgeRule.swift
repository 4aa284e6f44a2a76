/// What V1 could know by an instant, for comparing it with everything V2 knows.
///
/// V2 sends notifications V1 never had (`Mappings/v2-only.rules`: a renewal-date extension, a voluntary expiry, a
/// grace-period expiry, a refund reversal). V1 hears what they tell only with its next notification, whose receipt and
/// renewal info show it. So V2's state uses every record V2 has; a field whose V2 value comes from a V2-only record
/// (V2's ordinary records alone give another value) is left out of the comparison while no V1 record after that
/// V2-only record is known by the instant; everything else V2 knows is compared.
public enum KnowledgeRule {
    /// The names of the state items (`SubscriptionState`'s compared fields) V1 could not yet have heard of: those whose
    /// value in `v2All` differs from `v2Ordinary` (V2's records without the V2-only ones) when V1's newest known record
    /// (`v1Newest`) is not after the newest V2-only record (`v2OnlyNewest`).
    public static func unknowable(v2All: SubscriptionState?, v2Ordinary: SubscriptionState?, v2OnlyNewest: Int64?, v1Newest: Int64?) -> Set<String> {
        guard let v2OnlyNewest, let all = v2All else { return [] }
        if let v1Newest, v1Newest > v2OnlyNewest { return [] }
        var fields: Set<String> = []
        if all.productId != v2Ordinary?.productId { fields.insert("productId") }
        if all.expiresDate != v2Ordinary?.expiresDate { fields.insert("expiresDate") }
        if all.autoRenewStatus != v2Ordinary?.autoRenewStatus { fields.insert("autoRenewStatus") }
        if all.active != v2Ordinary?.active { fields.insert("active") }
        return fields
    }
}
