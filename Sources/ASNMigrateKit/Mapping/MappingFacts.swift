/// What the mapping rules' conditions read of a record, so `MappingEngine.holds` is one evaluation for the
/// context of any view of a record (`MappingContext`).
package protocol MappingFacts {
    /// The transaction the notification is about, as the conditions read it.
    var relevantTransaction: RuleTransaction? { get }
    /// The subscription's transaction just before the relevant one, as the conditions read it.
    var previousTransaction: RuleTransaction? { get }
    /// The event time (epoch ms), when one can be told.
    var eventTime: Int64? { get }
    /// Auto-renew status: top-level, else the pending renewal entry's.
    var autoRenewStatus: Bool? { get }
    /// `is_in_billing_retry_period`: the pending entry's, else top-level.
    var isInBillingRetryPeriod: Bool? { get }
    /// The pending renewal entry's `grace_period_expires_date`.
    var pendingGracePeriodExpiresDate: Int64? { get }
    /// Whether the product that renews next and the current product are both known and differ.
    var autoRenewProductDiffers: Bool { get }
    /// Whether `expiration_intent` equals `argument`, leading zeros aside (both absent counts as equal).
    func expirationIntentMatches(_ argument: String?) -> Bool
    /// Whether the pending entry's `price_consent_status` equals `argument`, leading zeros aside.
    func priceConsentStatusMatches(_ argument: String?) -> Bool
}

/// The facts of one transaction the rules' conditions read.
package struct RuleTransaction: Sendable, Equatable {
    /// `purchase_date`, ms.
    package var purchaseDate: Int64?
    /// `expires_date`, ms.
    package var expiresDate: Int64?
    /// `is_upgraded`.
    package var isUpgraded: Bool?
    /// Whether it names an `offer_code_ref_name`.
    package var hasOfferCode: Bool
    /// Whether it names a `promotional_offer_id`.
    package var hasPromotionalOffer: Bool

    /// The facts of a decoded V1 receipt entry.
    package init(_ t: LatestReceiptInfo) {
        self.init(
            purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, isUpgraded: t.isUpgraded,
            hasOfferCode: t.offerCodeRefName != nil, hasPromotionalOffer: t.promotionalOfferId != nil)
    }

    /// Facts given one by one.
    package init(
        purchaseDate: Int64?, expiresDate: Int64?, isUpgraded: Bool?, hasOfferCode: Bool, hasPromotionalOffer: Bool
    ) {
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.isUpgraded = isUpgraded
        self.hasOfferCode = hasOfferCode
        self.hasPromotionalOffer = hasPromotionalOffer
    }
}

extension MappingContext: MappingFacts {
    /// `relevant` as the conditions read it.
    package var relevantTransaction: RuleTransaction? { relevant.map(ruleTransaction) }
    /// `previous` as the conditions read it.
    package var previousTransaction: RuleTransaction? { previous.map(ruleTransaction) }
    /// `pending`'s grace period end.
    package var pendingGracePeriodExpiresDate: Int64? { gracePeriodExpiresDate }
    /// `autoRenewProductId` and `currentProductId` both known and different.
    package var autoRenewProductDiffers: Bool {
        guard let next = autoRenewProductId, let current = currentProductId else { return false }
        return !view.same(next, current)
    }

    /// `expirationIntent` against `argument`, leading zeros aside.
    package func expirationIntentMatches(_ argument: String?) -> Bool {
        view.digitsMatch(expirationIntent, argument)
    }

    /// `pending`'s `priceConsentStatus` against `argument`, leading zeros aside.
    package func priceConsentStatusMatches(_ argument: String?) -> Bool {
        view.digitsMatch(pending.flatMap { view.pendingText($0, .priceConsentStatus) }, argument)
    }

    /// Transaction `i` as the conditions read it.
    private func ruleTransaction(_ i: Int) -> RuleTransaction {
        RuleTransaction(
            purchaseDate: view.date(i, .purchaseDate), expiresDate: view.date(i, .expiresDate),
            isUpgraded: view.flag(i, .isUpgraded), hasOfferCode: view.text(i, .offerCodeRefName) != nil,
            hasPromotionalOffer: view.text(i, .promotionalOfferId) != nil)
    }
}
