/// The checks at the switch (`--switch`): a subscription's history read as one timeline, its V1 records before the
/// environment's switch instant S, then its V2 notifications from S on, judged by the one set of state rules
/// (`SubscriptionStateRules`). Pure: records in, rows and counts out.
///
/// - `silent_in_v2`: live after its newest record, next event due at D ≥ S, no V2 notification in [S, D + window],
///   while the V2 notifications reach past D + window (else pending, `awaiting_v2`);
/// - `renewal_gap`: a V2 `DID_RENEW` (not `BILLING_RECOVERY`) purchased at P, at least a period (less the window, and
///   more than the window) after the greatest expiry E known before it, with no record of an expiry, billing failure,
///   refund, revocation or extension dated in [E − window, P];
/// - `seam_state_mismatch`: the first V2 notification contradicts V1's last record (auto-renew, auto-renew product);
/// - counted: live at S, continued in V2, delivered in both, records on the wrong side of S.
package struct SwitchSeam: Sendable {
    /// One record as the seam checks read it.
    package struct Record: Sendable {
        /// The record's event time (V1) or `signedDate` (V2), ms.
        package var time: Int64
        /// The V2 `notificationType` (a V1 record's: the one it maps to).
        package var type: String
        /// The V2 `subtype` (a V1 record's: the one it maps to), "" when none.
        package var subtype: String
        /// The facts the state rules read.
        package var fact: StateFact
        /// The transaction's id, when known.
        package var transactionID: TransactionID?
        /// The transaction's `productId`.
        package var productId: String?
        /// A V2 notification's `notificationUUID` ("" for V1).
        package var uuid: String = ""

        /// Creates a record.
        package init(
            time: Int64, type: String, subtype: String, fact: StateFact, transactionID: TransactionID?,
            productId: String?, uuid: String = ""
        ) {
            self.time = time
            self.type = type
            self.subtype = subtype
            self.fact = fact
            self.transactionID = transactionID
            self.productId = productId
            self.uuid = uuid
        }

        /// The transaction the record is about.
        var transaction: StateFact.Transaction? { fact.own.map { fact.transactions[$0] } }
    }

    /// What one subscription's seam gives.
    package struct Outcome: Sendable, Equatable {
        /// Its difference rows.
        package var differences: [Discrepancy] = []
        /// Its `awaiting_v2` row, when pending.
        package var pending: [Discrepancy] = []
        /// Live at S by its V1 records.
        package var live = false
        /// Live at S and notified in V2 from S on.
        package var continued = false
        /// Events delivered in both versions.
        package var deliveredInBoth = 0
    }

    /// The environment's switch instant S, ms.
    package var instant: Int64
    /// `--window`, ms.
    package var window: Int64
    /// The newest `signedDate` of the environment's V2 notifications from S on (nil: none).
    package var v2Reach: Int64?

    /// A seam at `instant` with the tolerance `window`, the V2 notifications reaching `v2Reach`.
    package init(instant: Int64, window: Int64, v2Reach: Int64?) {
        self.instant = instant
        self.window = window
        self.v2Reach = v2Reach
    }

    /// The types whose record between the last expiry known and a renewal explains a gap (`renewal_gap`).
    static let gapExplainingTypes: Set<String> = [
        "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE", "RENEWAL_EXTENDED"
    ]

    /// Judges one subscription: `v1` its V1 records before S, `v2` its V2 notifications from S on (records on the
    /// wrong side of S are the caller's to count and leave out), each in input order.
    package func judge(
        environment: String, originalTransactionId: String, v1 unsortedV1: [Record], v2 unsortedV2: [Record]
    )
        -> Outcome
    {
        var outcome = Outcome()
        let v1 = Self.sorted(unsortedV1)
        let v2 = Self.sorted(unsortedV2)
        var base = Discrepancy(kind: .silentInV2)
        base.environment = environment
        base.originalTransactionId = originalTransactionId
        let row = { (kind: Discrepancy.Kind, eventDate: Int64) in Self.row(base, kind, eventDate) }
        // Live at S: what V1 alone says at the switch.
        if let state = SubscriptionStateRules.derive(v1.lazy.map(\.fact), at: instant), Self.isLive(state.status) {
            outcome.live = true
            outcome.continued = !v2.isEmpty
        }
        outcome.deliveredInBoth = deliveredInBoth(v1: v1, v2: v2)
        // Silent: the state after the newest record, and the next event it makes due.
        if let newest = (v1.last?.time).map({ max($0, v2.last?.time ?? $0) }) ?? v2.last?.time,
            let state = SubscriptionStateRules.derive([v1, v2].joined().lazy.map(\.fact), at: newest),
            let due = Self.nextEvent(state), due >= instant
        {
            let limit = due &+ window
            if !v2.contains(where: { $0.time >= instant && $0.time <= limit }) {
                var d = row(v2Reach.map { $0 > limit } ?? false ? .silentInV2 : .awaitingV2, due)
                d.productId = state.productId ?? ""
                if d.kind == .silentInV2 { outcome.differences.append(d) } else { outcome.pending.append(d) }
            }
        }
        outcome.differences += renewalGaps(v1: v1, v2: v2, base: base)
        outcome.differences += stateMismatches(v1: v1, v2: v2, base: base)
        return outcome
    }

    /// Whether a status is live: active, in a grace period or in billing retry.
    static func isLive(_ status: SubscriptionStatus) -> Bool {
        status == .active || status == .gracePeriod || status == .billingRetry
    }

    /// The instant a live state's next event is due: the expiry (active), the grace end, or the billing retry's end
    /// (60 days after the expiry); nil when not live.
    static func nextEvent(_ state: SubscriptionState) -> Int64? {
        switch state.status {
        case .active: return state.expiresDate
        case .gracePeriod: return state.gracePeriodExpiresDate
        case .billingRetry: return state.expiresDate.map { $0 &+ SubscriptionStatus.billingRetryLimit }
        case .expired, .revoked: return nil
        }
    }

    /// Events in flight at the switch: a V1 record in [S − window, S) and a V2 notification in [S, S + window] of the
    /// same transaction, type and subtype; each V2 notification counted with at most one V1 record.
    func deliveredInBoth(v1: [Record], v2: [Record]) -> Int {
        var used = [Bool](repeating: false, count: v2.count)
        var count = 0
        for a in v1 where a.time >= instant &- window && a.time < instant {
            guard let id = a.transactionID else { continue }
            if let j = v2.indices.first(where: { j in
                !used[j] && v2[j].time >= instant && v2[j].time <= instant &+ window && v2[j].transactionID == id
                    && v2[j].type == a.type && v2[j].subtype == a.subtype
            }) {
                used[j] = true
                count += 1
            }
        }
        return count
    }

    /// The `renewal_gap` rows: each V2 `DID_RENEW` (not `BILLING_RECOVERY`) after a gap of a whole period no record
    /// explains.
    func renewalGaps(v1: [Record], v2: [Record], base: Discrepancy) -> [Discrepancy] {
        var rows: [Discrepancy] = []
        var known: Int64? = v1.lazy.flatMap { $0.fact.transactions.compactMap(\.expiresDate) }.max()
        for (position, renewal) in v2.enumerated() {
            defer {
                if let newest = renewal.fact.transactions.compactMap(\.expiresDate).max() {
                    known = max(known ?? newest, newest)
                }
            }
            guard renewal.type == "DID_RENEW", renewal.subtype != "BILLING_RECOVERY", let known,
                let t = renewal.transaction, t.purchaseDate != Int64.min, let expires = t.expiresDate
            else { continue }
            let purchase = t.purchaseDate
            let gap = purchase &- known
            guard gap >= (expires &- purchase) &- window, gap > window else { continue }
            let explains = { (record: Record) in
                record.time >= known &- window && record.time <= purchase
                    && Self.gapExplainingTypes.contains(record.type)
            }
            let explained = v1.contains(where: explains) || v2[..<position].contains(where: explains)
            guard !explained else { continue }
            var d = Self.row(base, .renewalGap, purchase)
            d.v1Value = Timestamp.iso8601(ms: known)
            d.v2Value = Timestamp.iso8601(ms: purchase)
            Self.fillV2(&d, renewal)
            d.productId = t.productId ?? ""
            rows.append(d)
        }
        return rows
    }

    /// The `seam_state_mismatch` rows: V1's last record against the first V2 notification.
    func stateMismatches(v1: [Record], v2: [Record], base: Discrepancy) -> [Discrepancy] {
        guard let last = v1.last, let renewal = last.fact.renewal, let first = v2.first else { return [] }
        var rows: [Discrepancy] = []
        let add = { (field: String, v1Value: String, v2Value: String) in
            var d = Self.row(base, .seamStateMismatch, first.time)
            d.field = field
            d.v1Value = v1Value
            d.v2Value = v2Value
            Self.fillV2(&d, first)
            d.productId = first.productId ?? last.productId ?? ""
            rows.append(d)
        }
        let firstAutoRenew = first.fact.renewal?.autoRenewStatus
        if first.type == "DID_RENEW", renewal.autoRenewStatus == 0 {
            add("autoRenewStatus", "0", String(firstAutoRenew ?? 1))
        }
        if first.type == "EXPIRED", first.subtype == "VOLUNTARY", renewal.autoRenewStatus == 1 {
            add("autoRenewStatus", "1", String(firstAutoRenew ?? 0))
        }
        if first.type == "DID_RENEW", let expected = renewal.autoRenewProductId, let product = first.productId,
            expected != product
        {
            add("autoRenewProductId", expected, product)
        }
        return rows
    }

    /// `base` (its subscription's columns) as a row of `kind` dated `eventDate`.
    private static func row(_ base: Discrepancy, _ kind: Discrepancy.Kind, _ eventDate: Int64) -> Discrepancy {
        var d = base
        d.kind = kind
        d.eventDate = eventDate
        return d
    }

    /// The V2 columns of a row about `record`.
    private static func fillV2(_ d: inout Discrepancy, _ record: Record) {
        d.v2NotificationType = record.type
        d.v2Subtype = record.subtype
        d.v2NotificationUUID = record.uuid
        d.v2SignedDate = record.time
    }

    /// Records by time, input order among equal times.
    private static func sorted(_ records: [Record]) -> [Record] {
        // Records usually arrive in time order: then there is nothing to sort.
        if zip(records, records.dropFirst()).allSatisfy({ $0.time <= $1.time }) { return records }
        return records.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
    }
}
