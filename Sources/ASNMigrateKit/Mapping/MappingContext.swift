/// Everything the rules look at, derived once from a V1 body: the subscription, its transactions, the relevant one, and the event time.
package struct MappingContext: Sendable {
    /// The V1 body.
    package let body: ResponseBodyV1
    /// The subscription's `original_transaction_id`, when one can be told.
    package let subscriptionId: String?
    /// The subscription's transactions, oldest purchase first (ties: expiry, then transaction id).
    package let history: [LatestReceiptInfo]
    /// The transaction the notification is about.
    package let relevant: LatestReceiptInfo?
    /// The subscription's transaction just before `relevant` by purchase date.
    package let previous: LatestReceiptInfo?
    /// The subscription's newest transaction by purchase date.
    package let newest: LatestReceiptInfo?
    /// The subscription's `pending_renewal_info` entry.
    package let pending: PendingRenewalInfo?
    /// The event time (epoch ms), when one can be told.
    package let eventTime: Int64?
    /// True when the event time is only inferred (PRICE_INCREASE_CONSENT or CONSUMPTION_REQUEST without a receive time).
    package let eventTimeInferred: Bool
    /// The time the body dates the event by (the received time aside): the moment its facts describe.
    package let bodyEventTime: Int64?

    /// V1 types whose relevant transaction is the most recently cancelled one.
    static let cancellationTypes: Set<String> = ["CANCEL", "REFUND", "REVOKE"]

    /// Derives the context of a body; `receivedAt` is the envelope's receive time.
    package init(body: ResponseBodyV1, receivedAt: Int64?) {
        self.body = body
        let all = body.transactions
        let type = body.notificationType

        // The subscription: top-level id, else pending_renewal_info's, else the transaction matching auto_renew_product_id.
        var subscription = body.originalTransactionId
        var pendingEntry: PendingRenewalInfo?
        if subscription == nil {
            let candidates = body.pendingRenewalInfo.filter { $0.originalTransactionId != nil }
            if candidates.count == 1 {
                pendingEntry = candidates[0]
            } else if let product = body.autoRenewProductId {
                pendingEntry =
                    candidates.first { $0.autoRenewProductId == product }
                    ?? candidates.first { $0.productId == product }
            }
            if pendingEntry == nil, let first = candidates.first, body.autoRenewProductId == nil {
                pendingEntry = first
            }
            subscription = pendingEntry?.originalTransactionId
        }
        if subscription == nil, let product = body.autoRenewProductId {
            subscription = Self.newestFirst(all.filter { $0.productId == product }).first?.originalTransactionId
        }
        if subscription == nil {
            subscription = Self.newestFirst(all).first?.originalTransactionId
        }
        subscriptionId = subscription
        if pendingEntry == nil, let subscription {
            pendingEntry = body.pendingRenewalInfo.first { $0.originalTransactionId == subscription }
        }
        if pendingEntry == nil, body.pendingRenewalInfo.count == 1,
            body.pendingRenewalInfo[0].originalTransactionId == nil
        {
            pendingEntry = body.pendingRenewalInfo[0]
        }
        pending = pendingEntry

        // The subscription's transactions (all of them when none match), picked and sorted as indices: copied once.
        var mine =
            subscription.map { id in all.indices.filter { all[$0].originalTransactionId == id } } ?? Array(all.indices)
        if mine.isEmpty { mine = Array(all.indices) }
        let ordered = Self.oldestFirst(all, mine)
        history = ordered
        newest = ordered.last

        var chosen = ordered.last
        if Self.cancellationTypes.contains(type) {
            let cancelled = ordered.filter { $0.cancellationDate != nil }
            if let latest = cancelled.max(by: { ($0.cancellationDate ?? 0) < ($1.cancellationDate ?? 0) }) {
                chosen = latest
            }
        }
        relevant = chosen
        if let chosen, let at = ordered.lastIndex(of: chosen), at > 0 {
            previous = ordered[at - 1]
        } else {
            previous = nil
        }

        // Event time: when the record was received, else the time its body dates the event by.
        let dated = Self.bodyTime(type: type, body: body, chosen: chosen)
        bodyEventTime = dated.time
        eventTime = receivedAt ?? dated.time
        eventTimeInferred = receivedAt == nil && dated.inferred
    }

    /// The time the body itself dates the event by (whatever the envelope says), and whether that is only inferred.
    private static func bodyTime(type: String, body: ResponseBodyV1, chosen: LatestReceiptInfo?) -> (
        time: Int64?, inferred: Bool
    ) {
        switch EventDating(type: type) {
        case .renewalStatusChange:
            return (body.autoRenewStatusChangeDate ?? chosen?.purchaseDate, false)
        case .cancellation:
            return (body.cancellationDate ?? chosen?.cancellationDate ?? chosen?.purchaseDate, false)
        case .failedRenewal:
            return (chosen?.expiresDate ?? chosen?.purchaseDate, false)
        case .inferredFromPurchase:
            return (chosen?.purchaseDate, chosen?.purchaseDate != nil)
        case .purchase:
            return (chosen?.purchaseDate, false)
        }
    }

    /// How a V1 type's body dates its event (the received time aside): the one list both the context and the fast
    /// path (`TapeMigrator`) read.
    package enum EventDating: Sendable, Equatable {
        /// `auto_renew_status_change_date`, else the relevant purchase.
        case renewalStatusChange
        /// The body's `cancellation_date`, else the relevant transaction's, else its purchase.
        case cancellation
        /// The relevant transaction's expiry, else its purchase.
        case failedRenewal
        /// The relevant purchase, and the time counts as inferred.
        case inferredFromPurchase
        /// The relevant purchase.
        case purchase

        /// How `type` dates its event.
        package init(type: String) {
            switch type {
            case "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_PREF": self = .renewalStatusChange
            case "CANCEL", "REFUND", "REVOKE": self = .cancellation
            case "DID_FAIL_TO_RENEW": self = .failedRenewal
            case "PRICE_INCREASE_CONSENT", "CONSUMPTION_REQUEST": self = .inferredFromPurchase
            default: self = .purchase
            }
        }
    }

    // MARK: - Derived values

    /// Auto-renew status: top-level `auto_renew_status`, else the pending renewal entry's.
    package var autoRenewStatus: Bool? { body.autoRenewStatus ?? pending?.autoRenewStatus }
    /// The product that renews next: the pending entry's, else top-level.
    package var autoRenewProductId: String? { pending?.autoRenewProductId ?? body.autoRenewProductId }
    /// `expiration_intent`: the pending entry's, else top-level.
    package var expirationIntent: String? { pending?.expirationIntent ?? body.expirationIntent }
    /// `is_in_billing_retry_period`: the pending entry's, else top-level.
    package var isInBillingRetryPeriod: Bool? { pending?.isInBillingRetryPeriod ?? body.isInBillingRetryPeriod }
    /// The current product: the relevant transaction's, else the pending entry's.
    package var currentProductId: String? { relevant?.productId ?? pending?.productId }

    /// The earliest purchase of the subscription's latest run of transactions with no lapse longer than 60 days.
    package var recentSubscriptionStartDate: Int64? {
        guard let anchor = relevant, let anchorIndex = history.lastIndex(of: anchor) else { return nil }
        var start = anchor.purchaseDate
        var i = anchorIndex
        let sixtyDays: Int64 = 60 * 86_400_000
        while i > 0 {
            let earlier = history[i - 1]
            let later = history[i]
            guard let expires = earlier.expiresDate, let purchase = later.purchaseDate, purchase - expires <= sixtyDays
            else { break }
            start = earlier.purchaseDate ?? start
            i -= 1
        }
        return start
    }

    // MARK: - Ordering

    /// Orders transactions by purchase date, then expiry, then transaction id (numeric-aware).
    static func precedes(_ a: LatestReceiptInfo, _ b: LatestReceiptInfo) -> Bool {
        precedes(purchase: a.purchaseDate, b.purchaseDate, expires: a.expiresDate, b.expiresDate) {
            IdentifierOrder.less(a.transactionId ?? "", b.transactionId ?? "")
        }
    }

    /// `precedes` over the parts it reads, for any form of a transaction (`TapeMigrator` reads them from bytes):
    /// purchase date, then expiry (absent ones first), then `idLess`, the transaction ids' numeric-aware order.
    static func precedes(
        purchase pa: Int64?, _ pb: Int64?, expires ea: Int64?, _ eb: Int64?, idLess: () -> Bool
    ) -> Bool {
        let purchaseA = pa ?? Int64.min
        let purchaseB = pb ?? Int64.min
        if purchaseA != purchaseB { return purchaseA < purchaseB }
        let expiresA = ea ?? Int64.min
        let expiresB = eb ?? Int64.min
        if expiresA != expiresB { return expiresA < expiresB }
        return idLess()
    }

    /// The transactions at `picked` (in their order), oldest first; equal ones keep their order. Sorts indices, so
    /// whole transactions are copied once, not moved at every step of the sort.
    static func oldestFirst(_ items: [LatestReceiptInfo], _ picked: [Int]) -> [LatestReceiptInfo] {
        guard picked.count > 1 else { return picked.map { items[$0] } }
        let order = picked.sorted { a, b in
            if precedes(items[a], items[b]) { return true }
            if precedes(items[b], items[a]) { return false }
            return a < b
        }
        return order.map { items[$0] }
    }

    /// The transactions newest first; equal ones keep their order.
    static func newestFirst(_ items: [LatestReceiptInfo]) -> [LatestReceiptInfo] {
        items.sorted { precedes($1, $0) }
    }
}
