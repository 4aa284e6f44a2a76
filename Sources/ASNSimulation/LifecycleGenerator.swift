import ASNMigrateKit

/// Simulates one subscriber's life: a subscription (in group A or B) and perhaps consumables, as the V1 and V2
/// notifications Apple would have sent for it.
///
/// Each V1 body is rendered from the simulated receipt (`SimulatedSubscriptionState.body`), and each V2 notification
/// from the same lifecycle (`LifecycleV2`: its fields, renewal info and `status`), with the kind the lifecycle
/// intends. Neither goes through the tool's mapping, status rules or merge, so `reconcile` on simulated data tests
/// them: what `migrate` derives from a V1 body must equal Apple's V2 twin. `SimulatedRecord.v1Mapped`, what the V1
/// record tells in V2's shape, is the same lifecycle seen at the V1 event time (the envelope's receive time, else the
/// time the body states; the purchase date for the two V1 types that state none).
///
/// Timing rules that keep `reconcile`'s answer unambiguous: every non-anchor event lies in
/// `[windowStart, windowEnd]`; mid-period events stay 2 h away from purchases and expiries and 1 h from each other;
/// late V1 deliveries (envelope times up to 20 h after the event) are used only for kinds that cannot repeat within
/// one transaction (so nearest-in-time pairing cannot cross); a price increase is the first event of its period
/// (its V1 event time is inferred as the purchase date); a RENEWAL_EXTENDED is always followed by a renewal.
package struct LifecycleGenerator {
    /// Every event kind the simulator produces (the `label` of records).
    package static let eventKinds: [String] = [
        "initial-buy", "initial-buy-trial", "initial-buy-offer-code", "family-initial-buy", "renewal", "auto-renew-off",
        "auto-renew-on", "voluntary-expiry", "billing-failure", "billing-failure-grace", "grace-period-expired",
        "billing-recovery", "billing-recovery-legacy", "billing-expiry", "upgrade", "upgrade-offer",
        "upgrade-companion",
        "downgrade", "downgrade-reverted", "resubscribe-same", "resubscribe-same-offer", "resubscribe-other",
        "resubscribe-other-offer", "resubscribe-companion", "refund", "refund-companion", "revoke", "price-increase",
        "price-increase-accepted", "price-increase-expiry", "renewal-extended", "consumption-request",
        "consumable-refund", "refund-declined", "test"
    ]

    /// The fake shared secret every V1 body carries as `password`.
    package static let password = "5f3a9c0e7b2d4f6a8c1e3b5d7f9a0c2e"
    /// V1 stopped sending RENEWAL (in favour of DID_RECOVER) on 2021-03-10.
    static let renewalTypeRetired: Int64 = 1_615_334_400_000

    /// The V1 types whose bodies state no event time (`migrate` infers it from the purchase date).
    static let timelessV1Types: Set<String> = ["PRICE_INCREASE_CONSENT", "CONSUMPTION_REQUEST"]

    private let options: SimulationOptions
    private let index: Int
    private var random: SimulationRandom
    private var blobRandom: SimulationRandom
    private var records: [SimulatedRecord] = []
    private let offerCutoff: Int64

    /// Creates the generator of subscriber `index` (0 is the anchor).
    package init(options: SimulationOptions, index: Int) {
        self.options = options
        self.index = index
        random = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 0)
        blobRandom = SimulationRandom(seed: options.seed, stream: UInt64(index), substream: 2)
        offerCutoff = LifecycleV2.offerResubscribeCutoff
    }

    /// The subscriber's records in time order.
    package mutating func generate() throws(ASNError) -> [SimulatedRecord] {
        records = []
        if index == 0 {
            try anchor()
        } else {
            try subscriber()
        }
        let indexed = records.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        records = indexed.map(\.element)
        unlateOvertakers()
        return records
    }

    /// A late V1 record whose receive time would pass another record of its subscription is sent bare instead, so
    /// V1 event times keep the order of the events (the subscription state compares each side's latest record).
    private mutating func unlateOvertakers() {
        for i in records.indices where records[i].late {
            let key = records[i].originalTransactionId
            let from = records[i].time
            let to = records[i].v1DeliveryTime + Self.hour
            let overtakes = records.indices.contains { j in
                j != i && records[j].originalTransactionId == key && records[j].time >= from && records[j].time <= to
            }
            guard overtakes, let body = records[i].v1Body, let v1Type = records[i].v1Type,
                var told = records[i].v1Mapped
            else { continue }
            let inferred = Self.timelessV1Types.contains(v1Type)
            let eventTime = inferred ? told.data.transactionInfo?.purchaseDate ?? records[i].time : records[i].time
            told.signedDate = eventTime
            told.data.status = told.data.transactionInfo.flatMap {
                LifecycleV2.status($0, renewal: told.data.renewalInfo, at: eventTime)?.rawValue
            }
            records[i].v1Line = JSONWriter.bytes(body)
            records[i].v1Mapped = told
            records[i].v1DeliveryTime = records[i].time
            records[i].inferredTime = inferred
            records[i].late = false
            records[i].v1Body = nil
        }
    }

    // MARK: - Subscriber

    /// IDs of one subscriber: 16 digits everywhere, so text order equals numeric order.
    private struct Identifiers {
        let transactionBase: Int64
        let webOrderBase: Int64
    }

    private static let day = SimulationCalendar.day
    private static let hour = SimulationCalendar.hour

    /// The anchor: a plain monthly subscription bought exactly at `start` and renewed every month up to exactly `end`,
    /// with no jitter, envelope or retry; plus one TEST notification a month.
    private mutating func anchor() throws(ASNError) {
        let ids = Identifiers(transactionBase: 2_000_000_000_000_000, webOrderBase: 5_000_000_000_000_000)
        let product = SimulatedProduct.monthly[0]
        var state = SimulatedSubscriptionState(
            environment: .production, originalTransactionId: String(ids.transactionBase),
            isSubscription: true, productId: product.id)
        var time = options.start
        state.append(
            transaction(
                ids, 0, product, purchase: time, expires: SimulationCalendar.adding(months: 1, to: time),
                original: time, ownership: "PURCHASED", token: nil))
        try twin(
            "initial-buy", "INITIAL_BUY", NotificationKind("SUBSCRIBED", "INITIAL_BUY"), at: time, state, role: .anchor)
        for month in 1...max(1, options.months) {
            time = SimulationCalendar.adding(months: month, to: options.start)
            var renewed = transaction(
                ids, month, product, purchase: time, expires: SimulationCalendar.adding(months: 1, to: time),
                original: options.start, ownership: "PURCHASED", token: nil)
            renewed.isRenewal = true
            state.append(renewed)
            try twin("renewal", "DID_RENEW", NotificationKind("DID_RENEW"), at: time, state, role: .anchor)
        }
        for month in 0..<max(1, options.months) {
            let at =
                SimulationCalendar.adding(months: month, to: options.start) + 14 * Self.day
                + random.int(in: 0...Self.day)
            guard at >= options.windowStart, at <= options.windowEnd else { continue }
            let environment: SimulationEnvironment = month % 3 == 2 ? .sandbox : .production
            var record = SimulatedRecord(
                label: "test", role: .v2Only, environment: environment, originalTransactionId: nil, time: at)
            record.v2 = SimulatedV2Notification(
                notificationType: "TEST", subtype: nil, notificationUUID: random.uuid(), signedDate: at,
                environment: environment,
                bundleVersion: nil, status: nil, transaction: nil, renewal: nil, signatureSeed: random.next())
            records.append(record)
        }
    }

    /// A regular subscriber: one subscription's lifecycle, and consumables for some.
    private mutating func subscriber() throws(ASNError) {
        let environment: SimulationEnvironment = random.chance(0.15) ? .sandbox : .production
        let family = environment == .production && random.chance(0.12)
        let big = random.chance(0.25)
        let slot = Int64(index) * 10_000
        let ids: Identifiers
        switch (environment, big) {
        case (.sandbox, _):
            ids = Identifiers(transactionBase: 1_000_000_000_000_000 + slot, webOrderBase: 4_000_000_000_000_000 + slot)
        case (.production, true):
            ids = Identifiers(transactionBase: 9_100_000_000_000_000 + slot, webOrderBase: 9_300_000_000_000_000 + slot)
        case (.production, false):
            ids = Identifiers(transactionBase: 2_000_000_000_000_000 + slot, webOrderBase: 5_000_000_000_000_000 + slot)
        }
        let token: String? = random.chance(0.3) ? random.uuid() : nil
        let product =
            random.chance(0.25) ? SimulatedProduct.yearly : SimulatedProduct.monthly[random.weighted([0.5, 0.35, 0.15])]
        let span = options.windowEnd - options.windowStart
        if span > 20 * Self.day {
            let first = options.windowStart + random.int(in: 0...(span * 3 / 4))
            try subscription(
                environment: environment, family: family, ids: ids, product: product, start: first, token: token)
        }
        if random.chance(0.15), span > 20 * Self.day {
            for purchase in 0..<(1 + random.below(2)) {
                try consumable(environment: environment, ids: ids, number: purchase)
            }
        }
    }

    // MARK: - Subscription lifecycle

    /// What ended a subscription period early.
    private enum PeriodOutcome {
        /// Nothing: go on to the expiry.
        case runs
        /// An upgrade started a new transaction.
        case upgraded
        /// Refunded or revoked: the subscription ended; a resubscription may follow after `after`.
        case ended(after: Int64)
        /// The simulated window is over.
        case stop
    }

    private mutating func subscription(
        environment: SimulationEnvironment, family: Bool, ids: Identifiers, product: SimulatedProduct,
        start: Int64, token: String?
    ) throws(ASNError) {
        let ownership = family ? "FAMILY_SHARED" : "PURCHASED"
        var state = SimulatedSubscriptionState(
            environment: environment, originalTransactionId: String(ids.transactionBase),
            isSubscription: true, productId: product.id)
        var context = LifecycleContext(
            ids: ids, ownership: ownership, token: token, family: family, environment: environment, start: start)

        // Initial purchase: plain, with a free trial, or redeeming an offer code (not for family members).
        var first = transaction(
            ids, 0, product, purchase: start, expires: SimulationCalendar.adding(months: product.months, to: start),
            original: start, ownership: ownership, token: token)
        let roll = random.unit()
        var label = "initial-buy"
        if roll < 0.2 {
            first.isTrialPeriod = true
            first.expiresDate = start + (product.months == 12 ? 14 : 7) * Self.day
            label = "initial-buy-trial"
        } else if roll < 0.28, !family {
            first.offerCodeRefName = "WELCOME\(random.below(3) + 1)"
            label = "initial-buy-offer-code"
        }
        state.append(first)
        context.nextTransaction = 1
        let initial = NotificationKind(first.offerCodeRefName == nil ? "SUBSCRIBED" : "OFFER_REDEEMED", "INITIAL_BUY")
        if family {
            try v2Only("family-initial-buy", asV1: "INITIAL_BUY", initial, at: start, state)
        } else {
            try twin(label, "INITIAL_BUY", initial, at: start, state, policy: .late)
        }

        while let current = state.current, let expires = current.expiresDate {
            switch try midPeriod(&state, &context) {
            case .runs: break
            case .upgraded: continue
            case .stop: return
            case .ended(let after):
                guard try resubscribe(&state, &context, after: after) else { return }
                continue
            }
            guard expires <= options.windowEnd else { return }
            if !state.autoRenewOn {
                // Voluntary expiry: V1 never announced it; V2 sends EXPIRED / VOLUNTARY.
                state.expirationIntent = "1"
                try v2Only(
                    "voluntary-expiry", asV1: "DID_RENEW", NotificationKind("EXPIRED", "VOLUNTARY"), at: expires, state)
                guard try resubscribe(&state, &context, after: expires) else { return }
            } else if state.priceConsentStatus == "0" {
                // The customer never consented to the price increase: expiry with intent 3.
                let at = expires + random.int(in: Self.hour...(6 * Self.hour))
                guard at <= options.windowEnd else { return }
                state.autoRenewOn = false
                state.expirationIntent = "3"
                state.autoRenewChangeDate = at
                try twin(
                    "price-increase-expiry", "DID_CHANGE_RENEWAL_STATUS", NotificationKind("EXPIRED", "PRICE_INCREASE"),
                    at: at, state)
                guard try resubscribe(&state, &context, after: at) else { return }
            } else if environment == .production, random.chance(0.10) {
                guard try billingFailure(&state, &context, expires: expires) else { return }
            } else {
                var renewAt = expires
                if environment == .production, random.chance(0.03), expires - 3 * Self.hour > current.purchaseDate,
                    expires + 8 * Self.day <= options.windowEnd
                {
                    // The developer extends the renewal date (after every mid-period event); V1 has no notification for it.
                    // A renewal always follows, so the extended transaction never is the subscription's latest.
                    let at = expires - random.int(in: 60_000...(90 * 60_000))
                    renewAt = expires + 7 * Self.day
                    state.updateCurrent { $0.expiresDate = renewAt }
                    try v2Only(
                        "renewal-extended", asV1: "DID_RENEW", NotificationKind("RENEWAL_EXTENDED"), at: at, state)
                }
                guard renewAt <= options.windowEnd else { return }
                let next = productNamed(state.autoRenewProductId)
                state.priceConsentStatus = nil
                var renewed = transaction(
                    context.ids, context.take(), next, purchase: renewAt,
                    expires: SimulationCalendar.adding(months: next.months, to: renewAt),
                    original: context.start, ownership: context.ownership, token: context.token)
                renewed.isRenewal = true
                state.append(renewed)
                try twin("renewal", "DID_RENEW", NotificationKind("DID_RENEW"), at: renewAt, state, policy: .late)
            }
        }
    }

    /// Mutable facts of one subscription's simulation.
    private struct LifecycleContext {
        let ids: Identifiers
        let ownership: String
        let token: String?
        let family: Bool
        let environment: SimulationEnvironment
        let start: Int64
        var nextTransaction = 0
        var priceIncreaseDone = false

        /// The next transaction number.
        mutating func take() -> Int {
            defer { nextTransaction += 1 }
            return nextTransaction
        }
    }

    /// Events between a purchase and the expiry: auto-renew off and on, downgrade and its reversal, price increase,
    /// and at most one terminal event (upgrade, refund or revoke).
    private mutating func midPeriod(_ state: inout SimulatedSubscriptionState, _ context: inout LifecycleContext)
        throws(ASNError) -> PeriodOutcome
    {
        guard let current = state.current, let expires = current.expiresDate else { return .stop }
        let low = current.purchaseDate + 2 * Self.hour
        let high = min(expires, options.windowEnd) - 2 * Self.hour
        guard high - low > 6 * Self.hour else { return expires > options.windowEnd ? .stop : .runs }
        let level = current.product.group == SimulatedProduct.groupA ? current.product.level : 0
        let production = context.environment == .production

        enum Action { case priceIncrease, off, downgrade, upgrade, refund }
        var actions: [Action] = []
        if production, !context.family, !context.priceIncreaseDone, state.autoRenewOn, random.chance(0.04) {
            actions.append(.priceIncrease)
        }
        if state.autoRenewOn, random.chance(0.08) { actions.append(.off) }
        if level > 1, state.autoRenewOn, random.chance(0.06) { actions.append(.downgrade) }
        if level > 0, level < 3, random.chance(0.06) {
            actions.append(.upgrade)
        } else if random.chance(context.family ? 0.04 : 0.02) {
            actions.append(.refund)
        }
        guard !actions.isEmpty else { return expires > options.windowEnd ? .stop : .runs }

        // Times: sorted, an hour apart; the price increase comes first so nothing lies between its inferred and real time.
        var times: [Int64] = (0..<actions.count).map { _ in random.int(in: low...high) }.sorted()
        for i in 1..<max(1, times.count) where times[i] < times[i - 1] + Self.hour {
            times[i] = times[i - 1] + Self.hour
        }
        for (action, at) in zip(actions, times) where at <= high {
            switch action {
            case .priceIncrease:
                context.priceIncreaseDone = true
                state.priceConsentStatus = "0"
                try twin(
                    "price-increase", "PRICE_INCREASE_CONSENT", NotificationKind("PRICE_INCREASE", "PENDING"), at: at,
                    state, policy: .late)
                let accept = at + random.int(in: (6 * Self.hour)...(3 * Self.day))
                if random.chance(0.7), accept <= high, accept < (times.first { $0 > at } ?? Int64.max) - Self.hour {
                    state.priceConsentStatus = "1"
                    try v2Only(
                        "price-increase-accepted", asV1: "DID_RENEW", NotificationKind("PRICE_INCREASE", "ACCEPTED"),
                        at: accept, state)
                }
            case .off:
                state.autoRenewOn = false
                state.autoRenewChangeDate = at
                try twin(
                    "auto-renew-off", "DID_CHANGE_RENEWAL_STATUS",
                    NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"), at: at, state)
                let on = at + random.int(in: Self.hour...(10 * Self.day))
                if random.chance(0.4), on <= high, on < (times.first { $0 > at } ?? Int64.max) - Self.hour {
                    state.autoRenewOn = true
                    state.autoRenewChangeDate = on
                    try twin(
                        "auto-renew-on", "DID_CHANGE_RENEWAL_STATUS",
                        NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"), at: on, state)
                }
            case .downgrade:
                guard state.autoRenewOn, state.autoRenewProductId == current.product.id else { continue }
                state.autoRenewProductId = SimulatedProduct.monthly[random.below(level - 1)].id
                state.autoRenewChangeDate = at
                try twin(
                    "downgrade", "DID_CHANGE_RENEWAL_PREF", NotificationKind("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"),
                    at: at, state, policy: .late)
                let back = at + random.int(in: Self.hour...(5 * Self.day))
                if random.chance(0.4), back <= high, back < (times.first { $0 > at } ?? Int64.max) - Self.hour {
                    state.autoRenewProductId = current.product.id
                    state.autoRenewChangeDate = back
                    try twin(
                        "downgrade-reverted", "DID_CHANGE_RENEWAL_PREF", NotificationKind("DID_CHANGE_RENEWAL_PREF"),
                        at: back, state)
                }
            case .upgrade:
                try upgrade(&state, &context, at: at, level: level)
                return .upgraded
            case .refund:
                return try refund(&state, &context, at: at)
            }
        }
        return expires > options.windowEnd ? .stop : .runs
    }

    /// An immediate upgrade: V1 INTERACTIVE_RENEWAL plus a companion DID_CHANGE_RENEWAL_STATUS minutes before or after;
    /// V2 one DID_CHANGE_RENEWAL_PREF / UPGRADE (OFFER_REDEEMED / UPGRADE with a promotional offer).
    private mutating func upgrade(
        _ state: inout SimulatedSubscriptionState, _ context: inout LifecycleContext, at: Int64, level: Int
    ) throws(ASNError) {
        let target = SimulatedProduct.monthly[level + random.below(3 - level)]
        let offer = !context.family && random.chance(0.15)
        let delta = companionOffset()
        if delta < 0 {
            var before = state
            before.autoRenewOn = true
            before.autoRenewChangeDate = at + delta
            try companion(
                "upgrade-companion", NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
                at: at + delta, before)
        }
        state.updateCurrent {
            $0.isUpgraded = true
            $0.cancellationDate = at
        }
        var next = transaction(
            context.ids, context.take(), target, purchase: at, expires: SimulationCalendar.adding(months: 1, to: at),
            original: context.start, ownership: context.ownership, token: context.token)
        if offer { next.promotionalOfferId = "UPGRADE\(target.level)" }
        state.append(next)
        state.autoRenewOn = true
        state.autoRenewProductId = target.id
        state.priceConsentStatus = nil
        state.autoRenewChangeDate = at + delta
        try twin(
            offer ? "upgrade-offer" : "upgrade", "INTERACTIVE_RENEWAL",
            NotificationKind(offer ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", "UPGRADE"), at: at, state,
            hasCompanion: true)
        if delta > 0 {
            try companion(
                "upgrade-companion", NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
                at: at + delta, state)
        }
    }

    /// A refund (V1 CANCEL with a companion DID_CHANGE_RENEWAL_STATUS; V2 REFUND) or, for a family member, a
    /// revocation (V1 and V2 REVOKE).
    private mutating func refund(
        _ state: inout SimulatedSubscriptionState, _ context: inout LifecycleContext, at: Int64
    ) throws(ASNError) -> PeriodOutcome {
        let expires = state.current?.expiresDate ?? at
        let reason = random.chance(0.3) ? "1" : "0"
        if context.family {
            state.updateCurrent {
                $0.cancellationDate = at
                $0.cancellationReason = reason
            }
            state.autoRenewOn = false
            state.autoRenewChangeDate = at
            try twin("revoke", "REVOKE", NotificationKind("REVOKE"), at: at, state, cancellation: at, policy: .late)
            return .ended(after: expires)
        }
        let delta = companionOffset()
        if delta < 0 {
            var before = state
            before.autoRenewOn = false
            before.autoRenewChangeDate = at + delta
            try companion(
                "refund-companion", NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"),
                at: at + delta, before)
        }
        state.updateCurrent {
            $0.cancellationDate = at
            $0.cancellationReason = reason
        }
        state.autoRenewOn = false
        state.autoRenewChangeDate = at + delta
        try twin("refund", "CANCEL", NotificationKind("REFUND"), at: at, state, cancellation: at, hasCompanion: true)
        if delta > 0 {
            try companion(
                "refund-companion", NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"),
                at: at + delta, state)
        }
        return .ended(after: expires)
    }

    /// A failed renewal at `expires`, with or without a grace period, then recovery or expiry after billing retry.
    /// Returns false when the simulated window ends first.
    private mutating func billingFailure(
        _ state: inout SimulatedSubscriptionState, _ context: inout LifecycleContext, expires: Int64
    ) throws(ASNError) -> Bool {
        guard let current = state.current else { return false }
        let grace: Int64? = random.chance(0.5) ? expires + (current.product.months == 12 ? 16 : 6) * Self.day : nil
        state.billingRetry = true
        state.expirationIntent = "2"
        state.gracePeriodExpires = grace
        try twin(
            grace == nil ? "billing-failure" : "billing-failure-grace", "DID_FAIL_TO_RENEW",
            NotificationKind("DID_FAIL_TO_RENEW", grace == nil ? nil : "GRACE_PERIOD"), at: expires, state,
            policy: .late)
        let recover = random.chance(0.6)
        let end =
            recover
            ? expires + random.int(in: (2 * Self.hour)...(30 * Self.day))
            : max(grace ?? expires, expires) + random.int(in: Self.day...(40 * Self.day))
        if let grace, end > grace {
            guard grace <= options.windowEnd else { return false }
            try v2Only(
                "grace-period-expired", asV1: "DID_FAIL_TO_RENEW", NotificationKind("GRACE_PERIOD_EXPIRED"), at: grace,
                state)
        }
        guard end <= options.windowEnd else { return false }
        if recover {
            let next = productNamed(state.autoRenewProductId)
            let keepsDates = grace.map { end <= $0 } ?? false
            let newExpiry = SimulationCalendar.adding(months: next.months, to: keepsDates ? expires : end)
            state.billingRetry = false
            state.expirationIntent = nil
            state.gracePeriodExpires = nil
            state.priceConsentStatus = nil
            var recovered = transaction(
                context.ids, context.take(), next, purchase: end, expires: newExpiry,
                original: context.start, ownership: context.ownership, token: context.token)
            recovered.isRenewal = true
            state.append(recovered)
            let legacy = end < Self.renewalTypeRetired
            try twin(
                legacy ? "billing-recovery-legacy" : "billing-recovery", legacy ? "RENEWAL" : "DID_RECOVER",
                NotificationKind("DID_RENEW", "BILLING_RECOVERY"), at: end, state, policy: .late)
            return true
        }
        state.autoRenewOn = false
        state.billingRetry = false
        state.gracePeriodExpires = nil
        state.autoRenewChangeDate = end
        try twin(
            "billing-expiry", "DID_CHANGE_RENEWAL_STATUS", NotificationKind("EXPIRED", "BILLING_RETRY"), at: end, state)
        return try resubscribe(&state, &context, after: end)
    }

    /// Maybe resubscribes days after `after`: to the same product (V1 DID_CHANGE_RENEWAL_STATUS only) or to another
    /// level of group A (V1 INTERACTIVE_RENEWAL plus a companion); V2 SUBSCRIBED / RESUBSCRIBE, or OFFER_REDEEMED /
    /// RESUBSCRIBE with a promotional offer before the offer cutoff. Returns false when nothing follows.
    private mutating func resubscribe(
        _ state: inout SimulatedSubscriptionState, _ context: inout LifecycleContext, after: Int64
    ) throws(ASNError) -> Bool {
        guard random.chance(0.4), let current = state.current else { return false }
        let at = after + random.int(in: (3 * Self.day)...(40 * Self.day))
        guard at + Self.hour <= options.windowEnd else { return false }
        let isA = current.product.group == SimulatedProduct.groupA
        let other = isA && random.chance(0.5)
        var target = productNamed(state.autoRenewProductId)
        if other {
            let levels = SimulatedProduct.monthly.filter { $0.id != current.product.id }
            target = levels[random.below(levels.count)]
        }
        let offer = !context.family && random.chance(0.2)
        var next = transaction(
            context.ids, context.take(), target, purchase: at,
            expires: SimulationCalendar.adding(months: target.months, to: at),
            original: context.start, ownership: context.ownership, token: context.token)
        if offer { next.promotionalOfferId = "WINBACK\(target.level)" }
        state.autoRenewOn = true
        state.autoRenewProductId = target.id
        state.expirationIntent = nil
        state.billingRetry = nil
        state.gracePeriodExpires = nil
        state.priceConsentStatus = nil
        if !other {
            state.append(next)
            let event = at + random.int(in: 0...(30 * 60_000))
            state.autoRenewChangeDate = event
            let kind = NotificationKind(offer && event < offerCutoff ? "OFFER_REDEEMED" : "SUBSCRIBED", "RESUBSCRIBE")
            try twin(
                offer ? "resubscribe-same-offer" : "resubscribe-same", "DID_CHANGE_RENEWAL_STATUS", kind, at: event,
                state)
            return true
        }
        let delta = companionOffset()
        if delta < 0 {
            var before = state
            before.autoRenewProductId = current.product.id
            before.autoRenewChangeDate = at + delta
            try companion(
                "resubscribe-companion", NotificationKind("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
                at: at + delta, before)
        }
        state.append(next)
        state.autoRenewChangeDate = at + delta
        let kind = NotificationKind(offer && at < offerCutoff ? "OFFER_REDEEMED" : "SUBSCRIBED", "RESUBSCRIBE")
        try twin(
            offer ? "resubscribe-other-offer" : "resubscribe-other", "INTERACTIVE_RENEWAL", kind, at: at, state,
            hasCompanion: true)
        if delta > 0 {
            let companionKind = NotificationKind(
                offer && at + delta < offerCutoff ? "OFFER_REDEEMED" : "SUBSCRIBED", "RESUBSCRIBE")
            try companion("resubscribe-companion", companionKind, at: at + delta, state)
        }
        return true
    }

    // MARK: - Consumables

    /// A consumable purchase followed by a consumption request (then a refund or a declined refund), or by a refund.
    private mutating func consumable(environment: SimulationEnvironment, ids: Identifiers, number: Int) throws(ASNError)
    {
        let purchase =
            options.windowStart + random.int(in: 0...(options.windowEnd - options.windowStart - 12 * Self.day))
        let id = String(ids.transactionBase + 5_000 + Int64(number))
        var state = SimulatedSubscriptionState(
            environment: environment, originalTransactionId: id, isSubscription: false,
            productId: SimulatedProduct.coins.id)
        state.append(
            SimulatedTransaction(
                transactionId: id, originalTransactionId: id, webOrderLineItemId: nil, product: .coins,
                purchaseDate: purchase, carried: [.originalPurchaseDate: .integer(purchase)], expiresDate: nil,
                ownership: "PURCHASED", appAccountToken: nil))
        var at = purchase + random.int(in: Self.day...(4 * Self.day))
        if environment == .production, random.chance(0.6) {
            try twin(
                "consumption-request", "CONSUMPTION_REQUEST", NotificationKind("CONSUMPTION_REQUEST"), at: at, state,
                policy: .late)
            at += random.int(in: Self.day...(4 * Self.day))
            if random.chance(0.5) {
                try v2Only(
                    "refund-declined", asV1: "CONSUMPTION_REQUEST", NotificationKind("REFUND_DECLINED"), at: at, state)
                return
            }
        }
        state.updateCurrent {
            $0.cancellationDate = at
            $0.cancellationReason = "0"
        }
        try twin(
            "consumable-refund", "REFUND", NotificationKind("REFUND"), at: at, state, cancellation: at, policy: .late)
    }

    // MARK: - Emitting

    /// Which envelopes a V1 record may arrive in.
    private enum EnvelopePolicy {
        /// Never (anchors).
        case none
        /// Sometimes, received seconds after the event.
        case prompt
        /// Sometimes, and sometimes hours late (kinds that cannot repeat within a transaction).
        case late
    }

    /// Emits a V1 record and its V2 twin.
    private mutating func twin(
        _ label: String, _ v1Type: String, _ intended: NotificationKind, at time: Int64,
        _ state: SimulatedSubscriptionState,
        cancellation: Int64? = nil, policy: EnvelopePolicy = .prompt, role: SimulatedRecord.Role = .twin,
        hasCompanion: Bool = false
    ) throws(ASNError) {
        var record = try v1Record(
            label, v1Type, intended, at: time, state, cancellation: cancellation,
            policy: role == .anchor ? .none : (hasCompanion ? .prompt : policy), role: role)
        record.hasCompanion = hasCompanion
        record.v2 = v2Notification(
            state, kind: intended, at: time,
            delay: role != .anchor ? Self.v2Delay : (options.realisticEdges ? Self.edgeV2Delay : nil))
        if role != .anchor {
            if random.chance(0.02) { record.v1Retries = 1 }
            if random.chance(0.02) { record.v2Retries = 1 }
        }
        records.append(record)
    }

    /// Emits V1's companion DID_CHANGE_RENEWAL_STATUS (V2 sends nothing for it).
    private mutating func companion(
        _ label: String, _ intended: NotificationKind, at time: Int64, _ state: SimulatedSubscriptionState
    ) throws(ASNError) {
        records.append(
            try v1Record(
                label, "DID_CHANGE_RENEWAL_STATUS", intended, at: time, state, cancellation: nil, policy: .prompt,
                role: .companion))
    }

    /// Emits a V2-only notification: what V2 carries for the state (`asV1` names the V1 type a body of the same
    /// moment would have had; V1 sent none).
    private mutating func v2Only(
        _ label: String, asV1 v1Type: String, _ kind: NotificationKind, at time: Int64,
        _ state: SimulatedSubscriptionState
    ) throws(ASNError) {
        var record = SimulatedRecord(
            label: label, role: .v2Only, environment: state.environment,
            originalTransactionId: state.originalTransactionId, time: time)
        record.v2 = v2Notification(state, kind: kind, at: time, delay: Self.v2Delay)
        record.lifecycle = LifecycleSnapshot(state, cancellation: nil)
        if random.chance(0.02) { record.v2Retries = 1 }
        records.append(record)
    }

    /// Builds the V1 record of an event (maybe in an envelope), and what it tells in V2's shape (`v1Mapped`).
    private mutating func v1Record(
        _ label: String, _ v1Type: String, _ intended: NotificationKind, at time: Int64,
        _ state: SimulatedSubscriptionState,
        cancellation: Int64?, policy: EnvelopePolicy, role: SimulatedRecord.Role
    ) throws(ASNError) -> SimulatedRecord {
        let body = JSONValue.object(
            state.body(
                type: v1Type, cancellation: cancellation, bundleVersion: bundleVersion(at: time),
                receipt: receiptBlob(entries: min(state.transactions.count, options.receiptHistoryCap)),
                cap: options.receiptHistoryCap, password: Self.password))
        var receivedAt: Int64?
        var late = false
        if policy != .none, random.chance(0.25) {
            receivedAt = time + random.int(in: 20...20_000)
            if policy == .late, random.chance(0.2) {
                receivedAt = time + random.int(in: Self.hour...(20 * Self.hour))
                late = true
            }
        }
        if let at = receivedAt, intended.subtype == "RESUBSCRIBE", state.current?.promotionalOfferId != nil,
            (at < offerCutoff) != (time < offerCutoff)
        {
            // A resubscription with an offer is OFFER_REDEEMED only before the cutoff: a receive time on the cutoff's
            // other side would tell V1's reader another kind than Apple sent. Send it bare.
            receivedAt = nil
            late = false
        }
        let value = receivedAt.map { Self.envelope(body, receivedAt: $0) } ?? body
        let inferred = receivedAt == nil && Self.timelessV1Types.contains(v1Type)
        let eventTime = receivedAt ?? (inferred ? state.current?.purchaseDate ?? time : time)
        var record = SimulatedRecord(
            label: label, role: role, environment: state.environment,
            originalTransactionId: state.originalTransactionId, time: time)
        record.v1Line = JSONWriter.bytes(value)
        record.lifecycle = LifecycleSnapshot(state, cancellation: cancellation)
        record.v1Type = v1Type
        record.v1Mapped = told(state, kind: intended, at: eventTime, bundleVersion: bundleVersion(at: time))
        record.v1DeliveryTime = receivedAt ?? time
        record.inferredTime = inferred
        record.late = late
        if late { record.v1Body = body }
        return record
    }

    /// What a V1 record of the lifecycle tells, in V2's shape: the kind, the transaction and renewal info Apple's V2
    /// carries for the same moment, and the status at the V1 event time `time` (its `signedDate`).
    private func told(
        _ state: SimulatedSubscriptionState, kind: NotificationKind, at time: Int64, bundleVersion: String
    ) -> ResponseBodyV2DecodedPayload {
        var data = NotificationData()
        data.bundleId = SimulatedProduct.bundleId
        data.bundleVersion = bundleVersion
        data.environment = state.environment.rawValue
        data.status = LifecycleV2.status(of: state, at: time)?.rawValue
        data.transactionInfo = state.current.map { LifecycleV2.transaction($0, environment: state.environment) }
        data.renewalInfo = LifecycleV2.renewal(state)
        return ResponseBodyV2DecodedPayload(
            notificationType: kind.type, subtype: kind.subtype, notificationUUID: "", version: "2.0", signedDate: time,
            data: data, migration: nil)
    }

    /// How long after the event V2 signs an ordinary notification (ms).
    static let v2Delay: ClosedRange<Int64> = 0...4_000
    /// How long after the event V2 signs the anchor's notifications with `realisticEdges` (ms): seconds to minutes.
    static let edgeV2Delay: ClosedRange<Int64> = 1_000...300_000

    /// Apple's V2 notification of kind `kind` for the lifecycle `state` at an event at `time`, signed `delay` after it
    /// (nil: at it): the transaction, renewal info and status as of the signing (`LifecycleV2`).
    private mutating func v2Notification(
        _ state: SimulatedSubscriptionState, kind: NotificationKind, at time: Int64, delay: ClosedRange<Int64>?
    ) -> SimulatedV2Notification {
        let signedDate = time + (delay.map { random.int(in: $0) } ?? 0)
        var transaction = state.current.map { LifecycleV2.transaction($0, environment: state.environment) }
        transaction?.signedDate = signedDate
        var renewal = LifecycleV2.renewal(state)
        renewal?.signedDate = signedDate
        return SimulatedV2Notification(
            notificationType: kind.type, subtype: kind.subtype, notificationUUID: random.uuid(), signedDate: signedDate,
            environment: state.environment, bundleVersion: bundleVersion(at: time),
            status: LifecycleV2.status(of: state, at: signedDate)?.rawValue,
            transaction: transaction, renewal: renewal, signatureSeed: random.next())
    }

    // MARK: - Helpers

    private func transaction(
        _ ids: Identifiers, _ number: Int, _ product: SimulatedProduct, purchase: Int64, expires: Int64,
        original: Int64, ownership: String, token: String?
    ) -> SimulatedTransaction {
        SimulatedTransaction(
            transactionId: String(ids.transactionBase + Int64(number)),
            originalTransactionId: String(ids.transactionBase),
            webOrderLineItemId: String(ids.webOrderBase + Int64(number)), product: product, purchaseDate: purchase,
            carried: [.originalPurchaseDate: .integer(original)], expiresDate: expires, ownership: ownership,
            appAccountToken: token)
    }

    private func productNamed(_ id: String) -> SimulatedProduct {
        SimulatedProduct.named(id) ?? SimulatedProduct.monthly[0]
    }

    /// A companion's offset from its INTERACTIVE_RENEWAL or CANCEL: 5 s to 5 min, before or after.
    private mutating func companionOffset() -> Int64 {
        let magnitude = random.int(in: 5_000...300_000)
        return random.chance(0.3) ? -magnitude : magnitude
    }

    /// The app version at an instant: one release a month.
    private func bundleVersion(at time: Int64) -> String {
        String(400 + max(0, (time - options.start) / (30 * Self.day)))
    }

    /// A deterministic stand-in for the base64 PKCS #7 receipt: a DER-looking header and random bytes, growing with the history.
    private mutating func receiptBlob(entries: Int) -> String {
        let length = 1_500 + 160 * entries
        var bytes: [UInt8] = [
            0x30, 0x82, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
            0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x82
        ]
        bytes.reserveCapacity(length)
        blobRandom.appendBytes(length - bytes.count, to: &bytes)
        return Base64.encode(bytes)
    }

    /// `{"received_at": ISO, "body": {...}}`.
    private static func envelope(_ body: JSONValue, receivedAt: Int64) -> JSONValue {
        .object(
            JSONObject([
                .init(key: "received_at", value: .string(Timestamp.iso8601(ms: receivedAt))),
                .init(key: "body", value: body)
            ]))
    }
}
