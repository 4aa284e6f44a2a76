/// Compares the V1 archive's transactions with Apple's own V2 view (App Store Server API responses); pure, no I/O.
///
/// Feed every API record with `add`, gather the V1 side with a `V1TransactionCollector` (created with
/// `statusSubscriptions`), then call `finish(v1:)`.
///
/// Rules (`Reports/README.md` documents them for readers of the report):
/// - V2 transactions are kept once per environment + transactionId (a page fetched twice counts its copies as
///   `v2_transaction_duplicates`), facts merged as on the V1 side. Statuses' last transactions are used for the status
///   comparison only.
/// - A customer (environment + originalTransactionId) with no V2 transaction was not fetched: its V1 transactions are
///   `not_fetched`.
/// - Pairs: environment + originalTransactionId + transactionId; then a restored copy (another transactionId, same
///   webOrderLineItemId) pairs by webOrderLineItemId, and `--compare transactionId` reports the two ids.
/// - Period: from the later of the first V1 notification's event time and the first V2 purchase date to the earlier
///   of the last V1 event time and the last V2 purchase date; `--from` / `--to` replace either end. A pair is judged
///   when either member's purchaseDate lies in it. An unpaired transaction in the period whose partner could lie beyond
///   the other side's data (purchased within `--window` of the other side's last V1 event time / V2 purchase date) is
///   pending, not a difference.
package struct TransactionReconciler: Sendable {
    /// Which transactions are expected only on the V2 side.
    package let rules: V2OnlyTransactionRules
    /// The run's options (period, window, compared fields).
    package let options: ReconcileOptions

    /// V2 transaction records read (copies included).
    package private(set) var transactionsRead = 0
    /// The V2 transactions, de-duplicated, in input order: payloads packed, as the whole view is held until `finish`.
    private var transactions: [HeldTransaction] = []
    /// The subscription statuses, in input order, their payloads packed.
    private var statuses: [HeldStatus] = []
    private var index: [V1TransactionCollector.Key: Int] = [:]
    /// The text of every packed payload.
    private var pool = StringPool()

    /// One kept V2 transaction.
    private struct HeldTransaction: Sendable {
        var payload: PackedMembers<JWSTransactionDecodedPayload>
        var environment: String

        /// Where `purchaseDate` and `originalTransactionId` are among the packed members.
        private static let purchaseDateMember = PackedMembers<JWSTransactionDecodedPayload>.member {
            $0.purchaseDate = 0
        }
        private static let originalTransactionIdMember = PackedMembers<JWSTransactionDecodedPayload>.member {
            $0.originalTransactionId = ""
        }

        /// `purchaseDate`, read without unpacking.
        var purchaseDate: Int64? { payload.word(Self.purchaseDateMember).map { Int64(bitPattern: $0) } }

        /// `originalTransactionId`, read without unpacking; `pool` is the pool it was packed with.
        func originalTransactionId(_ pool: StringPool) -> String? {
            payload.word(Self.originalTransactionIdMember).flatMap { pool.text($0) }
        }
    }

    /// One kept status: the status's own members, its payloads packed (a `V2SubscriptionStatus` kept whole would hold
    /// room for both payloads inline, over 1 KB a status, even with them packed apart).
    private struct HeldStatus: Sendable {
        var environment: String
        var originalTransactionId: String
        var subscriptionGroupIdentifier: String?
        var status: Int?
        var fetchedAt: Int64?
        var location: SourceLocation
        var transaction: PackedMembers<JWSTransactionDecodedPayload>?
        var renewal: PackedMembers<JWSRenewalInfoDecodedPayload>?

        /// The status as read.
        func unpacked(_ pool: StringPool) -> V2SubscriptionStatus {
            V2SubscriptionStatus(
                environment: environment, originalTransactionId: originalTransactionId,
                subscriptionGroupIdentifier: subscriptionGroupIdentifier, status: status,
                transaction: transaction?.unpacked(pool), renewal: renewal?.unpacked(pool), fetchedAt: fetchedAt,
                location: location)
        }
    }

    /// One V2 transaction as `finish` reads it, unpacked when read.
    private struct Unpacked {
        var payload: JWSTransactionDecodedPayload
        var environment: String
    }

    /// Creates an engine.
    package init(rules: V2OnlyTransactionRules, options: ReconcileOptions) {
        self.rules = rules
        self.options = options
    }

    // MARK: - Input

    /// Takes one API record.
    package mutating func add(_ record: V2APIRecord) {
        switch record {
        case .transaction(let transaction):
            transactionsRead += 1
            let key = V1TransactionCollector.Key(
                environment: transaction.environment, transactionId: transaction.payload.transactionId ?? "")
            if let at = index[key] {
                let merged = Self.merged(transactions[at].payload.unpacked(pool), transaction.payload)
                transactions[at].payload = PackedMembers(merged, pool: &pool)
            } else {
                index[key] = transactions.count
                transactions.append(
                    HeldTransaction(
                        payload: PackedMembers(transaction.payload, pool: &pool), environment: transaction.environment))
            }
        case .status(let status):
            statuses.append(
                HeldStatus(
                    environment: status.environment, originalTransactionId: status.originalTransactionId,
                    subscriptionGroupIdentifier: status.subscriptionGroupIdentifier, status: status.status,
                    fetchedAt: status.fetchedAt, location: status.location,
                    transaction: status.transaction.map { PackedMembers($0, pool: &pool) },
                    renewal: status.renewal.map { PackedMembers($0, pool: &pool) }))
        }
    }

    /// True once any API record was taken: the run compares transactions.
    package var holdsRecords: Bool { transactionsRead > 0 || !statuses.isEmpty }

    /// The subscriptions the statuses name: the V1 collector keeps their records.
    package var statusSubscriptions: Set<SubscriptionKey> {
        Set(
            statuses.map {
                SubscriptionKey(environment: $0.environment, originalTransactionId: $0.originalTransactionId)
            })
    }

    /// Two copies of one V2 transaction: a revocation stands, the newest expiry wins, an upgrade stands, and the gaps
    /// of every other member the API view compares (and the type) are filled (`gapFilled`).
    package static func merged(_ a: JWSTransactionDecodedPayload, _ b: JWSTransactionDecodedPayload)
        -> JWSTransactionDecodedPayload
    {
        var m = a
        if m.revocationDate == nil {
            m.revocationDate = b.revocationDate
            m.revocationReason = b.revocationReason
        }
        m.expiresDate = [a.expiresDate, b.expiresDate].compactMap { $0 }.max()
        if b.isUpgraded == true { m.isUpgraded = true }
        m.fillGaps(gapFilled, from: b)
        return m
    }

    /// The members whose gap one copy of a transaction fills from another (bit i: member i in the model's
    /// `visitMembers` order): every transaction member `ComparedField.apiViewFields` read, and `type`, but for the
    /// members `merged` rules on itself (and the transaction id, the copies' common key). Found once by key.
    static let gapFilled: UInt64 = {
        typealias Members = PackedMembers<JWSTransactionDecodedPayload>
        let prefix = "data.transactionInfo."
        var mask: UInt64 = 1 << UInt64(Members.member { $0.type = "" })
        for field in ComparedField.apiViewFields {
            for path in field.paths where path.hasPrefix(prefix) {
                if let at = JWSTransactionDecodedPayload.memberPosition(String(path.dropFirst(prefix.count))) {
                    mask |= 1 << UInt64(at)
                }
            }
        }
        let ruled = [
            Members.member { $0.transactionId = "" }, Members.member { $0.revocationDate = 0 },
            Members.member { $0.revocationReason = 0 }, Members.member { $0.expiresDate = 0 },
            Members.member { $0.isUpgraded = false }
        ]
        for at in ruled { mask &= ~(1 << UInt64(at)) }
        return mask
    }()

    // MARK: - Comparison

    /// What became of one transaction.
    private enum Fate {
        case notFetched, matched, outOfPeriod, pending, missing, v2OnlyExpected
        /// With `--switch`: carried by a V2 notification, not notified by design (a one-time purchase not refunded), or
        /// missing from the V2 notifications.
        case notified, notNotifiedByDesign, missingInNotifications
    }

    /// Pairs the transactions, classifies every one, compares statuses, and returns rows and figures.
    ///
    /// Every rule is per subscription (environment + originalTransactionId) but for the whole run's spans, the V1
    /// archive's event times and the V2 purchase dates (the period, the pending edges, facts learnt after a side's data
    /// ends, statuses fetched after the archive ends). `spans` gives them when this engine holds only some
    /// subscriptions' records (`nightly` re-pairs one subscription at a time); nil takes them from what was fed, which
    /// is the whole run in `reconcile`. So one subscription's rows are the same whether it is compared alone or with
    /// every other.
    ///
    /// With `--switch` (`switched`, the V2 notifications' side), Apple's transactions of a switched environment
    /// purchased from its switch on are judged against the V2 notifications, not the V1 archive: an auto-renewable
    /// one (family-shared too) no notification carries is `transaction_missing_in_v2`, as is a one-time purchase
    /// refunded from the switch on that no V2 `REFUND` carries; beyond the notifications' reach (less the window) it is
    /// pending. Statuses of a switched environment are compared with V1 before the switch and V2 after it.
    package func finish(
        v1 collector: V1TransactionCollector, spans: TransactionSpans? = nil, switched: SwitchNotifications? = nil
    ) -> TransactionComparison {
        // Each made from its packed form when read: the V1 transactions are never all held as models.
        let v1 = (0..<collector.transactionCount).lazy.map { collector.transaction(at: $0) }
        let pool = pool
        // Unpacked when read (the loops that read one or two members read them packed).
        let v2 = transactions.lazy.map { Unpacked(payload: $0.payload.unpacked(pool), environment: $0.environment) }
        let window = options.window

        // The purchase span and the subscriptions fetched, in one pass.
        var purchases: [Int64] = []
        var fetched: Set<SubscriptionKey> = []
        for t in transactions {
            if let purchase = t.purchaseDate { purchases.append(purchase) }
            fetched.insert(
                SubscriptionKey(environment: t.environment, originalTransactionId: t.originalTransactionId(pool) ?? ""))
        }

        // Period.
        let spans =
            spans
            ?? TransactionSpans(
                v1: collector.eventRange, v2: purchases.min().flatMap { low in purchases.max().map { low...$0 } })
        let v2Range = spans.v2
        let v1Range = spans.v1
        // The same default period as notifications: the overlap of both sides' spans, `--from` / `--to` replacing an end.
        let period = ReconciliationPeriod(
            v1Span: v1Range, v2Span: v2Range, from: options.from, to: options.to, window: options.window)
        let start = period.start
        let end = period.end
        func inPeriod(_ time: Int64?) -> Bool {
            guard let time else { return true }
            return time >= start && time <= end
        }

        // Pairing.
        var fate1 = [Fate](repeating: .missing, count: v1.count)
        var fate2 = [Fate](repeating: .missing, count: v2.count)
        var partner1 = [Int](repeating: -1, count: v1.count)
        var partner2 = [Int](repeating: -1, count: v2.count)
        var restored = 0
        for i in v1.indices {
            let t = collector.identity(at: i)
            guard fetched.contains(.init(environment: t.environment, originalTransactionId: t.originalTransactionId))
            else {
                fate1[i] = .notFetched
                continue
            }
            let key = V1TransactionCollector.Key(environment: t.environment, transactionId: t.transactionId ?? "")
            if let j = index[key], partner2[j] < 0,
                (transactions[j].originalTransactionId(pool) ?? "") == t.originalTransactionId
            {
                partner1[i] = j
                partner2[j] = i
            }
        }
        // Restored copies: another transactionId, the same environment + originalTransactionId + webOrderLineItemId.
        var byLineItem: [[String]: [Int]] = [:]
        for j in v2.indices where partner2[j] < 0 {
            let t = v2[j]
            guard let line = t.payload.webOrderLineItemId, !line.isEmpty else { continue }
            byLineItem[[t.environment, t.payload.originalTransactionId ?? "", line], default: []].append(j)
        }
        for (i, t) in v1.enumerated() where partner1[i] < 0 && fate1[i] != .notFetched {
            guard let line = t.info.webOrderLineItemId, !line.isEmpty,
                var candidates = byLineItem[[t.environment, t.originalTransactionId, line]], !candidates.isEmpty
            else { continue }
            let j = candidates.removeFirst()
            byLineItem[[t.environment, t.originalTransactionId, line]] = candidates
            partner1[i] = j
            partner2[j] = i
            restored += 1
        }

        // Fates and rows.
        var differences: [Discrepancy] = []
        var unannounced = 0
        var fieldMismatches = 0
        var fieldsAfterDataEnd = 0
        for (i, t) in v1.enumerated() where fate1[i] != .notFetched {
            let shape = t.v2Shape
            if partner1[i] >= 0 {
                let other = v2[partner1[i]]
                if inPeriod(t.info.purchaseDate) || inPeriod(other.payload.purchaseDate) {
                    fate1[i] = .matched
                    fate2[partner1[i]] = .matched
                    let compared = fieldDifferences(
                        t, shape, other, v1End: v1Range?.upperBound, v2End: v2Range?.upperBound,
                        switchInstant: switched?.dates.instant(of: t.environment))
                    fieldMismatches += compared.rows.count
                    fieldsAfterDataEnd += compared.afterDataEnd
                    differences += compared.rows
                } else {
                    fate1[i] = .outOfPeriod
                    fate2[partner1[i]] = .outOfPeriod
                }
            } else if !inPeriod(t.info.purchaseDate) {
                fate1[i] = .outOfPeriod
            } else if let edge = v2Range?.upperBound, let purchase = t.info.purchaseDate, purchase > edge - window {
                fate1[i] = .pending
            } else {
                fate1[i] = .missing
                var d = row(.transactionMissingInV2, t)
                d.field = "transactionId"
                d.v1Value = t.info.transactionId ?? ""
                differences.append(d)
            }
            if (fate1[i] == .matched || fate1[i] == .missing) && !t.announced {
                // Apple's facts, but the V1 transaction's identity: a restored copy (another transactionId) of a
                // family member's first purchase is still that first purchase, which V1 never announces.
                var facts = partner1[i] >= 0 ? v2[partner1[i]].payload : shape
                facts.transactionId = t.info.transactionId ?? facts.transactionId
                if !rules.isV2OnlyExpected(facts) {
                    unannounced += 1
                    var d = row(.unannouncedInV1, t)
                    d.field = "transactionId"
                    d.v1Value = t.info.transactionId ?? ""
                    differences.append(d)
                }
            }
        }
        var afterSwitch = switched.map { _ in TransactionSummary.AfterSwitch() }
        for j in v2.indices where partner2[j] < 0 {
            let t = v2[j]
            if let switched, let instant = switched.dates.instant(of: t.environment),
                let purchase = t.payload.purchaseDate, purchase >= instant
            {
                afterSwitch?.transactions += 1
                let judged = Self.judgeAfterSwitch(t.payload, environment: t.environment, switched, window: window)
                fate2[j] = judged
                switch judged {
                case .notified: afterSwitch?.notified += 1
                case .notNotifiedByDesign: afterSwitch?.notNotifiedByDesign += 1
                case .missingInNotifications:
                    var d = Discrepancy(kind: .transactionMissingInV2)
                    d.environment = t.environment
                    d.originalTransactionId = t.payload.originalTransactionId ?? ""
                    d.webOrderLineItemId = t.payload.webOrderLineItemId ?? ""
                    d.eventDate = purchase
                    d.productId = t.payload.productId ?? ""
                    d.bundleId = t.payload.bundleId ?? ""
                    d.field = "transactionId"
                    d.v2Value = t.payload.transactionId ?? ""
                    differences.append(d)
                default: break
                }
                continue
            }
            if !inPeriod(t.payload.purchaseDate) {
                fate2[j] = .outOfPeriod
            } else if rules.isV2OnlyExpected(t.payload) {
                fate2[j] = .v2OnlyExpected
            } else if let edge = v1Range?.upperBound, let purchase = t.payload.purchaseDate, purchase > edge - window {
                fate2[j] = .pending
            } else {
                fate2[j] = .missing
                var d = Discrepancy(kind: .transactionMissingInV1)
                d.environment = t.environment
                d.originalTransactionId = t.payload.originalTransactionId ?? ""
                d.webOrderLineItemId = t.payload.webOrderLineItemId ?? ""
                d.eventDate = t.payload.purchaseDate
                d.productId = t.payload.productId ?? ""
                d.bundleId = t.payload.bundleId ?? ""
                d.field = "transactionId"
                d.v2Value = t.payload.transactionId ?? ""
                differences.append(d)
            }
        }

        let unpackedStatuses = statuses.lazy.map { $0.unpacked(pool) }
        let status = SubscriptionStatusComparison(options: options).compare(
            unpackedStatuses, archiveEnd: v1Range?.upperBound, facts: { collector.stateFacts(of: $0) },
            switched: switched)
        differences += status.differences
        afterSwitch?.statusesAfterV2End = status.afterV2End

        func count(_ fates: [Fate], _ fate: Fate) -> Int { fates.reduce(0) { $0 + ($1 == fate ? 1 : 0) } }
        var summary = TransactionSummary()
        summary.v1Transactions = v1.count
        summary.matchedTransactions = count(fate1, .matched)
        summary.transactionMissingInV2 = count(fate1, .missing) + count(fate2, .missingInNotifications)
        summary.notFetched = count(fate1, .notFetched)
        summary.v1TransactionsOutOfPeriod = count(fate1, .outOfPeriod)
        summary.v1TransactionsPending = count(fate1, .pending)
        summary.v1ReceiptEntriesWithoutTransactionId = collector.withoutId
        summary.v2TransactionsRead = transactionsRead
        summary.v2TransactionDuplicates = transactionsRead - v2.count
        summary.v2Transactions = v2.count
        summary.transactionMissingInV1 = count(fate2, .missing)
        summary.v2OnlyExpectedTransactions = count(fate2, .v2OnlyExpected)
        summary.v2TransactionsOutOfPeriod = count(fate2, .outOfPeriod)
        summary.v2TransactionsPending = count(fate2, .pending)
        summary.restoredCopies = restored
        summary.transactionFieldMismatch = fieldMismatches
        summary.transactionFieldsAfterDataEnd = fieldsAfterDataEnd
        summary.unannouncedInV1 = unannounced
        summary.periodStart = start != Int64.min ? start : nil
        summary.periodEnd = end != Int64.max ? end : nil
        summary.statuses = status.summary
        summary.afterSwitch = afterSwitch
        var comparison = TransactionComparison(differences: differences, summary: summary)
        let subscriptions = Set(differences.map { [$0.environment, $0.originalTransactionId] })
        // Without differences there is no price at stake: no transaction is unpacked for it.
        if !subscriptions.isEmpty {
            for t in v2 where subscriptions.contains([t.environment, t.payload.originalTransactionId ?? ""]) {
                comparison.prices.add(
                    .init(
                        environment: t.environment, originalTransactionId: t.payload.originalTransactionId ?? "",
                        productId: t.payload.productId ?? ""), milliunits: t.payload.price,
                    currency: t.payload.currency)
            }
        }
        return comparison
    }

    /// With `--switch`: what becomes of Apple's transaction `t` of a switched environment purchased from the switch
    /// on, against the V2 notifications.
    private static func judgeAfterSwitch(
        _ t: JWSTransactionDecodedPayload, environment: String, _ switched: SwitchNotifications, window: Int64
    ) -> Fate {
        let id = (t.transactionId ?? "").isEmpty ? nil : t.transactionId.map(TransactionID.init)
        let key = id.map { SwitchNotifications.Key(environment: environment, transactionId: $0) }
        let reach = switched.reach[environment]
        // Whether the V2 notifications reach past `moment` by more than the window: else the notification may come.
        let reached = { (moment: Int64) in reach.map { $0 - window >= moment } ?? false }
        if t.type == V2Builder.autoRenewableType {
            if let key, switched.notified.contains(key) { return .notified }
            return reached(t.purchaseDate ?? Int64.max) ? .missingInNotifications : .pending
        }
        // A one-time purchase is notified only when refunded, in a `REFUND`.
        guard let instant = switched.dates.instant(of: environment), let revoked = t.revocationDate, revoked >= instant
        else { return .notNotifiedByDesign }
        if let key, switched.refunded.contains(key) { return .notified }
        return reached(revoked) ? .missingInNotifications : .pending
    }

    // MARK: - Rows

    /// A row about V1 transaction `t`.
    private func row(_ kind: Discrepancy.Kind, _ t: V1Transaction) -> Discrepancy {
        var d = Discrepancy(kind: kind)
        d.environment = t.environment
        d.originalTransactionId = t.originalTransactionId
        d.webOrderLineItemId = t.info.webOrderLineItemId ?? ""
        d.eventDate = t.info.purchaseDate
        d.productId = t.info.productId ?? ""
        d.bundleId = t.bundleId ?? ""
        d.v1NotificationType = t.sourceType
        d.v1Source = t.source
        return d
    }

    /// The `transaction_field_mismatch` rows of a pair, and how many differing items are facts one side learnt after the
    /// other side's data ends (`v1End`: the V1 archive's last event; `v2End`: the last V2 purchase date) and so are not
    /// differences: a refund dated after it (revocationDate and revocationReason), either way, or, for a transaction
    /// still running at the V1 archive's end, Apple's later upgrade (isUpgraded true) or renewal-date extension (a later
    /// expiresDate).
    private func fieldDifferences(
        _ t: V1Transaction, _ mine: JWSTransactionDecodedPayload, _ other: Unpacked,
        v1End: Int64?, v2End: Int64?, switchInstant: Int64? = nil
    ) -> (rows: [Discrepancy], afterDataEnd: Int) {
        let theirs = other.payload
        // Facts one side learnt after the other side's data ends: not differences. Apple's refund dated after the V1
        // archive's last event, or, for a transaction still running then, Apple's later upgrade or renewal extension;
        // V1's refund dated after the last V2 purchase date (history fetched before the archive ends).
        var late: Set<String> = []
        if let v1End {
            if mine.revocationDate == nil, let revoked = theirs.revocationDate, revoked > v1End {
                late.formUnion(["revocationDate", "revocationReason"])
            }
            if let running = mine.expiresDate, running > v1End {
                if mine.isUpgraded != true, theirs.isUpgraded == true { late.insert("isUpgraded") }
                if let extended = theirs.expiresDate, extended > running { late.insert("expiresDate") }
            }
        }
        // With `--switch`: the V1 archive ends at the switch, and V1 learns an upgrade or a renewal-date extension only
        // from a later record's receipt. One Apple shows for a transaction still running at the switch (by Apple's
        // expiry), or a refund dated from the switch on, is a fact V1 could not learn.
        if let switchInstant {
            if let extended = theirs.expiresDate, extended >= switchInstant {
                if let running = mine.expiresDate, extended > running { late.insert("expiresDate") }
                if mine.isUpgraded != true, theirs.isUpgraded == true { late.insert("isUpgraded") }
            }
            if mine.revocationDate == nil, let revoked = theirs.revocationDate, revoked >= switchInstant {
                late.formUnion(["revocationDate", "revocationReason"])
            }
        }
        if let v2End, theirs.revocationDate == nil, let revoked = mine.revocationDate, revoked > v2End {
            late.formUnion(["revocationDate", "revocationReason"])
        }
        // The mirror, for history fetched while the archive still runs: an upgrade or a later expiry (a renewal-date
        // extension) V1 learnt after Apple made the response (its signedDate) is not a difference either.
        if let fetched = theirs.signedDate {
            if mine.isUpgraded == true, theirs.isUpgraded != true, let learnt = t.upgradeLearntAt, learnt > fetched {
                late.insert("isUpgraded")
            }
            if let v1Expiry = mine.expiresDate, v1Expiry > (theirs.expiresDate ?? Int64.max),
                let learnt = t.expiresLearntAt, learnt > fetched
            {
                late.insert("expiresDate")
            }
        }
        var rows: [Discrepancy] = []
        var afterDataEnd = 0
        // Each side wrapped once for the table's readers (`ComparedField.value(in:)` wraps it again for every field).
        let mineBody = Self.wrapped(mine)
        let theirsBody = Self.wrapped(theirs)
        for field in ComparedField.apiViewFields where options.fields.contains(field) {
            let reader = field.row
            guard
                let (left, right) = FieldComparison.difference(
                    reader.value(in: mineBody), reader.value(in: theirsBody), tolerance: options.timeTolerance,
                    when: field.apiView ?? .always)
            else { continue }
            if late.contains(field.rawValue) {
                afterDataEnd += 1
                continue
            }
            var d = row(.transactionFieldMismatch, t)
            d.field = field.rawValue
            d.v1Value = left
            d.v2Value = right
            rows.append(d)
        }
        return (rows, afterDataEnd)
    }

    /// A lone transaction as the payload the field table's readers read (`ComparedField.value(in:)`'s wrapping).
    private static func wrapped(_ transaction: JWSTransactionDecodedPayload) -> ResponseBodyV2DecodedPayload {
        var data = NotificationData()
        data.transactionInfo = transaction
        return ResponseBodyV2DecodedPayload(notificationType: "", data: data)
    }
}
