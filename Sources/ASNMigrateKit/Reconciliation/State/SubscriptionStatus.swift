/// Apple's auto-renewable subscription `status` (1–5), and the one rule that derives it from a subscription's facts.
///
/// Apple, *status* (`../shared/spec/app-store-server-notifications-v1-and-v2.txt`, "int32 status", Possible Values):
/// "1 The auto-renewable subscription is active. 2 … expired. 3 … in a billing retry period. 4 … in a Billing Grace
/// Period. 5 … revoked."
package enum SubscriptionStatus: Int, Sendable, Equatable, Comparable, CaseIterable {
    /// `1`: active.
    case active = 1
    /// `2`: expired.
    case expired = 2
    /// `3`: in a billing retry period.
    case billingRetry = 3
    /// `4`: in a Billing Grace Period.
    case gracePeriod = 4
    /// `5`: revoked.
    case revoked = 5

    /// How long Apple retries billing after a failed renewal, ms. Apple, `DID_FAIL_TO_RENEW`: "The App Store continues
    /// to retry billing for 60 days, or until the user resolves their billing issue or cancels their subscription,
    /// whichever comes first."
    package static let billingRetryLimit: Int64 = 60 * 86_400_000

    /// The status in words, as `report.html` shows it beside the code: `active`, `expired`, `billing retry`,
    /// `grace period`, `revoked`.
    package var words: String {
        switch self {
        case .active: return "active"
        case .expired: return "expired"
        case .billingRetry: return "billing retry"
        case .gracePeriod: return "grace period"
        case .revoked: return "revoked"
        }
    }

    /// Orders by Apple's code.
    package static func < (a: SubscriptionStatus, b: SubscriptionStatus) -> Bool { a.rawValue < b.rawValue }

    /// Whether the customer has service: active, or in a billing grace period (Apple, `DID_FAIL_TO_RENEW`: "If the
    /// `subtype` is `GRACE_PERIOD`, continue to provide service through the grace period").
    package var providesService: Bool { self == .active || self == .gracePeriod }

    /// The status at `instant` of a subscription whose latest transaction expires at `expires` (nil: not a
    /// subscription) and is revoked at `revoked`, with the renewal facts of its newest renewal info.
    ///
    /// - revoked when the latest transaction's revocation lies at or before the instant;
    /// - active while it has not expired;
    /// - in a grace period while `gracePeriodExpiresDate` lies after the instant;
    /// - in billing retry while the renewal info says so and fewer than 60 days passed since the expiry (Apple's
    ///   maximum; a recovery or any later renewal is a newer transaction whose renewal info no longer carries the flag,
    ///   Apple V1 *is_in_billing_retry_period*: "This field is only present if an auto-renewable subscription is in
    ///   the billing retry state");
    /// - else expired.
    package static func at(
        _ instant: Int64, expires: Int64?, revoked: Int64?, gracePeriodExpires: Int64?, billingRetry: Bool?
    ) -> SubscriptionStatus? {
        guard let expires else { return nil }
        if let revoked, revoked <= instant { return .revoked }
        if expires > instant { return .active }
        if let grace = gracePeriodExpires, grace > instant { return .gracePeriod }
        if billingRetry == true, instant < expires &+ billingRetryLimit { return .billingRetry }
        return .expired
    }
}
