/// Applies the mapping table to decoded V1 bodies: first matching rule wins; the result is a V2-shaped payload or an unmapped record.
package struct MappingEngine: Sendable {
    /// The outcome of mapping one V1 notification.
    package enum Outcome: Sendable, Equatable {
        /// Mapped onto a V2 type/subtype.
        case migrated(ResponseBodyV2DecodedPayload)
        /// No rule matched: kept, counted and reported, never a crash.
        case unmapped(UnmappedNotification)
    }

    /// The effective table.
    package let table: MappingTable

    /// Creates an engine over a table.
    package init(table: MappingTable) {
        self.table = table
    }

    // MARK: - Mapping

    /// Maps one decoded V1 body. `uuid` is its deterministic notificationUUID; `location` is where it was read.
    package func map(_ body: ResponseBodyV1, receivedAt: Int64?, uuid: String, location: SourceLocation) -> Outcome {
        let context = MappingContext(body: body, receivedAt: receivedAt)
        guard let rule = firstMatch(context) else {
            let known = !table.rules(forV1Type: body.notificationType).isEmpty
            return .unmapped(
                UnmappedNotification(
                    v1NotificationType: body.notificationType,
                    reason: known
                        ? "no rule for \(body.notificationType) matched this record (auto_renew_status missing?)"
                        : "V1 notification_type '\(body.notificationType)' has no mapping rule",
                    location: location,
                    notificationUUID: uuid,
                    environment: EnvironmentName.normalized(body.environmentRaw),
                    originalTransactionId: context.subscriptionId,
                    webOrderLineItemId: context.relevantEntry?.webOrderLineItemId,
                    eventTime: context.eventTime
                ))
        }
        let payload = V2Builder.build(context: context, rule: rule, uuid: uuid, location: location)
        return .migrated(payload)
    }

    /// The first rule whose V1 type and every condition hold, or nil.
    package func firstMatch(_ context: ModelContext) -> MappingRule? {
        let type = context.body.notificationType
        for rule in table.rules where rule.v1Types.contains(type) {
            if rule.conditions.allSatisfy({ holds($0, context) }) { return rule }
        }
        return nil
    }

    /// Whether one condition term holds for a record's facts; missing data makes a predicate false.
    package func holds<Facts: MappingFacts>(_ condition: MappingCondition, _ c: Facts) -> Bool {
        let value = evaluate(condition, c)
        return condition.negated ? !value : value
    }

    // MARK: - Private

    private func evaluate<Facts: MappingFacts>(_ condition: MappingCondition, _ c: Facts) -> Bool {
        let settings = table.settings
        switch condition.predicate {
        case .always:
            return true
        case .offerCode:
            return c.relevantTransaction?.hasOfferCode == true
        case .offer:
            guard let relevant = c.relevantTransaction else { return false }
            return relevant.hasOfferCode || relevant.hasPromotionalOffer
        case .upgrade:
            guard let previous = c.previousTransaction else { return false }
            if previous.isUpgraded == true { return true }
            guard let expires = previous.expiresDate, let purchase = c.relevantTransaction?.purchaseDate else {
                return false
            }
            return expires > purchase
        case .beforeOfferCutoff:
            guard let event = c.eventTime else { return false }
            return event < settings.offerResubscribeCutoff
        case .autoRenewProductDiffers:
            return c.autoRenewProductDiffers
        case .autoRenewOn:
            return c.autoRenewStatus == true
        case .autoRenewOff:
            return c.autoRenewStatus == false
        case .expiredAtEvent:
            guard let expires = c.relevantTransaction?.expiresDate, let event = c.eventTime else { return false }
            return expires <= event
        case .billingRetry:
            return c.isInBillingRetryPeriod == true
        case .expirationIntent:
            return c.expirationIntentMatches(condition.argument)
        case .purchasedNearEvent:
            guard let purchase = c.relevantTransaction?.purchaseDate, let event = c.eventTime else { return false }
            let distance = purchase > event ? purchase - event : event - purchase
            return distance <= settings.resubscribeTolerance
        case .previousExpiredBeforePurchase:
            guard let expires = c.previousTransaction?.expiresDate, let purchase = c.relevantTransaction?.purchaseDate
            else { return false }
            return expires <= purchase
        case .gracePeriodAfterEvent:
            guard let grace = c.pendingGracePeriodExpiresDate, let event = c.eventTime else { return false }
            return grace > event
        case .cancelledUpgraded:
            return c.relevantTransaction?.isUpgraded == true
        case .priceConsentStatus:
            return c.priceConsentStatusMatches(condition.argument)
        }
    }
}

/// A V1 notification no rule maps: kept and reported with what can be told about it.
package struct UnmappedNotification: Sendable, Equatable {
    /// The V1 `notification_type`.
    package var v1NotificationType: String
    /// Why it is unmapped.
    package var reason: String
    /// Where it was read.
    package var location: SourceLocation
    /// Its deterministic notificationUUID.
    package var notificationUUID: String
    /// "Production" / "Sandbox" (or the raw value).
    package var environment: String?
    /// The subscription, if known.
    package var originalTransactionId: String?
    /// The relevant transaction's webOrderLineItemId, if known.
    package var webOrderLineItemId: String?
    /// The event time, if known.
    package var eventTime: Int64?
}
