import ASNMigrateKit

/// One notification event of a simulated lifecycle: what V1 sent (if anything), what V2 sent (if anything), and the
/// facts the fault injector needs to tell whether perturbing it has one unambiguous effect on `reconcile`.
package struct SimulatedRecord: Sendable {
    /// How the record relates V1 and V2.
    package enum Role: Sendable, Equatable {
        /// V1 and V2 both sent it (a twin pair).
        case twin
        /// V1's companion DID_CHANGE_RENEWAL_STATUS beside an INTERACTIVE_RENEWAL or CANCEL; V2 sent nothing for it.
        case companion
        /// Only V2 sent it (never announced by V1, purchaser-only for a family member, or TEST).
        case v2Only
        /// A twin of the anchor subscriber, whose first and last events fix the period both sides cover.
        case anchor
    }

    /// The event kind, such as `initial-buy-trial` or `upgrade`; every kind is listed in `LifecycleGenerator.eventKinds`.
    package var label: String
    /// How V1 and V2 relate.
    package var role: Role
    /// The environment.
    package var environment: SimulationEnvironment
    /// The subscription (or consumable purchase) key; nil for TEST.
    package var originalTransactionId: String?
    /// When it really happened (epoch ms); records are ordered by it.
    package var time: Int64

    /// The V1 record as written (a body or an envelope), without the line end.
    package var v1Line: [UInt8]?
    /// The V1 `notification_type`.
    package var v1Type: String?
    /// What the V1 record tells, in V2's shape, as the simulated lifecycle knows it: the kind and compared fields a
    /// right `migrate` derives from it (its `signedDate` is the V1 event time). Never made by the tool's mapping.
    package var v1Mapped: ResponseBodyV2DecodedPayload?
    /// When the V1 record was received (its envelope time, or the event time); picks its output file.
    package var v1DeliveryTime: Int64 = 0
    /// Exact V1 retries written after it.
    package var v1Retries = 0
    /// True when the V1 event time is only inferred (PRICE_INCREASE_CONSENT / CONSUMPTION_REQUEST without a receive time).
    package var inferredTime = false
    /// True when the V1 envelope arrived hours after the event.
    package var late = false
    /// The bare V1 body of a late record, kept so it can be sent without its envelope if it would overtake another record.
    var v1Body: JSONValue?
    /// True when V1 also sent a companion DID_CHANGE_RENEWAL_STATUS beside this record.
    package var hasCompanion = false

    /// The subscription as the lifecycle left it right after this event (nil for records the generator made
    /// without a subscription, such as TEST): what `--switch`'s truth reads, independent of any V1 or V2 rendering.
    package var lifecycle: LifecycleSnapshot?

    /// The V2 notification.
    package var v2: SimulatedV2Notification?
    /// Exact V2 retries written after it.
    package var v2Retries = 0

    /// Creates a record.
    package init(
        label: String, role: Role, environment: SimulationEnvironment, originalTransactionId: String?, time: Int64
    ) {
        self.label = label
        self.role = role
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.time = time
    }

    /// The intended V2 kind (the V2 record's, else what the V1 record maps to).
    package var kind: NotificationKind? {
        if let v2 { return NotificationKind(v2.notificationType, v2.subtype) }
        return v1Mapped.map { NotificationKind($0.notificationType, $0.subtype) }
    }
}

/// A subscription as the simulated lifecycle holds it at one moment: the truth `--switch`'s seam checks are judged
/// against.
package struct LifecycleSnapshot: Sendable, Equatable {
    /// Whether it is an auto-renewable subscription.
    package var isSubscription: Bool
    /// The newest transaction's id.
    package var transactionId: String?
    /// The newest transaction's product.
    package var productId: String?
    /// The newest transaction's purchase date.
    package var purchaseDate: Int64?
    /// The newest transaction's expiry.
    package var expiresDate: Int64?
    /// When the newest transaction was refunded or revoked, if it was.
    package var revoked: Int64?
    /// The greatest expiry of every transaction so far.
    package var greatestExpiry: Int64?
    /// The grace period's end, while in one.
    package var gracePeriodExpires: Int64?
    /// Whether Apple retries billing.
    package var billingRetry: Bool?
    /// Whether auto-renew is on.
    package var autoRenewOn: Bool
    /// The product the subscription renews to.
    package var autoRenewProductId: String

    /// The lifecycle of `state` right after an event, with the event's own refund or revocation instant.
    init(_ state: SimulatedSubscriptionState, cancellation: Int64?) {
        let current = state.current
        isSubscription = state.isSubscription
        transactionId = current?.transactionId
        productId = current?.product.id
        purchaseDate = current?.purchaseDate
        expiresDate = current?.expiresDate
        revoked = cancellation ?? (current?.isUpgraded == true ? nil : current?.cancellationDate)
        greatestExpiry = state.transactions.compactMap(\.expiresDate).max()
        gracePeriodExpires = state.gracePeriodExpires
        billingRetry = state.billingRetry
        autoRenewOn = state.autoRenewOn
        autoRenewProductId = state.autoRenewProductId
    }
}
