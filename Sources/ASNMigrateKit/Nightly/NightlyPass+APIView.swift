/// A night against Apple's App Store Server API view (`Reports/apple-view.md`): its answers kept, the subscriptions
/// whose answer can change re-paired, and each compared by `reconcile`'s own engine (`TransactionReconciler`) over the
/// whole state's spans, so the night's open items are what one `reconcile` over every file says.
extension NightlyPass {
    /// Keeps one record of Apple's API view (a transaction or a status). A sharded night rejects it: the comparison
    /// needs the whole run's spans, which a shard does not hold (as `reconcile --shard` refuses API records).
    func keepAPI(
        _ record: V2APIRecord, file: InputFile, fileId: Int64, store: NightlyStore, lineOffset: Int,
        into outcome: inout FileOutcome
    ) throws(ASNError) {
        if settings.shard != nil {
            let error = ASNError(
                .usage,
                "an App Store Server API response (transaction history, subscription statuses or a lone transaction) is not split by --shard; run nightly on Apple's API view without --shard",
                at: record.location)
            try reject(
                error, side: "v2", file: file, fileId: fileId, store: store, lineOffset: lineOffset, into: &outcome)
            return
        }
        outcome.counts.read += 1
        let environment: String
        switch record {
        case .transaction(let t): environment = t.environment
        case .status(let s): environment = s.environment
        }
        if let wanted = settings.environment, wanted != environment {
            outcome.counts.otherEnvironment += 1
            return
        }
        outcome.touched.insert(try store.apiView.insertAPIRecord(record, file: fileId))
        outcome.counts.stored += 1
    }

    /// The subscriptions whose comparison with Apple's view can change this night besides those the files touched:
    /// every one when the view changes kind (API records or notifications first held: `reconcile` compares
    /// differently then) or the V2-only rules or other judging settings change; else those with a date the moved spans reach (a purchase near a
    /// moved period end or pending edge, a refund or expiry near a moved data end, a status fetched near the archive's
    /// moved end).
    func apiViewTouched(_ store: NightlyStore, firstNight: Bool) throws(ASNError) -> Set<SubscriptionKey> {
        let api = try store.apiView.holdsAPIView()
        let mode: Int64 = (api ? 1 : 0) | (try store.apiView.holdsV2Notifications() ? 2 : 0)
        // A state made before API views were kept held notifications only.
        let previous = try store.runs.meta("view_mode") ?? (mode & 2)
        try store.runs.setMeta("view_mode", mode)
        let spans = api ? try store.apiView.apiViewSpans() : TransactionSpans(v1: nil, v2: nil)
        var ends: [(String, Int64?)] = [
            ("api_v1_min", spans.v1?.lowerBound), ("api_v1_max", spans.v1?.upperBound),
            ("api_v2_min", spans.v2?.lowerBound), ("api_v2_max", spans.v2?.upperBound)
        ]
        var moved: [ClosedRange<Int64>] = []
        // With `--switch`: how far each switched environment's V2 notifications reach decides which of Apple's later
        // transactions are judged yet and which statuses are compared, so its move re-pairs what it passes.
        if api, !settings.switchDates.isEmpty {
            let reach = try store.switches.switchReach(settings.switchDates)
            for (name, _) in settings.switchDates.environments {
                ends.append(("api_switch_reach_\(name.lowercased())", reach[name]))
            }
        }
        for (name, now) in ends {
            let before = try store.runs.meta(name)
            try store.runs.setMeta(name, now)
            guard before != now else { continue }
            guard let before, let now else {
                moved.append(Int64.min...Int64.max)
                continue
            }
            moved.append((Swift.min(before, now) &- settings.window)...(Swift.max(before, now) &+ settings.window))
        }
        let rules = try transactionRules()
        // The V2-only rules and everything else that judges (fields compared, time tolerance, window).
        let judging = "\(rules.rules)|\(Self.judgementDigest(table, settings))"
        let digest = Int64(bitPattern: SHA1.prefix64(SHA1.digest(Array(judging.utf8)))) & Int64.max
        let rulesChanged = (try store.runs.meta("api_rules_digest")).map { $0 != digest } ?? false
        try store.runs.setMeta("api_rules_digest", digest)
        guard api, !firstNight else { return [] }
        if previous != mode || rulesChanged { return try store.facts.allSubscriptions() }
        var touched: Set<SubscriptionKey> = []
        for range in moved { touched.formUnion(try store.facts.subscriptions(changingIn: range)) }
        return touched
    }

    /// The rows of comparing each of `keys` with Apple's view: `reconcile`'s engine over the subscription's answers
    /// and V1 transaction facts as stored, judged by the whole state's spans.
    func apiViewDifferences(_ store: NightlyStore, keys: [SubscriptionKey]) throws(ASNError) -> [Discrepancy] {
        let spans = try store.apiView.apiViewSpans()
        let rules = try transactionRules()
        // With `--switch`: our records after the switch are the V2 notifications, as far as the whole state's reach.
        let reach = settings.switchDates.isEmpty ? nil : try store.switches.switchReach(settings.switchDates)
        var differences: [Discrepancy] = []
        for key in keys {
            var engine = TransactionReconciler(rules: rules, options: settings.reconcileOptions)
            for record in try store.apiView.apiRecords(of: key) { engine.add(record) }
            var collector = V1TransactionCollector(statusSubscriptions: engine.statusSubscriptions)
            for facts in try store.apiView.v1Transactions(of: key) { collector.add(facts) }
            var switched: SwitchNotifications?
            if let reach {
                var notifications = Reconciler(table: table, options: settings.reconcileOptions)
                for record in try store.facts.records(of: key) { record.feed(into: &notifications) }
                switched = notifications.switchNotifications(statuses: engine.statusSubscriptions)
                switched?.reach = reach
            }
            differences += engine.finish(v1: collector, spans: spans, switched: switched).differences
        }
        return differences
    }

    /// The V2-only transaction rules in force (`--mappings`, else the built-in ones).
    private func transactionRules() throws(ASNError) -> V2OnlyTransactionRules {
        try V2OnlyTransactionRules.load(directory: settings.mappings)
    }
}
