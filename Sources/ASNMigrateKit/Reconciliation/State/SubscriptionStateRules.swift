/// The one place that derives a subscription's state at an instant from its records' facts (`StateFact`): notification
/// pairing, the API-view comparison, `subscriptions.csv`, nightly and the simulator's truth all call it.
///
/// The rules (each cites Apple's documentation in `../shared/spec`, and has a test in `SubscriptionStateRulesTests`):
/// - Facts about one transaction only grow, whatever order the records came in: copies merge on `transactionId` and
///   `purchaseDate`; the
///   newest expiry wins (a renewal-date extension only moves it forward); a revocation stands once shown
///   (V1 *cancellation_date*: "the time … Apple customer support refunded a transaction", REVOKE for family members).
/// - The latest transaction is the one with the greatest purchase date (then expiry, then id); its product and expiry
///   are the subscription's (Apple, *latest_receipt_info*: "the latest renewal … expires_date").
/// - Renewal facts describe the moment of the record that carries them, so they come from the record with the newest
///   knowledge (`StateFact.Knowledge.isBelow`). `gracePeriodExpiresDate` and `isInBillingRetryPeriod` are present only
///   while they hold (Apple V1 *pending_renewal_info*: "This field is only present if an auto-renewable subscription is
///   in the billing retry state"), so a newer renewal info without them ends them (DID_RECOVER, a later DID_RENEW).
/// - The status is `SubscriptionStatus.at`: billing retry ends at most 60 days after the expiry.
package enum SubscriptionStateRules {
    /// Which records a side knows at the instant.
    package enum Knowledge: Sendable, Equatable {
        /// Every record given: the caller already chose them (notification pairing judges which lie in the period).
        case all
        /// Records whose time is at or before the instant; and, as notifications lag the event, records up to `lag`
        /// after it for the transactions they show purchased by the instant (without later revocations), and for their
        /// renewal facts only when the record dates them at or before the instant (`StateFact.moment`: a billing
        /// failure delivered late still tells of the failure), as they may otherwise describe a later moment.
        case asOf(lag: Int64)
    }

    /// The status one record's own fact gives at the record's time: a migrated record's V2 `status` (`V2Builder`,
    /// whatever view of the record it reads), the simulator's and the API view's status of one transaction with its
    /// renewal info. The one entry for one fact: `derive` over it alone.
    package static func status(of fact: StateFact) -> SubscriptionStatus? {
        derive(CollectionOfOne(fact), at: fact.time)?.status
    }

    /// The state at `instant` from `facts` (input order: among equal knowledge the later record wins), or nil when no
    /// record shows a transaction with an expiry (no subscription to speak of).
    package static func derive(_ facts: some Sequence<StateFact>, at instant: Int64, knowledge: Knowledge = .all)
        -> SubscriptionState?
    {
        var scratch = Scratch()
        return derive(facts, at: instant, knowledge: knowledge, reusing: &scratch)
    }

    /// The tables `derive` fills, kept by a caller that derives many states so they are allocated once, not per state.
    package struct Scratch {
        /// Each transaction's merged copies (emptied, capacity kept, by every `derive`).
        fileprivate var merged: [TransactionKey: StateFact.Transaction] = [:]

        /// Empty tables.
        package init() {}
    }

    /// `derive(_:at:knowledge:)`, its tables taken from `scratch`: the same state, without allocating them again.
    package static func derive(
        _ facts: some Sequence<StateFact>, at instant: Int64, knowledge: Knowledge = .all,
        reusing scratch: inout Scratch
    ) -> SubscriptionState? {
        // The merged copies of each transaction: held in `only` while all are of one transaction (a record's own state,
        // `status(of:)`), in the table once a second transaction appears.
        var only: (key: TransactionKey, transaction: StateFact.Transaction)?
        var merged: [TransactionKey: StateFact.Transaction] = [:]
        swap(&merged, &scratch.merged)
        defer {
            merged.removeAll(keepingCapacity: true)
            swap(&merged, &scratch.merged)
        }
        // Each renewal fact with how much its record knew (`StateFact.Knowledge.isBelow`).
        var autoRenew: (knowledge: StateFact.Knowledge, value: Int)?
        var autoRenewProduct: (knowledge: StateFact.Knowledge, value: String)?
        var renewal: (knowledge: StateFact.Knowledge, value: StateFact.Renewal)?
        var newest: Int64?
        for fact in facts {
            var late = false
            if case .asOf(let lag) = knowledge {
                guard fact.time <= instant.addingReportingOverflow(lag).partialValue else { continue }
                late = fact.time > instant
            }
            for var t in fact.transactions {
                if late {
                    guard t.purchaseDate <= instant else { continue }
                    if let revoked = t.revocationDate, revoked > instant { t.revocationDate = nil }
                }
                // One transaction has one purchase date; keying on both keeps apart records that share an id by mistake.
                let key = TransactionKey(id: t.transactionID ?? Self.absentID, purchaseDate: t.purchaseDate)
                if let held = only {
                    if held.key == key {
                        only = (key, Self.merged(held.transaction, t))
                    } else {
                        merged[held.key] = held.transaction
                        merged[key] = t
                        only = nil
                    }
                } else if merged.isEmpty {
                    only = (key, t)
                } else if let known = merged[key] {
                    merged[key] = Self.merged(known, t)
                } else {
                    merged[key] = t
                }
            }
            if late, (fact.moment ?? fact.time) > instant { continue }
            if !late { newest = max(newest ?? fact.time, fact.time) }
            guard let r = fact.renewal else { continue }
            let knowledge = fact.knowledge
            if let value = r.autoRenewStatus, autoRenew.map({ !knowledge.isBelow($0.knowledge) }) ?? true {
                autoRenew = (knowledge, value)
            }
            if let value = r.autoRenewProductId, autoRenewProduct.map({ !knowledge.isBelow($0.knowledge) }) ?? true {
                autoRenewProduct = (knowledge, value)
            }
            if renewal.map({ !knowledge.isBelow($0.knowledge) }) ?? true { renewal = (knowledge, r) }
        }
        guard let latest = only?.transaction ?? merged.values.max(by: precedes), let expires = latest.expiresDate else {
            return nil
        }
        let grace = renewal?.value.gracePeriodExpiresDate
        // Present only while retrying: a renewal info without the flag says "not retrying".
        let retryFlag = renewal.map { $0.value.isInBillingRetryPeriod ?? false }
        let status =
            SubscriptionStatus.at(
                instant, expires: expires, revoked: latest.revocationDate, gracePeriodExpires: grace,
                billingRetry: retryFlag) ?? .expired
        var state = SubscriptionState(
            productId: latest.productId, expiresDate: expires, autoRenewStatus: autoRenew?.value, status: status)
        state.transactionID = latest.transactionID
        state.newestRecordTime = newest
        state.autoRenewProductId = autoRenewProduct?.value
        state.gracePeriodExpiresDate = grace
        // Retry ends with Apple's 60-day limit too: a flag still set after it no longer holds.
        state.isInBillingRetryPeriod = retryFlag.map { $0 && instant < expires &+ SubscriptionStatus.billingRetryLimit }
        return state
    }

    /// Every instant at which the state `derive` gives from `facts` can change while the facts stay as they are, sorted,
    /// each once: each transaction's expiry (active ends) and revocation, the end of a grace period
    /// (`gracePeriodExpiresDate`), and the end of billing retry (`SubscriptionStatus.billingRetryLimit` after each expiry,
    /// when a record says retry is on). With `.asOf` knowledge, also the instants a record's facts come into view or
    /// drop out of it: its time, its time less the lag, the moment it dates, and each transaction's purchase (Apple's
    /// API view compares at a status's fetch time). Between two consecutive points (after one, up to the next) `derive`
    /// gives one state: a state judged at an instant that moved past none of them needs no judging again. `nightly`
    /// keeps them per subscription (`change_points`) in both modes.
    package static func changePoints(_ facts: some Sequence<StateFact>, knowledge: Knowledge = .all) -> [Int64] {
        var points: Set<Int64> = []
        var expiries: [Int64] = []
        var retrying = false
        for fact in facts {
            if case .asOf(let lag) = knowledge {
                points.insert(fact.time)
                points.insert(fact.time &- lag)
                if let moment = fact.moment { points.insert(moment) }
            }
            for t in fact.transactions {
                if let expires = t.expiresDate {
                    points.insert(expires)
                    expiries.append(expires)
                }
                if let revoked = t.revocationDate { points.insert(revoked) }
                if case .asOf = knowledge { points.insert(t.purchaseDate) }
            }
            if let grace = fact.renewal?.gracePeriodExpiresDate { points.insert(grace) }
            if fact.renewal?.isInBillingRetryPeriod == true { retrying = true }
        }
        if retrying {
            for expires in expiries { points.insert(expires &+ SubscriptionStatus.billingRetryLimit) }
        }
        return points.sorted()
    }

    /// What copies of one transaction share: its id (absent as empty) and its purchase date.
    fileprivate struct TransactionKey: Hashable {
        /// `transactionId`, "" when absent.
        var id: TransactionID
        /// `purchaseDate`, ms.
        var purchaseDate: Int64
    }

    /// An absent transactionId, keyed as the empty one.
    private static let absentID = TransactionID.text("")

    /// Two copies of one transaction: the newest expiry, a revocation that stands, gaps filled.
    static func merged(_ a: StateFact.Transaction, _ b: StateFact.Transaction) -> StateFact.Transaction {
        var t = a
        if let other = b.expiresDate, other > (a.expiresDate ?? Int64.min) || a.expiresDate == nil {
            t.expiresDate = other
        }
        t.revocationDate = a.revocationDate ?? b.revocationDate
        t.productId = a.productId ?? b.productId
        return t
    }

    /// Orders transactions oldest first: purchase date, then expiry, then id (as `MappingContext.precedes`).
    static func precedes(_ a: StateFact.Transaction, _ b: StateFact.Transaction) -> Bool {
        if a.purchaseDate != b.purchaseDate { return a.purchaseDate < b.purchaseDate }
        let ea = a.expiresDate ?? Int64.min
        let eb = b.expiresDate ?? Int64.min
        if ea != eb { return ea < eb }
        return TransactionID.less(a.transactionID, b.transactionID)
    }
}
