import ASNMigrateKit

/// `simulate --switch`: which records each side keeps (V1 before the switch instant S, V2 from it on), the faults
/// placed at the seam, and the truth they cause, judged from the simulated lifecycle (`LifecycleSnapshot`, the V2
/// notifications the simulator wrote), never through the tool's mapping, merging or state rules.
package enum SwitchSeamTruth {
    /// The seam faults `--inject` places with a switch.
    package enum Fault: String, Sendable, CaseIterable {
        /// The V2 endpoint is down for days after S: the subscription's notifications in it are dropped.
        case outage = "v2_outage"
        /// A change notification (auto-renew on or off) lost just before S (V1) or just after it (V2).
        case changeLost = "change_lost"
        /// An event just before S delivered in V1 and again, signed after S, in V2.
        case inFlight = "in_flight"
        /// A V2 renewal after S dropped, although Apple has its transaction.
        case renewalDropped = "v2_renewal_dropped"
    }

    /// Which side writes each record of a subscriber.
    package struct Delivery: Sendable {
        /// Per record: its V1 line is written.
        package var v1: [Bool]
        /// Per record: its V2 notification is written.
        package var v2: [Bool]
    }

    /// A subscriber's truth, before the V2 side's reach (known once every subscriber is simulated) decides silence.
    package struct Subscriber: Sendable {
        /// Rows that hold whatever the V2 side reaches.
        package var rows: [TruthRow] = []
        /// `silent_in_v2` rows, each kept when its environment's V2 notifications reach past `limit`.
        package var silent: [(row: TruthRow, limit: Int64)] = []
        /// Subscriptions live at S.
        package var live = 0
        /// Of those, continued in V2.
        package var continued = 0
        /// Events delivered in both versions.
        package var deliveredInBoth = 0
    }

    /// The V1 event time of a record: the time its V1 record carries.
    static func v1Time(_ record: SimulatedRecord) -> Int64 {
        record.v1Mapped?.signedDate ?? record.time
    }

    // MARK: - Faults

    /// Places seam faults on `records` (one subscriber's, in time order), each subscription hit with probability
    /// `rate`; returns the records to drop on each side and the faults placed, by kind.
    package static func inject(
        _ records: inout [SimulatedRecord], switches: SwitchDates, window: Int64, rate: Double,
        random: inout SimulationRandom
    ) -> (dropV1: Set<Int>, dropV2: Set<Int>, faults: [String: Int]) {
        var dropV1: Set<Int> = []
        var dropV2: Set<Int> = []
        var faults: [String: Int] = [:]
        var keys: [String] = []
        for record in records where record.role != .anchor {
            if let key = record.originalTransactionId, !keys.contains(key) { keys.append(key) }
        }
        for key in keys {
            guard random.chance(rate) else { continue }
            let indices = records.indices.filter { records[$0].originalTransactionId == key }
            guard let first = indices.first,
                let s = switches.instant(of: records[first].environment.rawValue)
            else { continue }
            let day = SimulationCalendar.day
            let v2After = indices.filter { (records[$0].v2?.signedDate ?? Int64.min) >= s }
            var options: [Fault] = []
            if !v2After.isEmpty { options.append(.outage) }
            let changes = indices.filter { records[$0].v2?.notificationType == "DID_CHANGE_RENEWAL_STATUS" }
            let changeBefore = changes.last { v1Time(records[$0]) < s && v1Time(records[$0]) >= s - 30 * day }
            let changeAfter = changes.first { (records[$0].v2?.signedDate ?? Int64.min) >= s }
            if changeBefore != nil || changeAfter != nil { options.append(.changeLost) }
            let flight = indices.first {
                let r = records[$0]
                return r.v1Line != nil && r.v2 != nil && r.role == .twin && !r.inferredTime
                    && v1Time(r) >= s - window / 2 && v1Time(r) < s
            }
            if flight != nil { options.append(.inFlight) }
            let renewals = v2After.filter {
                records[$0].v2?.notificationType == "DID_RENEW" && records[$0].v2?.subtype != "BILLING_RECOVERY"
            }
            if !renewals.isEmpty { options.append(.renewalDropped) }
            guard !options.isEmpty else { continue }
            let fault = options[random.below(options.count)]
            switch fault {
            case .outage:
                let until = s + Int64(5 + random.below(36)) * day
                for i in v2After where (records[i].v2?.signedDate ?? Int64.max) <= until { dropV2.insert(i) }
            case .changeLost:
                if let before = changeBefore, changeAfter == nil || random.chance(0.5) {
                    dropV1.insert(before)
                } else if let after = changeAfter {
                    dropV2.insert(after)
                }
            case .inFlight:
                if let i = flight { records[i].v2?.signedDate = s + 60_000 + Int64(random.below(Int(window / 2))) }
            case .renewalDropped:
                dropV2.insert(renewals[random.below(renewals.count)])
            }
            faults[fault.rawValue, default: 0] += 1
        }
        return (dropV1, dropV2, faults)
    }

    /// Which side writes each record: V1 before its environment's switch, V2 from it on, less the dropped ones.
    /// An environment without a switch writes both sides whole.
    package static func delivery(
        _ records: [SimulatedRecord], switches: SwitchDates, dropV1: Set<Int>, dropV2: Set<Int>
    ) -> Delivery {
        var delivery = Delivery(
            v1: Array(repeating: false, count: records.count), v2: Array(repeating: false, count: records.count))
        for (i, record) in records.enumerated() {
            let s = switches.instant(of: record.environment.rawValue)
            delivery.v1[i] = record.v1Line != nil && !dropV1.contains(i) && s.map { v1Time(record) < $0 } ?? true
            delivery.v2[i] =
                record.v2.map { v2 in !dropV2.contains(i) && s.map { v2.signedDate >= $0 } ?? true } ?? false
        }
        return delivery
    }

    // MARK: - Truth

    /// The seam truth of one subscriber's records as delivered.
    package static func judge(
        _ records: [SimulatedRecord], delivery: Delivery, switches: SwitchDates, window: Int64
    ) -> Subscriber {
        var out = Subscriber()
        var keys: [String] = []
        for record in records {
            if let key = record.originalTransactionId, !keys.contains(key) { keys.append(key) }
        }
        for key in keys {
            let indices = records.indices.filter { records[$0].originalTransactionId == key }
            guard let first = indices.first, let s = switches.instant(of: records[first].environment.rawValue) else {
                continue
            }
            let v1 = indices.filter { delivery.v1[$0] && !records[$0].inferredTime }.sorted {
                (v1Time(records[$0]), $0) < (v1Time(records[$1]), $1)
            }.map { records[$0] }
            let v2 = indices.filter { delivery.v2[$0] }.sorted {
                (records[$0].v2?.signedDate ?? 0, $0) < (records[$1].v2?.signedDate ?? 0, $1)
            }.map { records[$0] }
            judge(
                environment: records[first].environment.rawValue, key: key, v1: v1, v2: v2, instant: s, window: window,
                into: &out)
        }
        return out
    }

    /// One subscription's truth: `v1` its delivered V1 records before S, `v2` its delivered V2 notifications, by time.
    private static func judge(
        environment: String, key: String, v1: [SimulatedRecord], v2: [SimulatedRecord], instant s: Int64,
        window: Int64, into out: inout Subscriber
    ) {
        let signed = { (r: SimulatedRecord) in r.v2?.signedDate ?? 0 }
        if let last = v1.last?.lifecycle, last.isSubscription, due(last, at: s) != nil {
            out.live += 1
            if !v2.isEmpty { out.continued += 1 }
        }
        // In flight: a V1 event in [S - window, S) and its V2 copy signed in [S, S + window].
        var used: Set<Int> = []
        for a in v1 where v1Time(a) >= s - window {
            guard let id = transactionId(a) else { continue }
            if let j = v2.indices.first(where: { j in
                !used.contains(j) && signed(v2[j]) <= s + window && transactionId(v2[j]) == id
                    && v2[j].kind == a.kind
            }) {
                used.insert(j)
                out.deliveredInBoth += 1
            }
        }
        // Silent: the lifecycle right after the newest delivered record.
        let newest: (time: Int64, record: SimulatedRecord)? = [
            v1.last.map { (v1Time($0), $0) }, v2.last.map { (signed($0), $0) }
        ].compactMap { $0 }.max { $0.0 < $1.0 }
        if let newest, let life = newest.record.lifecycle, life.isSubscription,
            let d = due(life, at: newest.time), d >= s
        {
            let limit = d + window
            if !v2.contains(where: { signed($0) >= s && signed($0) <= limit }) {
                var row = TruthRow(
                    kind: "silent_in_v2", environment: environment, originalTransactionId: key, webOrderLineItemId: "",
                    eventDate: d)
                row.productId = life.productId ?? ""
                out.silent.append((row, limit))
            }
        }
        out.rows += gaps(environment: environment, key: key, v1: v1, v2: v2, window: window)
        out.rows += mismatches(environment: environment, key: key, v1: v1, v2: v2)
    }

    /// When the next event of a lifecycle is due, seen at `instant`: the expiry while active, the grace end, the end
    /// of billing retry (60 days after the expiry); nil when the subscription is not live then.
    static func due(_ life: LifecycleSnapshot, at instant: Int64) -> Int64? {
        guard let expires = life.expiresDate else { return nil }
        if let revoked = life.revoked, revoked <= instant { return nil }
        if expires > instant { return expires }
        if let grace = life.gracePeriodExpires, grace > instant { return grace }
        let retryEnd = expires + 60 * SimulationCalendar.day
        if life.billingRetry == true, instant < retryEnd { return retryEnd }
        return nil
    }

    /// The transaction a record is about: its V2 notification's, else the lifecycle's newest.
    static func transactionId(_ record: SimulatedRecord) -> String? {
        record.v2?.transaction?.transactionId ?? record.lifecycle?.transactionId
    }

    /// The types whose record explains a gap before a renewal.
    static let explaining: Set<String> = [
        "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE", "RENEWAL_EXTENDED"
    ]

    /// The `renewal_gap` rows of one subscription.
    private static func gaps(
        environment: String, key: String, v1: [SimulatedRecord], v2: [SimulatedRecord], window: Int64
    ) -> [TruthRow] {
        var rows: [TruthRow] = []
        var known = v1.compactMap { $0.lifecycle?.greatestExpiry }.max()
        for (position, record) in v2.enumerated() {
            defer {
                if let e = record.v2?.transaction?.expiresDate { known = max(known ?? e, e) }
            }
            guard let n = record.v2, n.notificationType == "DID_RENEW", n.subtype != "BILLING_RECOVERY",
                let known, let p = n.transaction?.purchaseDate, let x = n.transaction?.expiresDate
            else { continue }
            let gap = p - known
            guard gap >= (x - p) - window, gap > window else { continue }
            let explained =
                v1.contains { r in
                    v1Time(r) >= known - window && v1Time(r) <= p && explaining.contains(r.kind?.type ?? "")
                }
                || v2Before(v2: Array(rowsBefore(position, in: v2)), known: known, window: window, until: p)
            guard !explained else { continue }
            var row = TruthRow(
                kind: "renewal_gap", environment: environment, originalTransactionId: key, webOrderLineItemId: "",
                eventDate: p)
            row.v1Value = Timestamp.iso8601(ms: known)
            row.v2Value = Timestamp.iso8601(ms: p)
            fillV2(&row, n)
            row.productId = n.transaction?.productId ?? ""
            rows.append(row)
        }
        return rows
    }

    /// The records before `position`.
    private static func rowsBefore(_ position: Int, in records: [SimulatedRecord]) -> ArraySlice<SimulatedRecord> {
        records[..<position]
    }

    /// Whether one of `v2` (earlier notifications) explains a gap from `known` to `until`.
    private static func v2Before(v2: [SimulatedRecord], known: Int64, window: Int64, until: Int64) -> Bool {
        v2.contains { r in
            guard let n = r.v2 else { return false }
            return n.signedDate >= known - window && n.signedDate <= until && explaining.contains(n.notificationType)
        }
    }

    /// The `seam_state_mismatch` rows of one subscription: V1's last record against the first V2 notification.
    private static func mismatches(
        environment: String, key: String, v1: [SimulatedRecord], v2: [SimulatedRecord]
    ) -> [TruthRow] {
        guard let last = v1.last?.lifecycle, last.isSubscription, let first = v2.first?.v2 else { return [] }
        var rows: [TruthRow] = []
        let add = { (field: String, v1Value: String, v2Value: String) in
            var row = TruthRow(
                kind: "seam_state_mismatch", environment: environment, originalTransactionId: key,
                webOrderLineItemId: "", eventDate: first.signedDate)
            row.field = field
            row.v1Value = v1Value
            row.v2Value = v2Value
            fillV2(&row, first)
            row.productId = first.transaction?.productId ?? last.productId ?? ""
            rows.append(row)
        }
        let stated = first.renewal?.autoRenewStatus
        if first.notificationType == "DID_RENEW", !last.autoRenewOn { add("autoRenewStatus", "0", String(stated ?? 1)) }
        if first.notificationType == "EXPIRED", first.subtype == "VOLUNTARY", last.autoRenewOn {
            add("autoRenewStatus", "1", String(stated ?? 0))
        }
        if first.notificationType == "DID_RENEW", let product = first.transaction?.productId,
            product != last.autoRenewProductId
        {
            add("autoRenewProductId", last.autoRenewProductId, product)
        }
        return rows
    }

    /// The V2 columns of a row about `notification`.
    private static func fillV2(_ row: inout TruthRow, _ notification: SimulatedV2Notification) {
        row.v2NotificationType = notification.notificationType
        row.v2Subtype = notification.subtype ?? ""
        row.v2NotificationUUID = notification.notificationUUID
        row.v2SignedDate = notification.signedDate
    }

    /// With Apple's view: the transactions Apple made after the switch that the V2 notifications written do not carry,
    /// each with the moment the V2 side must reach past (plus `window`) for it to be a row, not pending. Auto-renewable
    /// transactions are notified (family-shared ones too); a one-time purchase only when refunded, in a `REFUND`.
    package static func missingInV2(
        _ records: [SimulatedRecord], delivery: Delivery, view: SimulatedAPIView.Derived, switches: SwitchDates,
        window: Int64
    ) -> [(row: TruthRow, limit: Int64)] {
        var carried: Set<[String]> = []
        var refunded: Set<[String]> = []
        for (i, record) in records.enumerated() where delivery.v2[i] {
            guard let v2 = record.v2, let id = v2.transaction?.transactionId else { continue }
            let key = [record.environment.rawValue, id]
            carried.insert(key)
            if v2.notificationType == "REFUND" { refunded.insert(key) }
        }
        var out: [(row: TruthRow, limit: Int64)] = []
        for (_, transactions) in view.history.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            for t in transactions {
                guard let environment = t.environment, let s = switches.instant(of: environment),
                    let purchase = t.purchaseDate, purchase >= s, let id = t.transactionId
                else { continue }
                let key = [environment, id]
                let moment: Int64
                if t.type == LifecycleV2.autoRenewableType {
                    guard !carried.contains(key) else { continue }
                    moment = purchase
                } else {
                    guard let revoked = t.revocationDate, revoked >= s, !refunded.contains(key) else { continue }
                    moment = revoked
                }
                var row = TruthRow(
                    kind: "transaction_missing_in_v2", environment: environment,
                    originalTransactionId: t.originalTransactionId ?? "",
                    webOrderLineItemId: t.webOrderLineItemId ?? "",
                    eventDate: purchase)
                row.field = "transactionId"
                row.v2Value = id
                row.productId = t.productId ?? ""
                row.bundleId = t.bundleId ?? ""
                out.append((row, moment + window))
            }
        }
        return out
    }
}
