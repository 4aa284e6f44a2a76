import ASNMigrateKit

/// Apple's V2 view of a simulated subscription, written from the lifecycle the simulator holds (its transactions, the
/// renewal chain, auto-renew, billing retry, grace period, price consent, refunds, revocations and upgrades), never
/// through the tool's mapping, status rules or merge: so `reconcile` on simulated data tests them.
///
/// Apple's documents decide each value (`../shared/spec/`): `status` is 1 active, 2 expired, 3 in billing retry, 4 in
/// a billing grace period, 5 revoked, as of the moment Apple signs; `recentSubscriptionStartDate` ignores lapses of
/// paid service shorter than 60 days; `renewalDate` is when the newest purchase expires. The model types are only
/// containers here, encoded by the shared JSON writer.
package enum LifecycleV2 {
    /// `type` of an auto-renewable subscription's transaction.
    package static let autoRenewableType = "Auto-Renewable Subscription"
    /// `type` of a consumable's transaction.
    package static let consumableType = "Consumable"
    /// `transactionReason` of a purchase the customer made (a first purchase, an upgrade, a resubscription).
    package static let purchaseReason = "PURCHASE"
    /// `transactionReason` of an automatic renewal (a renewal, a recovery after billing retry).
    package static let renewalReason = "RENEWAL"
    /// How long Apple retries billing after a failed renewal: past it, without a recovery, the subscription expired.
    package static let billingRetrySpan: Int64 = 60 * SimulationCalendar.day
    /// Lapses of paid service at least this long start a new series (`recentSubscriptionStartDate`).
    package static let seriesLapse: Int64 = 60 * SimulationCalendar.day
    /// The instant Apple stopped sending OFFER_REDEEMED / RESUBSCRIBE for a resubscription with an offer
    /// (2024-01-23T00:00:00.000Z); from then on it sends SUBSCRIBED / RESUBSCRIBE.
    package static let offerResubscribeCutoff: Int64 = 1_705_968_000_000

    /// Apple's status values (`status`).
    package enum Status: Int, Sendable, Equatable {
        /// The subscription is active.
        case active = 1
        /// The subscription expired.
        case expired = 2
        /// Apple is retrying billing, the service stopped.
        case billingRetry = 3
        /// Apple is retrying billing within a grace period, the service goes on.
        case gracePeriod = 4
        /// Apple refunded or revoked the subscription's transaction.
        case revoked = 5
    }

    /// The status at `instant` of a subscription whose latest transaction expires at `expires` and was refunded or
    /// revoked at `revoked`, with Apple retrying billing (`billingRetry`) until `gracePeriodExpires` in a grace period.
    package static func status(
        expires: Int64, revoked: Int64?, gracePeriodExpires: Int64?, billingRetry: Bool, at instant: Int64
    ) -> Status {
        if let revoked, revoked <= instant { return .revoked }
        if billingRetry {
            if let grace = gracePeriodExpires, grace > instant { return .gracePeriod }
            return instant < expires + billingRetrySpan ? .billingRetry : .expired
        }
        return expires > instant ? .active : .expired
    }

    /// The status at `instant` of the subscription a lifecycle holds (nil for a consumable purchase): its latest
    /// transaction's expiry and refund, and its billing retry.
    package static func status(of state: SimulatedSubscriptionState, at instant: Int64) -> Status? {
        guard state.isSubscription, let current = state.current, let expires = current.expiresDate else { return nil }
        return status(
            expires: expires, revoked: current.isUpgraded ? nil : current.cancellationDate,
            gracePeriodExpires: state.gracePeriodExpires, billingRetry: state.billingRetry == true, at: instant)
    }

    /// The status at `instant` of a subscription from the V2 values this type wrote for its latest transaction and
    /// renewal info (Apple's API view, which holds those); nil when the transaction is not auto-renewable.
    package static func status(
        _ t: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?, at instant: Int64
    ) -> Status? {
        guard t.type == autoRenewableType, let expires = t.expiresDate else { return nil }
        return status(
            expires: expires, revoked: t.revocationDate, gracePeriodExpires: renewal?.gracePeriodExpiresDate,
            billingRetry: renewal?.isInBillingRetryPeriod == true, at: instant)
    }

    /// The signed transaction info of a lifecycle's transaction: one line per field.
    package static func transaction(_ t: SimulatedTransaction, environment: SimulationEnvironment)
        -> JWSTransactionDecodedPayload
    {
        let subscription = t.expiresDate != nil
        let upgraded = t.isUpgraded
        var v = JWSTransactionDecodedPayload()
        v.transactionId = t.transactionId
        v.originalTransactionId = t.originalTransactionId
        v.webOrderLineItemId = t.webOrderLineItemId
        v.bundleId = SimulatedProduct.bundleId
        v.productId = t.product.id
        v.subscriptionGroupIdentifier = t.product.group
        v.purchaseDate = t.purchaseDate
        v.expiresDate = t.expiresDate
        v.quantity = 1
        v.type = subscription ? autoRenewableType : consumableType
        v.appAccountToken = t.appAccountToken
        v.inAppOwnershipType = t.ownership
        v.revocationReason = upgraded ? nil : t.cancellationReason.flatMap { Int($0) }
        v.revocationDate = upgraded ? nil : t.cancellationDate
        v.isUpgraded = upgraded ? true : nil
        if let code = t.offerCodeRefName {
            (v.offerType, v.offerIdentifier) = (3, code)
        } else if let promotion = t.promotionalOfferId {
            (v.offerType, v.offerIdentifier) = (2, promotion)
        } else if t.isTrialPeriod || t.isInIntroOfferPeriod {
            v.offerType = 1
        }
        v.offerDiscountType = t.isTrialPeriod ? "FREE_TRIAL" : nil
        v.environment = environment.rawValue
        v.transactionReason = t.isRenewal ? renewalReason : purchaseReason
        v.storefront = "USA"
        v.price = t.isTrialPeriod ? 0 : t.product.price
        v.currency = "USD"
        var carried = InlineArray<32, MemberValue?>(repeating: nil)
        for (key, value) in t.carried {
            if let at = carriedMembers[key], at < carried.count { carried[at] = value }
        }
        v.setMembers(carried)
        return v
    }

    /// The place, in Apple's transaction's member visit, of the member the field table makes from each receipt key a
    /// transaction's values may be carried under (`SimulatedTransaction.carried`).
    static let carriedMembers: [V1Key: Int] = {
        var places: [V1Key: Int] = [:]
        for field in V2FieldTable.all where field.path.hasPrefix("data.transactionInfo.") {
            guard field.sources.count == 1, case .receipt(let key) = field.sources[0],
                let at = JWSTransactionDecodedPayload.memberPosition(field.key)
            else { continue }
            places[key] = at
        }
        return places
    }()

    /// The signed renewal info of a subscription's lifecycle (nil for a consumable purchase): one line per field.
    package static func renewal(_ state: SimulatedSubscriptionState) -> JWSRenewalInfoDecodedPayload? {
        guard state.isSubscription else { return nil }
        var r = JWSRenewalInfoDecodedPayload()
        r.originalTransactionId = state.originalTransactionId
        r.productId = state.current?.product.id ?? state.autoRenewProductId
        r.autoRenewProductId = state.autoRenewProductId
        r.autoRenewStatus = state.autoRenewOn ? 1 : 0
        r.expirationIntent = state.expirationIntent.flatMap { Int($0) }
        r.gracePeriodExpiresDate = state.gracePeriodExpires
        r.isInBillingRetryPeriod = state.billingRetry
        r.priceIncreaseStatus = state.priceConsentStatus.flatMap { Int($0) }
        r.renewalDate = state.current?.expiresDate
        r.recentSubscriptionStartDate = recentSubscriptionStartDate(state.transactions)
        r.environment = state.environment.rawValue
        r.currency = "USD"
        r.renewalPrice = SimulatedProduct.named(state.autoRenewProductId)?.price
        return r
    }

    /// The first purchase of the newest series of `transactions` (oldest first): a series goes on over lapses of paid
    /// service (from an expiry, or an earlier refund or revocation, to the next purchase) shorter than `seriesLapse`.
    package static func recentSubscriptionStartDate(_ transactions: [SimulatedTransaction]) -> Int64? {
        guard var start = transactions.last?.purchaseDate else { return nil }
        for (earlier, later) in zip(transactions.dropLast(), transactions.dropFirst()).reversed() {
            guard let expires = earlier.expiresDate else { break }
            let served = earlier.isUpgraded ? expires : min(expires, earlier.cancellationDate ?? expires)
            guard later.purchaseDate - served < seriesLapse else { break }
            start = earlier.purchaseDate
        }
        return start
    }
}
