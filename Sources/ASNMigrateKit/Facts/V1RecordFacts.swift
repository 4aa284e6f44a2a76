/// What one V1 record tells about transactions and renewal state, for comparing with Apple's API view.
package struct V1RecordFacts: Sendable, Equatable {
    /// "Production" / "Sandbox" (or the raw value), "" when unknown.
    package var environment: String
    /// The subscription (`original_transaction_id`), when one can be told.
    package var subscriptionId: String?
    /// The event time (epoch ms), when one can be told.
    package var eventTime: Int64?
    /// True when the event time is only inferred.
    package var eventTimeInferred: Bool
    /// The moment the body dates its facts by (a late delivery's envelope time aside).
    package var bodyEventTime: Int64?
    /// The V1 `notification_type`.
    package var notificationType: String
    /// The transaction the notification is about (`MappingContext.relevant`).
    package var relevantTransactionId: String?
    /// Every transaction the record shows: `latest_receipt_info` (both places) and `latest_expired_receipt_info`.
    package var transactions: [LatestReceiptInfo]
    /// The auto-renew status the record states.
    package var autoRenewStatus: Bool?
    /// The product that renews next.
    package var autoRenewProductId: String?
    /// The grace period's end, from `pending_renewal_info`.
    package var gracePeriodExpiresDate: Int64?
    /// Whether Apple is retrying billing.
    package var isInBillingRetryPeriod: Bool?
    /// `path:line` (or `path[index]`) of the record.
    package var source: String
    /// The app's bundle identifier (`bid`).
    package var bundleId: String?

    /// Derives the facts of a decoded body through `MappingContext`, the same reading `migrate` uses.
    package init(body: ResponseBodyV1, receivedAt: Int64?, location: SourceLocation) {
        self.init(MappingContext(body: body, receivedAt: receivedAt), location: location)
    }

    /// The facts of a record read through any view (the models or the tape), from the context the mapping made of it:
    /// one reading serves the V2 facts and these.
    package init<View: V1RecordView>(_ context: MappingContext<View>, location: SourceLocation) {
        let view = context.view
        environment = view.text(.environment).flatMap { EnvironmentName.normalized(view.string($0)) } ?? ""
        subscriptionId = context.subscriptionId.map(view.string)
        eventTime = context.eventTime
        eventTimeInferred = context.eventTimeInferred
        bodyEventTime = context.bodyEventTime
        notificationType = view.string(view.notificationType)
        relevantTransactionId = context.relevant.flatMap { view.text($0, .transactionId) }.map(view.string)
        transactions = (0..<view.entryCount).map { LatestReceiptInfo(V1ViewEntry(view: view, entry: $0)) }
        autoRenewStatus = context.autoRenewStatus
        autoRenewProductId = context.autoRenewProductId.map(view.string)
        gracePeriodExpiresDate = context.gracePeriodExpiresDate
        isInBillingRetryPeriod = context.isInBillingRetryPeriod
        source = location.source
        bundleId = view.text(.bid).map(view.string)
    }
}

extension V1RecordFacts {
    /// The record's facts for the state rules about `subscription`: the transactions it shows of that subscription
    /// (an upgraded transaction's `cancellation_date` is the upgrade, not a revocation), the one it is about, and its
    /// renewal info when the record is the subscription's own; nil without an event time.
    package func stateFact(of subscription: String) -> StateFact? {
        var own: Int?
        var shown: [StateFact.Transaction] = []
        for entry in transactions where (entry.originalTransactionId ?? subscriptionId) == subscription {
            if entry.transactionId != nil, entry.transactionId == relevantTransactionId { own = shown.count }
            shown.append(StateFact.Transaction(v1: entry))
        }
        let owns = subscriptionId == subscription
        return StateFact.record(
            time: eventTime, moment: bodyEventTime, transactions: shown, own: own,
            renewal: StateFact.Renewal(
                autoRenewStatus: owns ? autoRenewStatus.map { $0 ? 1 : 0 } : nil,
                autoRenewProductId: owns ? autoRenewProductId : nil,
                gracePeriodExpiresDate: owns ? gracePeriodExpiresDate : nil,
                isInBillingRetryPeriod: owns ? isInBillingRetryPeriod : nil))
    }
}

extension V1RecordFacts {
    /// The record's state facts about each subscription of `statusSubscriptions` it shows (its own, and every receipt
    /// entry's): what `V1TransactionCollector` keeps of it for the status comparison, made apart so a worker can.
    package func stateFacts(of statusSubscriptions: Set<SubscriptionKey>) -> [(SubscriptionKey, StateFact)] {
        guard !statusSubscriptions.isEmpty else { return [] }
        var subscriptions = Set(transactions.compactMap { $0.originalTransactionId })
        if let id = subscriptionId { subscriptions.insert(id) }
        var kept: [(SubscriptionKey, StateFact)] = []
        for id in subscriptions {
            let key = SubscriptionKey(environment: environment, originalTransactionId: id)
            guard statusSubscriptions.contains(key), let fact = stateFact(of: id) else { continue }
            kept.append((key, fact))
        }
        return kept
    }
}
