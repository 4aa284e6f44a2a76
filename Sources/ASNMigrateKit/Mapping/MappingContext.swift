/// Everything the rules look at, derived once from a V1 record through its view (the models or the tape): the
/// subscription, its transactions, the relevant one, and the event time. The one place these choices are made.
package struct MappingContext<View: V1RecordView> {
    /// The record.
    package let view: View
    /// The subscription's `original_transaction_id`, when one can be told.
    package let subscriptionId: View.Text?
    /// The subscription's transactions (indices into the view's), oldest purchase first (ties: expiry, then id).
    package private(set) var history: [Int]
    /// The transaction the notification is about.
    package let relevant: Int?
    /// Where `relevant` (or an equal copy, the last one) stands in `history`.
    package let relevantAt: Int?
    /// The subscription's transaction just before `relevant` by purchase date.
    package let previous: Int?
    /// The subscription's newest transaction by purchase date.
    package let newest: Int?
    /// The subscription's `pending_renewal_info` entry.
    package let pending: Int?
    /// The event time (epoch ms), when one can be told.
    package let eventTime: Int64?
    /// True when the event time is only inferred (PRICE_INCREASE_CONSENT or CONSUMPTION_REQUEST without a receive time).
    package let eventTimeInferred: Bool
    /// The time the body dates the event by (the received time aside): the moment its facts describe.
    package let bodyEventTime: Int64?

    /// V1 types whose relevant transaction is the most recently cancelled one.
    package static var cancellationTypes: Set<String> { ["CANCEL", "REFUND", "REVOKE"] }

    /// Derives the context of a record of a type dated by `dating` (relevant: the latest cancelled transaction when
    /// `cancellation`); `receivedAt` is the envelope's receive time; `history`'s storage is reused.
    package init(
        _ view: View, dating: V1EventDating, cancellation: Bool, receivedAt: Int64?,
        reusing storage: consuming [Int] = []
    ) {
        self.view = view
        let v = view
        // The subscription: top-level id, else pending_renewal_info's, else the transaction matching
        // auto_renew_product_id.
        var subscription = v.text(.originalTransactionId)
        let product = v.text(.autoRenewProductId)
        var pendingEntry: Int?
        if subscription == nil {
            var candidates = 0
            var firstCandidate: Int?
            for k in 0..<v.pendingCount where v.pendingText(k, .originalTransactionId) != nil {
                candidates += 1
                if firstCandidate == nil { firstCandidate = k }
            }
            if candidates == 1 {
                pendingEntry = firstCandidate
            } else if let product {
                pendingEntry =
                    (0..<v.pendingCount).first {
                        v.pendingText($0, .originalTransactionId) != nil
                            && v.same(v.pendingText($0, .autoRenewProductId), product)
                    }
                    ?? (0..<v.pendingCount).first {
                        v.pendingText($0, .originalTransactionId) != nil
                            && v.same(v.pendingText($0, .productId), product)
                    }
            }
            if pendingEntry == nil, product == nil { pendingEntry = firstCandidate }
            subscription = pendingEntry.flatMap { v.pendingText($0, .originalTransactionId) }
        }
        if subscription == nil, let product {
            var best: Int?
            for k in 0..<v.entryCount where v.same(v.text(k, .productId), product) {
                if best.map({ Self.precedes(v, $0, k) }) ?? true { best = k }
            }
            subscription = best.flatMap { v.text($0, .originalTransactionId) }
        }
        if subscription == nil {
            var best: Int?
            for k in 0..<v.entryCount where best.map({ Self.precedes(v, $0, k) }) ?? true { best = k }
            subscription = best.flatMap { v.text($0, .originalTransactionId) }
        }
        subscriptionId = subscription
        if pendingEntry == nil, let subscription {
            pendingEntry = (0..<v.pendingCount).first {
                v.same(v.pendingText($0, .originalTransactionId), subscription)
            }
        }
        if pendingEntry == nil, v.pendingCount == 1, v.pendingText(0, .originalTransactionId) == nil {
            pendingEntry = 0
        }
        pending = pendingEntry

        // The subscription's transactions (all of them when none match), oldest first; equal ones keep their order.
        // The storage is the caller's (given up): emptied in place, so no new buffer is made.
        var history = consume storage
        history.removeAll(keepingCapacity: true)
        if let subscription {
            for k in 0..<v.entryCount where v.same(v.text(k, .originalTransactionId), subscription) {
                history.append(k)
            }
        }
        if history.isEmpty { history.append(contentsOf: 0..<v.entryCount) }
        var k = 1
        while k < history.count {
            let moving = history[k]
            var j = k
            while j > 0 && Self.precedes(v, moving, history[j - 1]) {
                history[j] = history[j - 1]
                j -= 1
            }
            history[j] = moving
            k += 1
        }
        newest = history.last

        var chosen = history.last
        if cancellation {
            var latest: Int?
            for k in history where v.date(k, .cancellationDate) != nil {
                if latest.map({ (v.date($0, .cancellationDate) ?? 0) < (v.date(k, .cancellationDate) ?? 0) }) ?? true {
                    latest = k
                }
            }
            if let latest { chosen = latest }
        }
        relevant = chosen
        var at: Int?
        var before: Int?
        if let chosen {
            var i = history.count - 1
            while i >= 0 && !v.entriesEqual(history[i], chosen) { i -= 1 }
            if i >= 0 { at = i }
            if i > 0 { before = history[i - 1] }
        }
        relevantAt = at
        previous = before
        self.history = history

        // Event time: when the record was received, else the time its body dates the event by.
        var dated: Int64?
        var inferred = false
        let purchase = chosen.flatMap { v.date($0, .purchaseDate) }
        switch dating {
        case .renewalStatusChange: dated = v.date(.autoRenewStatusChangeDate) ?? purchase
        case .cancellation:
            dated = v.date(.cancellationDate) ?? chosen.flatMap { v.date($0, .cancellationDate) } ?? purchase
        case .failedRenewal: dated = chosen.flatMap { v.date($0, .expiresDate) } ?? purchase
        case .inferredFromPurchase:
            dated = purchase
            inferred = dated != nil
        case .purchase: dated = purchase
        }
        bodyEventTime = dated
        eventTime = receivedAt ?? dated
        eventTimeInferred = receivedAt == nil && inferred
    }

    /// Gives back `history`'s storage for the next record.
    package mutating func takeHistory() -> [Int] {
        var taken: [Int] = []
        swap(&taken, &history)
        return taken
    }

    // MARK: - Derived values

    /// Auto-renew status: top-level `auto_renew_status`, else the pending renewal entry's.
    package var autoRenewStatus: Bool? {
        view.flag(.autoRenewStatus) ?? pending.flatMap { view.pendingFlag($0, .autoRenewStatus) }
    }
    /// The product that renews next: the pending entry's, else top-level.
    package var autoRenewProductId: View.Text? {
        pending.flatMap { view.pendingText($0, .autoRenewProductId) } ?? view.text(.autoRenewProductId)
    }
    /// `expiration_intent`: the pending entry's, else top-level.
    package var expirationIntent: View.Text? {
        pending.flatMap { view.pendingText($0, .expirationIntent) } ?? view.text(.expirationIntent)
    }
    /// `is_in_billing_retry_period`: the pending entry's, else top-level.
    package var isInBillingRetryPeriod: Bool? {
        pending.flatMap { view.pendingFlag($0, .isInBillingRetryPeriod) } ?? view.flag(.isInBillingRetryPeriod)
    }
    /// The pending entry's grace period end.
    package var gracePeriodExpiresDate: Int64? { pending.flatMap { view.pendingDate($0, .gracePeriodExpiresDate) } }
    /// The current product: the relevant transaction's, else the pending entry's.
    package var currentProductId: View.Text? {
        relevant.flatMap { view.text($0, .productId) } ?? pending.flatMap { view.pendingText($0, .productId) }
    }

    /// The earliest purchase of the subscription's latest run of transactions with no lapse longer than
    /// `SubscriptionStatus.billingRetryLimit`.
    package var recentSubscriptionStartDate: Int64? {
        guard let anchor = relevant, let anchorIndex = relevantAt else { return nil }
        var start = view.date(anchor, .purchaseDate)
        var i = anchorIndex
        while i > 0 {
            let earlier = history[i - 1]
            let later = history[i]
            guard let expires = view.date(earlier, .expiresDate), let purchase = view.date(later, .purchaseDate),
                purchase - expires <= SubscriptionStatus.billingRetryLimit
            else { break }
            start = view.date(earlier, .purchaseDate) ?? start
            i -= 1
        }
        return start
    }

    // MARK: - Ordering

    /// Whether transaction `a` precedes `b`: purchase date, then expiry (absent ones first), then transaction id.
    static func precedes(_ v: View, _ a: Int, _ b: Int) -> Bool {
        let purchaseA = v.date(a, .purchaseDate) ?? Int64.min
        let purchaseB = v.date(b, .purchaseDate) ?? Int64.min
        if purchaseA != purchaseB { return purchaseA < purchaseB }
        let expiresA = v.date(a, .expiresDate) ?? Int64.min
        let expiresB = v.date(b, .expiresDate) ?? Int64.min
        if expiresA != expiresB { return expiresA < expiresB }
        return v.identifierLess(v.text(a, .transactionId), v.text(b, .transactionId))
    }
}

extension MappingContext: Sendable where View: Sendable, View.Text: Sendable {}

/// The context of a decoded body: the reference path.
package typealias ModelContext = MappingContext<ResponseBodyV1>

extension MappingContext where View == ResponseBodyV1 {
    /// Derives the context of a body; `receivedAt` is the envelope's receive time.
    package init(body: ResponseBodyV1, receivedAt: Int64?) {
        self.init(
            body, dating: V1EventDating(type: body.notificationType),
            cancellation: Self.cancellationTypes.contains(body.notificationType), receivedAt: receivedAt)
    }

    /// The body.
    package var body: ResponseBodyV1 { view }
    /// The relevant transaction.
    package var relevantEntry: LatestReceiptInfo? { relevant.map { view.transactions[$0] } }
    /// The pending renewal entry.
    package var pendingEntry: PendingRenewalInfo? { pending.map { view.pendingRenewalInfo[$0] } }
}

/// How a V1 type's body dates its event (the received time aside).
package enum V1EventDating: Sendable, Equatable {
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
