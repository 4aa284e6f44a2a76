/// Builds the V2 payload (transaction info, renewal info, status) for a V1 record and its matched rule: written once,
/// over any view of the record (`V1RecordView`), into any sink (`V2Sink`).
package enum V2Builder {
    /// The V2 product type of auto-renewable subscriptions.
    package static let autoRenewableType = "Auto-Renewable Subscription"

    /// What the builder needs to know of the matched rule.
    package struct RuleShape: Sendable {
        /// Whether it maps onto the newest transaction (`carriesNewestTransaction`).
        package var carriesNewest: Bool
        /// Whether it gives every transaction its own `transactionReason` (`ruleTransactionReason`).
        package var givesReason: Bool

        /// A shape given part by part.
        package init(carriesNewest: Bool, givesReason: Bool) {
            self.carriesNewest = carriesNewest
            self.givesReason = givesReason
        }

        /// The shape of `rule`.
        package init(_ rule: MappingRule) {
            carriesNewest = V2Builder.carriesNewestTransaction(rule)
            givesReason = V2Builder.ruleTransactionReason(rule) != nil
        }
    }

    /// The payload for a decoded body's context and the rule that matched it (the reference path).
    package static func build(context c: ModelContext, rule: MappingRule, uuid: String, location: SourceLocation)
        -> ResponseBodyV2DecodedPayload
    {
        var sink = V2ModelSink(view: c.view, rule: rule, uuid: uuid, location: location)
        emit(c, rule: RuleShape(rule), into: &sink)
        return sink.payload
    }

    /// Gives `sink` the payload of the record `c` describes, matched by a rule of `shape`, member by member in the
    /// V2 JSON's order.
    package static func emit<View, Sink: V2Sink>(
        _ c: MappingContext<View>, rule shape: RuleShape, into sink: inout Sink
    ) where Sink.View == View {
        let v = c.view
        // For an upgrade, V2 carries the new (upgraded-to) transaction; otherwise the relevant one.
        let source = shape.carriesNewest ? (c.newest ?? c.relevant) : c.relevant
        let environment = v.text(.environment).map(v.environment)
        let bundleId =
            v.text(.bid) ?? source.flatMap { v.text($0, .bid) }
            ?? c.history.last(where: { v.text($0, .bid) != nil }).flatMap { v.text($0, .bid) }
        let bundleVersion =
            v.text(.bvrs) ?? source.flatMap { v.text($0, .bvrs) }
            ?? c.history.last(where: { v.text($0, .bvrs) != nil }).flatMap { v.text($0, .bvrs) }
        let autoRenewable = source.map { isAutoRenewable(v, $0) } ?? false
        let writesRenewal =
            autoRenewable || (source == nil && (c.pending != nil || v.flag(.autoRenewStatus) != nil))

        sink.begin(signedDate: c.eventTime)
        sink.open(.data)
        sink.text(.bundleId, bundleId)
        sink.text(.bundleVersion, bundleVersion)
        sink.environment(environment)
        if autoRenewable, let source {
            sink.int(.status, status(of: c, transaction: source).map(Int64.init))
        }
        if let source {
            transaction(v, source, rule: shape, bundleId: bundleId, environment: environment, into: &sink)
        }
        if writesRenewal {
            renewal(c, environment: environment, into: &sink)
        }
        sink.close(.data)
        sink.end(v1Type: v.notificationType, eventTimeInferred: c.eventTimeInferred)
    }

    // MARK: - Parts

    /// Whether transaction `i` is an auto-renewable subscription's (V2 `type`).
    static func isAutoRenewable<View: V1RecordView>(_ v: View, _ i: Int) -> Bool {
        v.date(i, .expiresDate) != nil || v.text(i, .webOrderLineItemId) != nil
            || v.text(i, .subscriptionGroupIdentifier) != nil
    }

    /// The V2 transaction of receipt entry `i`: the table's members in order (`transactionSteps`), each copied from
    /// its V1 key or written by its rule here.
    package static func transaction<View, Sink: V2Sink>(
        _ v: View, _ i: Int, rule: RuleShape, bundleId: View.Text?, environment: V2Environment<View.Text>?,
        into sink: inout Sink
    ) where Sink.View == View {
        sink.open(.transaction)
        let upgraded = v.flag(i, .isUpgraded) == true
        let trial = v.flag(i, .isTrialPeriod) == true
        for step in transactionSteps {
            let member: V2Member
            switch step {
            case .entry(let copied, let field, let kind):
                copy(v, i, copied, field, kind, into: &sink)
                continue
            case .pending(let copied, _, _):
                assertionFailure("no pending member \(copied) in a transaction")
                continue
            case .rule(let ruled): member = ruled
            }
            switch member {
            case .bundleId: sink.text(.bundleId, bundleId)
            case .type: if isAutoRenewable(v, i) { sink.constant(.type, .autoRenewable) }
            case .revocationReason:
                if !upgraded, let cancelled = v.date(i, .cancellationDate) {
                    sink.int(.revocationReason, integer(v, v.text(i, .cancellationReason)))
                    sink.int(.revocationDate, cancelled)
                }
            case .isUpgraded: if upgraded { sink.flag(.isUpgraded, true) }
            case .offerType:
                if let code = v.text(i, .offerCodeRefName) {
                    sink.int(.offerType, 3)
                    sink.text(.offerIdentifier, code)
                } else if let promo = v.text(i, .promotionalOfferId) {
                    sink.int(.offerType, 2)
                    sink.text(.offerIdentifier, promo)
                } else if trial || v.flag(i, .isInIntroOfferPeriod) == true {
                    sink.int(.offerType, 1)
                }
            case .offerDiscountType: if trial { sink.constant(.offerDiscountType, .freeTrial) }
            case .environment: sink.environment(environment)
            case .transactionReason:
                if rule.givesReason {
                    sink.constant(.transactionReason, .ruleReason)
                } else if let transactionId = v.text(i, .transactionId),
                    let originalTransactionId = v.text(i, .originalTransactionId),
                    v.same(transactionId, originalTransactionId)
                {
                    sink.constant(.transactionReason, .purchase)
                }
            default: break // written with the member before it (`revocationDate`, `offerIdentifier`)
            }
        }
        sink.close(.transaction)
    }

    /// V2 renewal info from the subscription's pending renewal entry (or legacy top-level fields): the table's members
    /// in order (`renewalSteps`), each copied from its V1 key or written by its rule here.
    static func renewal<View, Sink: V2Sink>(
        _ c: MappingContext<View>, environment: V2Environment<View.Text>?, into sink: inout Sink
    ) where Sink.View == View {
        let v = c.view
        let pending = c.pending
        sink.open(.renewal)
        for step in renewalSteps {
            let member: V2Member
            switch step {
            case .pending(let copied, let field, let kind):
                copy(v, pending: pending, copied, field, kind, into: &sink)
                continue
            case .entry(let copied, _, _):
                assertionFailure("no receipt member \(copied) in a renewal info")
                continue
            case .rule(let ruled): member = ruled
            }
            switch member {
            case .originalTransactionId:
                sink.text(
                    .originalTransactionId,
                    c.subscriptionId ?? pending.flatMap { v.pendingText($0, .originalTransactionId) })
            case .productId:
                sink.text(
                    .productId,
                    pending.flatMap { v.pendingText($0, .productId) } ?? c.newest.flatMap { v.text($0, .productId) })
            case .autoRenewProductId: sink.text(.autoRenewProductId, c.autoRenewProductId)
            case .autoRenewStatus: sink.int(.autoRenewStatus, c.autoRenewStatus.map { $0 ? 1 : 0 })
            case .expirationIntent: sink.int(.expirationIntent, integer(v, c.expirationIntent))
            case .isInBillingRetryPeriod: sink.flag(.isInBillingRetryPeriod, c.isInBillingRetryPeriod)
            case .offerType:
                if let code = pending.flatMap({ v.pendingText($0, .offerCodeRefName) }) {
                    sink.int(.offerType, 3)
                    sink.text(.offerIdentifier, code)
                } else if let promo = pending.flatMap({ v.pendingText($0, .promotionalOfferId) }) {
                    sink.int(.offerType, 2)
                    sink.text(.offerIdentifier, promo)
                }
            case .renewalDate: sink.int(.renewalDate, c.newest.flatMap { v.date($0, .expiresDate) })
            case .recentSubscriptionStartDate: sink.int(.recentSubscriptionStartDate, c.recentSubscriptionStartDate)
            case .environment: sink.environment(environment)
            default: break // written with the member before it (`offerIdentifier`)
            }
        }
        sink.close(.renewal)
    }

    /// The V2 `status` at the event of transaction `i` with the record's renewal facts (those `renewal` writes).
    static func status<View>(of c: MappingContext<View>, transaction i: Int) -> Int? {
        let v = c.view
        let revoked = v.flag(i, .isUpgraded) == true ? nil : v.date(i, .cancellationDate)
        return status(
            expires: v.date(i, .expiresDate), revoked: revoked, autoRenewStatus: c.autoRenewStatus.map { $0 ? 1 : 0 },
            statesProduct: c.autoRenewProductId != nil, gracePeriodExpires: c.gracePeriodExpiresDate,
            billingRetry: c.isInBillingRetryPeriod, at: c.eventTime)
    }

    /// The V2 `status` at `event` of a transaction expiring at `expires` (nil: not a subscription) and revoked at
    /// `revoked`, with the renewal facts written beside it: the state the one rule gives the record's one fact
    /// (`SubscriptionStateRules.status(of:)`); without an event time, 5 for a revoked transaction, else nil.
    package static func status(
        expires: Int64?, revoked: Int64?, autoRenewStatus: Int?, statesProduct: Bool, gracePeriodExpires: Int64?,
        billingRetry: Bool?, at event: Int64?
    ) -> Int? {
        guard let expires else { return nil }
        guard let event else { return revoked != nil ? SubscriptionStatus.revoked.rawValue : nil }
        // Whether the renewal info counts is `Renewal.stated`'s rule; only the product's presence matters to it, so
        // an empty (inline, unallocated) text stands for the product.
        let fact = StateFact.record(
            time: event,
            transaction: .init(
                transactionId: nil, purchaseDate: Int64.min, expiresDate: expires, revocationDate: revoked,
                productId: nil),
            renewal: StateFact.Renewal(
                autoRenewStatus: autoRenewStatus, autoRenewProductId: statesProduct ? "" : nil,
                gracePeriodExpiresDate: gracePeriodExpires, isInBillingRetryPeriod: billingRetry))
        return fact.flatMap(SubscriptionStateRules.status(of:))?.rawValue
    }

    /// `Int(text)` of a code.
    private static func integer<View: V1RecordView>(_ v: View, _ text: View.Text?) -> Int64? {
        text.flatMap { v.integer($0) }.map(Int64.init)
    }

    /// The V2 transaction for a V1 receipt entry, alone (`reconcile`'s API view compares V1 transactions in V2's
    /// shape): `transaction(_:_:…)` into the models.
    package static func transaction(_ t: LatestReceiptInfo, bundleId: String?, environment: String?, rule: MappingRule)
        -> JWSTransactionDecodedPayload
    {
        let body = ResponseBodyV1(notificationType: "", transactions: [t])
        var sink = V2ModelSink(view: body, rule: rule, uuid: "", location: SourceLocation(path: ""))
        transaction(
            body, 0, rule: RuleShape(rule), bundleId: bundleId, environment: environment.map { .raw($0) },
            into: &sink)
        return sink.payload.data.transactionInfo ?? JWSTransactionDecodedPayload()
    }

    /// The V2 `status` at the event for a transaction and the renewal info beside it (the simulator's and the API
    /// view's reading): `status(expires:…)` of their values.
    package static func status(
        _ t: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?, at event: Int64?
    ) -> Int? {
        status(
            expires: t.expiresDate, revoked: t.revocationDate, autoRenewStatus: renewal?.autoRenewStatus,
            statesProduct: renewal?.autoRenewProductId != nil, gracePeriodExpires: renewal?.gracePeriodExpiresDate,
            billingRetry: renewal?.isInBillingRetryPeriod, at: event)
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
