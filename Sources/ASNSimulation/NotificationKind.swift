import ASNMigrateKit

/// A V2 `notificationType` and optional `subtype`.
package struct NotificationKind: Sendable, Hashable, CustomStringConvertible {
    /// `notificationType`.
    package var type: String
    /// `subtype`, nil when none.
    package var subtype: String?

    /// Creates a kind.
    package init(_ type: String, _ subtype: String? = nil) {
        self.type = type
        self.subtype = subtype
    }

    /// `TYPE/SUBTYPE` or `TYPE`.
    package var description: String {
        subtype.map { "\(type)/\($0)" } ?? type
    }

    /// Whether `reconcile` counts an unpaired V2 record of this kind as `v2_only_expected` (Mappings/v2-only.rules):
    /// a type V1 never announced, one V1 sent to purchasers only on a FAMILY_SHARED record, or one without a subscription (TEST).
    package func isV2OnlyExpected(ownership: String?, hasOriginalTransactionId: Bool) -> Bool {
        if !hasOriginalTransactionId { return true }
        switch type {
        case "GRACE_PERIOD_EXPIRED", "REFUND_DECLINED", "REFUND_REVERSED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION",
            "EXTERNAL_PURCHASE_TOKEN", "TEST", "ONE_TIME_CHARGE", "METADATA_UPDATE", "MIGRATION", "MIGRATE",
            "PRICE_CHANGE",
            "RESCIND_CONSENT":
            return true
        case "EXPIRED" where subtype == "VOLUNTARY", "PRICE_INCREASE" where subtype == "ACCEPTED":
            return true
        default:
            break
        }
        guard ownership == "FAMILY_SHARED" else { return false }
        return (type == "SUBSCRIBED" && subtype == "INITIAL_BUY") || type == "REFUND" || type == "PRICE_INCREASE"
    }
}
