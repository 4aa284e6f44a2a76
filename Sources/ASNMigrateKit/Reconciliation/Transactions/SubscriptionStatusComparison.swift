/// Compares each subscription's status from Get All Subscription Statuses with the state the V1 archive implies at
/// the time the statuses were fetched; pure.
///
/// V1's state comes from the one set of state rules (`SubscriptionStateRules`, knowledge `.asOf(lag: --window)`):
/// records at or before the fetch time, and records received up to the window after it for what they date at or
/// before it (V1 notifications lag). `KnowledgeRule.unknowableInStatus` leaves out a renewal-date extension V1 could
/// not yet know. A status fetched more than the window after the V1 archive's last event is not compared (counted in
/// `statuses_after_v1_end`): after the archive ends, renewals, refunds, auto-renew changes and expiries reach Apple but
/// not V1, so any difference would be invented. A response saved twice (same subscription and fetch time) is compared
/// once (`statuses_duplicates`).
package struct SubscriptionStatusComparison: Sendable {
    /// The run's options (compared fields).
    package let options: ReconcileOptions

    /// Creates a comparison.
    package init(options: ReconcileOptions) {
        self.options = options
    }

    /// V1's state of one subscription as of `instant`, from `records` (input order); nil when no record tells it.
    ///
    /// V1 notifications reach the archive seconds to minutes after Apple's event, so a record received up to `lag`
    /// after the instant still contributes the transactions it shows that were purchased by the instant (a renewal
    /// just before the fetch whose DID_RENEW arrived just after), without refunds dated after the instant; its renewal
    /// facts, which may be newer than the instant, are left out (`SubscriptionStateRules.Knowledge.asOf`).
    package static func state(of subscription: String, records: [V1RecordFacts], at instant: Int64, lag: Int64 = 0)
        -> SubscriptionState?
    {
        state(facts: records.compactMap { $0.stateFact(of: subscription) }, at: instant, lag: lag)
    }

    /// V1's state as of `instant` from one subscription's record facts `facts` (input order); the rule is `state(of:)`'s.
    package static func state(facts: [StateFact], at instant: Int64, lag: Int64 = 0) -> SubscriptionState? {
        SubscriptionStateRules.derive(facts, at: instant, knowledge: .asOf(lag: lag))
    }

    /// The `state_mismatch` rows and the status figures for `statuses` against the V1 records `v1` kept.
    package func compare<Statuses: Collection<V2SubscriptionStatus>>(_ statuses: Statuses, v1: V1TransactionCollector)
        -> (
            differences: [Discrepancy], summary: TransactionSummary.StatusSummary
        )
    {
        let result = compare(statuses, archiveEnd: v1.eventRange?.upperBound, facts: { v1.stateFacts(of: $0) })
        return (result.differences, result.summary)
    }

    /// The `state_mismatch` rows and the status figures for `statuses` against each subscription's V1 state facts
    /// (`facts`, input order), with `archiveEnd` the V1 archive's last event time over the whole run.
    ///
    /// With `--switch` (`switched`), a status of a switched environment is compared with the state of V1's records
    /// before the switch and the V2 notifications from it on, whenever it was fetched after the switch, unless it was
    /// fetched more than the window after those notifications end (counted in `afterV2End`, as a status fetched after
    /// the V1 archive ends is: what Apple learnt later would be an invented difference).
    package func compare<Statuses: Collection<V2SubscriptionStatus>>(
        _ statuses: Statuses, archiveEnd: Int64?, facts factsOf: (SubscriptionKey) -> [StateFact]?,
        switched: SwitchNotifications? = nil
    ) -> (differences: [Discrepancy], summary: TransactionSummary.StatusSummary, afterV2End: Int) {
        var differences: [Discrepancy] = []
        var compared = 0
        var withoutV1 = 0
        var withoutTime = 0
        var afterEnd = 0
        var afterV2End = 0
        var mismatched = 0
        var duplicates = 0
        var seen: Set<[String]> = []
        for status in statuses {
            let key = SubscriptionKey(
                environment: status.environment, originalTransactionId: status.originalTransactionId)
            guard let fetchedAt = status.fetchedAt else {
                withoutTime += 1
                continue
            }
            // A response saved twice is one answer of Apple's: compared once.
            guard seen.insert([status.environment, status.originalTransactionId, String(fetchedAt)]).inserted else {
                duplicates += 1
                continue
            }
            // The facts are read only for a status that is compared.
            let facts: [StateFact]?
            if let switched, let switchInstant = switched.dates.instant(of: status.environment),
                fetchedAt >= switchInstant
            {
                guard let reach = switched.reach[status.environment], reach >= fetchedAt - options.window else {
                    afterV2End += 1
                    continue
                }
                let after = switched.facts[key] ?? []
                let before = (factsOf(key) ?? []).filter { $0.time < switchInstant }
                facts = before.isEmpty && after.isEmpty ? nil : before + after
            } else if let archiveEnd, archiveEnd < fetchedAt - options.window {
                afterEnd += 1
                continue
            } else {
                facts = factsOf(key)
            }
            let instant = fetchedAt
            guard let facts,
                let mine = Self.state(facts: facts, at: instant, lag: options.window)
            else {
                withoutV1 += 1
                continue
            }
            compared += 1
            // Apple's side of every item: the status response's transaction and renewal info, read by the table.
            var apple = NotificationData()
            apple.transactionInfo = status.transaction
            apple.renewalInfo = status.renewal
            let theirs = ResponseBodyV2DecodedPayload(notificationType: "", data: apple)
            var items: [(field: String, cells: (String, String))] = []
            if let cells = FieldComparison.difference(
                .number(mine.status.rawValue), .number(status.status), tolerance: options.timeTolerance)
            {
                items.append(("status", cells))
            }
            // Renewal intent is compared when V1 ever stated it (`.whenV1States`).
            for field in ComparedField.statusFields where options.fields.contains(field) {
                guard let item = field.state, let when = item.inStatuses,
                    let cells = FieldComparison.difference(
                        item.read(mine), field.row.value(in: theirs), tolerance: options.timeTolerance, when: when)
                else { continue }
                items.append((field.rawValue, cells))
            }
            let unknowable = KnowledgeRule.unknowableInStatus(
                v1: mine, appleTransactionId: status.transaction?.transactionId,
                appleExpires: status.transaction?.expiresDate, appleStatus: status.status, at: instant)
            var any = false
            for (field, (left, right)) in items where !unknowable.contains(field) {
                any = true
                var d = Discrepancy(kind: .stateMismatch)
                d.environment = status.environment
                d.originalTransactionId = status.originalTransactionId
                d.eventDate = instant
                d.productId = status.transaction?.productId ?? mine.productId ?? ""
                d.bundleId = status.transaction?.bundleId ?? ""
                d.field = field
                d.v1Value = left
                d.v2Value = right
                differences.append(d)
            }
            if any { mismatched += 1 }
        }
        var summary = TransactionSummary.StatusSummary()
        summary.statusesRead = statuses.count
        summary.statusesDuplicates = duplicates
        summary.statusesCompared = compared
        summary.statusesWithoutV1 = withoutV1
        summary.statusesWithoutFetchTime = withoutTime
        summary.statusesAfterV1End = afterEnd
        summary.statusStateMismatch = mismatched
        summary.v1ArchiveEnd = archiveEnd
        return (differences, summary, afterV2End)
    }
}
