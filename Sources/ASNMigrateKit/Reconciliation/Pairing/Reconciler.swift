/// The reconciliation engine: takes V1 outcomes and V2 records as values, pairs them, and reports what differs.
///
/// Pure: no I/O. Feed every V1 outcome with `addV1`, every V2 record with `addV2` / `addV2Reject`, then `finish()`.
/// The work is split by concern: `ReconciliationInputs` collects the records, `RecordPairing` pairs them and decides
/// their fates, `RecordDifferences` and `SubscriptionStateComparison` turn fates into rows, and `finish()` counts
/// them into a `ReconciliationSummary`.
package struct Reconciler: Sendable {
    /// The mapping table (for V2-only lists and the companion tolerance).
    package let table: MappingTable
    /// The run's options (settable until `finish()`: a nightly backfill knows its period only after feeding).
    package var options: ReconcileOptions
    /// V2 records read while signatures were checked but given decoded, so unverified; nil when signatures were not
    /// checked (then `summary.csv` has no `v2_unverified` row).
    package var v2Unverified: Int?
    /// Whether the V2 records' prices are kept (for `report.html`'s value at stake; off by default, so a run that
    /// writes no page pays nothing for them).
    package var collectsPrices: Bool {
        get { inputs.collectsPrices }
        set { inputs.collectsPrices = newValue }
    }
    private var inputs = ReconciliationInputs()

    /// Creates an engine.
    package init(table: MappingTable, options: ReconcileOptions) {
        self.table = table
        self.options = options
    }

    // MARK: - Input

    /// Takes one V1 outcome from `V1RecordMapper`.
    package mutating func addV1(_ outcome: V1RecordOutcome) {
        inputs.addV1(outcome)
    }

    /// Takes one decoded V2 record; `digest` identifies its content (same UUID, other digest = conflicting duplicate).
    package mutating func addV2(_ payload: ResponseBodyV2DecodedPayload, location: SourceLocation, digest: [UInt8]) {
        inputs.addV2(payload, location: location, digest: digest)
    }

    /// Takes one record's facts, as `addV1` / `addV2` take the record they come from (nightly feeds its stored facts).
    /// `fingerprint` is `SHA1.prefix64` of a V2 record's content digest (0 for V1).
    package mutating func add(_ facts: RecordFacts, fingerprint: UInt64) {
        inputs.add(facts, fingerprint: fingerprint)
    }

    /// Takes one record's facts as a worker packed them (texts in `texts`): what `addV1` / `addV2` take, read
    /// straight from the bytes.
    package mutating func add(_ facts: PackedFacts, texts: FactTexts) {
        inputs.add(facts, texts: texts)
    }

    /// Counts one V1 record that was rejected.
    package mutating func addV1Reject(_ error: ASNError) {
        inputs.addV1Reject(error)
    }

    /// Counts one V2 record that could not be read.
    package mutating func addV2Reject(_ error: ASNError) {
        inputs.addV2Reject(error)
    }

    /// With `--switch` and Apple's view: what the V2 notifications fed say of the switched environments, with the
    /// state facts of `statuses`' subscriptions (`TransactionReconciler.finish` compares Apple's view with them).
    package func switchNotifications(statuses: Set<SubscriptionKey>) -> SwitchNotifications {
        inputs.switchNotifications(options.switchDates, statuses: statuses)
    }

    // MARK: - Reconciliation

    /// Pairs the records, classifies every one, and returns the result.
    ///
    /// Consuming: the engine's duplicate tables are freed before pairing allocates its own (that lowers the peak memory
    /// of a large run when the caller does not use the engine afterwards).
    package consuming func finish() -> ReconciliationResult {
        inputs.dropDuplicateIndex()
        let v1 = inputs.v1Records
        let v2 = inputs.v2Records
        let period = ReconciliationPeriod(
            v1Span: options.v1Span ?? ReconciliationPeriod.span(of: v1.lazy.filter { !$0.inferred }.map(\.time)),
            v2Span: options.v2Span ?? ReconciliationPeriod.span(of: v2.lazy.map(\.time)),
            from: options.from, to: options.to, window: options.window)
        var pairing = RecordPairing(inputs: inputs, table: table, window: options.window)
        pairing.settleUnmapped(in: period)
        let groups = SubscriptionGroups(v1: v1, v2: v2)
        // With `--switch`: each switched environment's instant, by environment token. Its subscriptions are not paired
        // notification by notification (V1 ends where V2 starts): the seam checks judge them.
        var switched: [StringPool.Token: Int64] = [:]
        if !options.switchDates.isEmpty {
            var seen: Set<StringPool.Token> = []
            for key in groups.keys where seen.insert(key.environment).inserted {
                if let instant = options.switchDates.instant(of: inputs.pool.string(key.environment)) {
                    switched[key.environment] = instant
                }
            }
        }
        for group in 0..<groups.count where switched[groups.keys[group].environment] == nil {
            pairing.pair(v1: groups.v1(group), v2: groups.v2(group))
        }
        pairing.judge(in: period)
        var seam: Seam?
        if !options.switchDates.isEmpty {
            pairing.setAside(switched: Set(switched.keys))
            seam = Self.seam(pairing, groups: groups, switched: switched, options: options)
        }

        let records = RecordDifferences(pairing, fields: options.fields, timeTolerance: options.timeTolerance)
        let states = SubscriptionStateComparison(
            pairing, groups: groups, period: period, fields: options.fields, timeTolerance: options.timeTolerance)
        // A conflicting duplicate is dated by its own signedDate and judged by the period like any record.
        let conflicts = inputs.conflicts.filter { $0.eventDate.map(period.contains) ?? true }
        var differences = records.differences + states.differences + conflicts + (seam?.differences ?? [])
        differences.sort(by: Discrepancy.reportOrder)
        let pending = (records.pending + (seam?.pending ?? [])).sorted(by: Discrepancy.reportOrder)
        var coverage = inputs.coverage.map { key, count in
            ReconciliationResult.Coverage(
                v1Type: inputs.pool.string(key.v1Type), v2Type: inputs.pool.string(key.type),
                v2Subtype: inputs.pool.string(key.subtype), rule: inputs.pool.string(key.rule), count: count)
        }
        coverage.sort {
            UTF8Order.precedes(
                [$0.v1Type, $0.v2Type, $0.v2Subtype, $0.rule], [$1.v1Type, $1.v2Type, $1.v2Subtype, $1.rule])
        }
        var summary = summarize(pairing, period: period, differences: differences, subscriptions: states.rows)
        summary.conflictingDuplicateV2 = conflicts.count
        summary.switchFigures = seam?.figures
        if options.switchDates.isEmpty, let v1Span = period.v1Span, let v2Span = period.v2Span,
            v1Span.upperBound < v2Span.lowerBound
        {
            summary.nonOverlap = .init(v1End: v1Span.upperBound, v2Start: v2Span.lowerBound)
        }
        var result = ReconciliationResult(
            summary: summary, differences: differences, pending: pending, rejects: inputs.rejects,
            coverage: coverage, subscriptions: states.rows)
        result.switchShares = seam?.shares ?? []
        result.prices = inputs.priceList(for: differences)
        result.differences = result.prices.priced(result.differences)
        return result
    }

    /// The figures: every record counted once under its fate, plus the period and the run's facts.
    private func summarize(
        _ pairing: RecordPairing, period: ReconciliationPeriod, differences: [Discrepancy],
        subscriptions: [ReconciliationResult.SubscriptionRow]
    ) -> ReconciliationSummary {
        var v1Counts = [Int](repeating: 0, count: 256)
        var v2Counts = [Int](repeating: 0, count: 256)
        for fate in pairing.v1Fates { v1Counts[Int(fate.rawValue)] += 1 }
        for fate in pairing.v2Fates { v2Counts[Int(fate.rawValue)] += 1 }
        let v1 = { (fate: RecordFate) in v1Counts[Int(fate.rawValue)] }
        let v2 = { (fate: RecordFate) in v2Counts[Int(fate.rawValue)] }
        var s = ReconciliationSummary()
        s.v1RecordsRead = inputs.v1Read
        s.v1Rejected = inputs.v1Rejected
        s.v1Duplicates = inputs.v1Duplicates
        s.v1OutOfPeriod = v1(.outOfPeriod)
        s.v1Unmapped = v1(.unmapped)
        s.v1Companion = v1(.companion)
        s.v2RecordsRead = inputs.v2Read
        s.v2Rejected = inputs.v2Rejected
        s.v2Unverified = v2Unverified
        s.v2Duplicates = inputs.v2Duplicates
        s.v2OutOfPeriod = v2(.outOfPeriod)
        s.v2OnlyExpected = v2(.v2OnlyExpected)
        s.matched = v1(.matched)
        s.typeMismatch = v1(.typeMismatch)
        s.missingInV2 = v1(.missing)
        s.missingInV1 = v2(.missing)
        s.v1Pending = v1(.pending)
        s.v2Pending = v2(.pending)
        s.fieldMismatch = differences.reduce(0) { $0 + ($1.kind == .fieldMismatch ? 1 : 0) }
        s.stateMismatch = subscriptions.reduce(0) { $0 + ($1.mismatches.isEmpty ? 0 : 1) }
        s.conflictingDuplicateV2 = inputs.conflicts.count
        s.subscriptionsCompared = subscriptions.count
        s.periodStart = period.start != Int64.min ? period.start : nil
        s.periodEnd = period.end != Int64.max ? period.end : nil
        s.windowMs = options.window
        s.timeToleranceMs = options.timeTolerance
        s.run = options.run
        s.rejectCauses = inputs.causes.causes
        return s
    }

    // MARK: - Shared with the nightly state

    /// The `conflicting_duplicate_v2` row for a V2 record whose notificationUUID was seen with other content: the
    /// duplicate's identity and product, no values (the nightly state builds the same row).
    static func conflict(_ f: RecordFacts) -> Discrepancy {
        var d = Discrepancy(kind: .conflictingDuplicateV2)
        d.environment = f.environment ?? ""
        d.originalTransactionId = f.originalTransactionId ?? ""
        d.webOrderLineItemId = f[text: .webOrderLineItemId] ?? ""
        d.eventDate = f.time
        d.v2NotificationType = f.notificationType ?? ""
        d.v2Subtype = f.subtype ?? ""
        d.v2NotificationUUID = f.notificationUUID ?? ""
        d.productId = f[text: .productId] ?? ""
        d.bundleId = f[text: .bundleId] ?? ""
        d.v2SignedDate = f.time
        return d
    }

    /// The `conflicting_duplicate_v2` row of a V2 payload (`conflict(_:)` of its facts).
    static func conflict(_ payload: ResponseBodyV2DecodedPayload) -> Discrepancy {
        conflict(RecordFacts(payload, kind: .v2, location: SourceLocation(path: "")))
    }
}
