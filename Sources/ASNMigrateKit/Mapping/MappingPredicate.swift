/// The named conditions a mapping rule may test; each is documented in `Mappings/README.md`.
package enum MappingPredicate: String, Sendable, CaseIterable, Equatable {
    /// Always true.
    case always
    /// The relevant transaction has `offer_code_ref_name`.
    case offerCode = "offer-code"
    /// The relevant transaction has `promotional_offer_id` or `offer_code_ref_name`.
    case offer
    /// The subscription's transaction before the relevant one has `is_upgraded`, or had not expired at the new purchase.
    case upgrade
    /// The event time is before the `offer-resubscribe-cutoff` setting.
    case beforeOfferCutoff = "before-offer-cutoff"
    /// The renewal's `auto_renew_product_id` differs from the current `product_id`.
    case autoRenewProductDiffers = "auto-renew-product-differs"
    /// Auto-renew is on.
    case autoRenewOn = "auto-renew-on"
    /// Auto-renew is off.
    case autoRenewOff = "auto-renew-off"
    /// The relevant transaction's `expires_date_ms` ≤ the event time.
    case expiredAtEvent = "expired-at-event"
    /// `is_in_billing_retry_period` is true.
    case billingRetry = "billing-retry"
    /// `expiration_intent` equals the argument (`expiration-intent=1`).
    case expirationIntent = "expiration-intent"
    /// |relevant purchase − event| ≤ the `resubscribe-tolerance` setting.
    case purchasedNearEvent = "purchased-near-event"
    /// The subscription's transaction before the relevant one expired at or before the relevant purchase.
    case previousExpiredBeforePurchase = "previous-expired-before-purchase"
    /// `grace_period_expires_date_ms` is later than the event time.
    case gracePeriodAfterEvent = "grace-period-after-event"
    /// The cancelled transaction has `is_upgraded` true.
    case cancelledUpgraded = "cancelled-upgraded"
    /// `price_consent_status` equals the argument (`price-consent-status=1`).
    case priceConsentStatus = "price-consent-status"

    /// Whether the predicate takes an `=value` argument.
    package var takesArgument: Bool {
        self == .expirationIntent || self == .priceConsentStatus
    }
}

/// One term of a rule's condition: a predicate, maybe negated with `!`, maybe with an argument.
package struct MappingCondition: Sendable, Equatable, CustomStringConvertible {
    /// The predicate tested.
    package var predicate: MappingPredicate
    /// True when written `!name`.
    package var negated: Bool
    /// The `=value` argument, for predicates that take one.
    package var argument: String?

    /// Creates a condition term.
    package init(_ predicate: MappingPredicate, negated: Bool = false, argument: String? = nil) {
        self.predicate = predicate
        self.negated = negated
        self.argument = argument
    }

    /// The term as written in a rules file.
    package var description: String {
        (negated ? "!" : "") + predicate.rawValue + (argument.map { "=\($0)" } ?? "")
    }
}
