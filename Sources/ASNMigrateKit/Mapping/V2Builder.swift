/// Builds the V2-shaped payload (transaction info, renewal info, status) for a V1 notification and its matched rule.
package enum V2Builder {
    /// The V2 product type of auto-renewable subscriptions.
    package static let autoRenewableType = "Auto-Renewable Subscription"

    /// The payload for a context and the rule that matched it.
    package static func build(context c: MappingContext, rule: MappingRule, uuid: String, location: SourceLocation)
        -> ResponseBodyV2DecodedPayload
    {
        let body = c.body
        let environment = EnvironmentName.normalized(body.environmentRaw)
        // For an upgrade, V2 carries the new (upgraded-to) transaction; otherwise the relevant one.
        let isUpgrade = carriesNewestTransaction(rule)
        let source = isUpgrade ? (c.newest ?? c.relevant) : c.relevant

        var data = NotificationData()
        data.bundleId = body.bid ?? source?.bid ?? c.history.last(where: { $0.bid != nil })?.bid
        data.bundleVersion = body.bvrs ?? source?.bvrs ?? c.history.last(where: { $0.bvrs != nil })?.bvrs
        data.environment = environment

        if let source {
            data.transactionInfo = transaction(source, bundleId: data.bundleId, environment: environment, rule: rule)
        }
        if let info = data.transactionInfo, info.type == autoRenewableType {
            data.renewalInfo = renewal(c, environment: environment)
            data.status = status(info, renewal: data.renewalInfo, at: c.eventTime)
        } else if source == nil, c.pending != nil || body.autoRenewStatus != nil {
            data.renewalInfo = renewal(c, environment: environment)
        }

        return ResponseBodyV2DecodedPayload(
            notificationType: rule.v2Type,
            subtype: rule.v2Subtype,
            notificationUUID: uuid,
            version: payloadVersion,
            signedDate: c.eventTime,
            data: data,
            migration: MigrationInfo(
                source: location.path, line: location.line, index: location.index,
                v1NotificationType: body.notificationType, ruleId: rule.id,
                eventTimeInferred: c.eventTimeInferred)
        )
    }

    // MARK: - Parts

    /// The V2 transaction for a V1 receipt entry.
    package static func transaction(_ t: LatestReceiptInfo, bundleId: String?, environment: String?, rule: MappingRule)
        -> JWSTransactionDecodedPayload
    {
        var v = JWSTransactionDecodedPayload()
        v.transactionId = t.transactionId
        v.originalTransactionId = t.originalTransactionId
        v.webOrderLineItemId = t.webOrderLineItemId
        v.bundleId = bundleId
        v.productId = t.productId
        v.subscriptionGroupIdentifier = t.subscriptionGroupIdentifier
        v.purchaseDate = t.purchaseDate
        v.originalPurchaseDate = t.originalPurchaseDate
        v.expiresDate = t.expiresDate
        v.quantity = t.quantity.flatMap { Int($0) }
        if t.expiresDate != nil || t.webOrderLineItemId != nil || t.subscriptionGroupIdentifier != nil {
            v.type = autoRenewableType
        }
        v.appAccountToken = t.appAccountToken
        v.inAppOwnershipType = t.inAppOwnershipType
        if t.isUpgraded == true {
            v.isUpgraded = true
        } else if let cancelled = t.cancellationDate {
            v.revocationDate = cancelled
            v.revocationReason = t.cancellationReason.flatMap { Int($0) }
        }
        if let code = t.offerCodeRefName {
            v.offerType = 3
            v.offerIdentifier = code
        } else if let promo = t.promotionalOfferId {
            v.offerType = 2
            v.offerIdentifier = promo
        } else if t.isTrialPeriod == true || t.isInIntroOfferPeriod == true {
            v.offerType = 1
        }
        if t.isTrialPeriod == true {
            v.offerDiscountType = freeTrialDiscount
        }
        v.environment = environment
        v.transactionReason = transactionReason(t, rule: rule)
        return v
    }

    /// V2 renewal info from the subscription's pending renewal entry (or legacy top-level fields).
    package static func renewal(_ c: MappingContext, environment: String?) -> JWSRenewalInfoDecodedPayload {
        var r = JWSRenewalInfoDecodedPayload()
        r.originalTransactionId = c.subscriptionId ?? c.pending?.originalTransactionId
        r.productId = c.pending?.productId ?? c.newest?.productId
        r.autoRenewProductId = c.autoRenewProductId
        r.autoRenewStatus = c.autoRenewStatus.map { $0 ? 1 : 0 }
        r.expirationIntent = c.expirationIntent.flatMap { Int($0) }
        r.gracePeriodExpiresDate = c.pending?.gracePeriodExpiresDate
        r.isInBillingRetryPeriod = c.isInBillingRetryPeriod
        r.priceIncreaseStatus = c.pending?.priceConsentStatus.flatMap { Int($0) }
        if let code = c.pending?.offerCodeRefName {
            r.offerType = 3
            r.offerIdentifier = code
        } else if let promo = c.pending?.promotionalOfferId {
            r.offerType = 2
            r.offerIdentifier = promo
        }
        r.renewalDate = c.newest?.expiresDate
        r.recentSubscriptionStartDate = c.recentSubscriptionStartDate
        r.environment = environment
        return r
    }

    /// The V2 `status` at the event: the state the one rule (`SubscriptionStateRules.derive`) gives the record's one
    /// fact (`StateFact.record`: this transaction and this renewal info); without an event time, 5 for a revoked
    /// transaction, else nil.
    package static func status(
        _ t: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?, at event: Int64?
    ) -> Int? {
        guard t.expiresDate != nil else { return nil }
        guard let event else { return t.revocationDate != nil ? SubscriptionStatus.revoked.rawValue : nil }
        let fact = StateFact.record(
            time: event,
            transaction: .init(
                transactionId: t.transactionId, purchaseDate: t.purchaseDate ?? Int64.min,
                expiresDate: t.expiresDate, revocationDate: t.revocationDate, productId: t.productId),
            renewal: StateFact.Renewal(
                autoRenewStatus: renewal?.autoRenewStatus, autoRenewProductId: renewal?.autoRenewProductId,
                gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate,
                isInBillingRetryPeriod: renewal?.isInBillingRetryPeriod))
        return fact.flatMap { SubscriptionStateRules.derive(CollectionOfOne($0), at: event) }?.status.rawValue
    }

    // MARK: - Private

    private static func transactionReason(_ t: LatestReceiptInfo, rule: MappingRule) -> String? {
        if let reason = ruleTransactionReason(rule) { return reason }
        if let id = t.transactionId, id == t.originalTransactionId { return purchaseReason }
        return nil
    }

    // MARK: - Shared with the fast path

    /// The `version` of every payload `migrate` writes.
    package static let payloadVersion = "2.0"
    /// `transactionReason` of a subscription's first purchase (its transaction id is its original one).
    package static let purchaseReason = "PURCHASE"
    /// `offerDiscountType` of a free trial.
    package static let freeTrialDiscount = "FREE_TRIAL"

    /// The `transactionReason` every transaction `rule` maps gets, or nil when it depends on the transaction
    /// (`purchaseReason` for a subscription's first, else none).
    package static func ruleTransactionReason(_ rule: MappingRule) -> String? {
        switch rule.v2Type {
        case "SUBSCRIBED", "OFFER_REDEEMED": return purchaseReason
        case "DID_RENEW": return "RENEWAL"
        case "DID_CHANGE_RENEWAL_PREF" where rule.v2Subtype == "UPGRADE": return purchaseReason
        default: return nil
        }
    }

    /// Whether `rule` maps onto the subscription's newest transaction (an upgrade carries the upgraded-to one)
    /// rather than the relevant one.
    package static func carriesNewestTransaction(_ rule: MappingRule) -> Bool {
        rule.v2Subtype == "UPGRADE"
    }
}
