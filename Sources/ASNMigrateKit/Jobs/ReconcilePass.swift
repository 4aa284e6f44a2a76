#if canImport(Glibc)
    import Glibc
#endif

/// One pass of `reconcile` over every input: the V2 side first (decoded on all cores, in input order), then the V1
/// side through `migrate`'s pipeline (also gathering transactions when the V2 side holds Apple's API view), judging
/// the records of one shard, or all of them.
struct ReconcilePass {
    /// What the run was asked to do.
    let settings: ReconcileRun.Settings
    /// What it reads.
    let inputs: ReconcileRun.Inputs

    /// The engines and counters one pass fills (a class: the readers' callbacks fill it).
    private final class State {
        /// The notification engine.
        var reconciler: Reconciler
        /// The API-view engine.
        var transactions: TransactionReconciler
        /// V1 transactions, gathered when the V2 side holds API records.
        var collector = V1TransactionCollector()
        /// V2 notifications this shard judges.
        var v2Notifications = 0
        /// A shard keeps its own records, but the period and the pending edges come from every record read.
        var spans = ShardSpans()
        /// V2 rejects, handed to the engine after V1's, keeping rejected.csv's order.
        var v2Rejects: [ASNError] = []
        /// Both sides are read one after the other: one line over all their bytes, shown only on a terminal.
        var progress: ProgressLine

        /// A pass's state with its engines and progress line.
        init(reconciler: Reconciler, transactions: TransactionReconciler, progress: ProgressLine) {
            self.reconciler = reconciler
            self.transactions = transactions
            self.progress = progress
        }
    }

    /// Judges the records of `shard` (all of them when nil).
    func run(_ shard: ShardSelection?) -> Result<ReconciliationResult, ASNError> {
        if shard != nil, settings.v1Database != nil || settings.v2Database != nil {
            return .failure(
                ASNError(
                    .usage,
                    "--shard, --shards and --memory-limit read files; a PostgreSQL source is not split yet: reconcile it without sharding, or export it to files"
                ))
        }
        var reconciler = Reconciler(table: inputs.table, options: settings.options)
        reconciler.collectsPrices = settings.html
        if settings.signatures != nil { reconciler.v2Unverified = 0 }
        let progress = ProgressLine.standardError(
            files: inputs.v2Files + inputs.v1.files,
            label: shard.map { "reconcile \($0.text)" } ?? "reconcile")
        let state = State(
            reconciler: reconciler,
            transactions: TransactionReconciler(rules: inputs.transactionRules, options: settings.options),
            progress: progress)
        defer { state.progress.finish() }
        do {
            try readV2(shard, into: state)
            if state.transactions.holdsRecords {
                guard shard == nil else {
                    return .failure(
                        ASNError(
                            .usage,
                            "the V2 side holds App Store Server API records (transactions, statuses), which --shard, --shards and --memory-limit do not split yet; reconcile them without sharding"
                        ))
                }
                try readV1WithTransactions(into: state)
            } else {
                try readV1(shard, into: state)
            }
            for error in state.v2Rejects { state.reconciler.addV2Reject(error) }
        } catch {
            return .failure((error as? ASNError) ?? ASNError(.unreadableInput, ASNError.describe(error)))
        }
        state.progress.finish() // before judging, as the line only counts reading
        return .success(finish(shard, state))
    }

    // MARK: - Steps

    /// The V2 side, from files or a database, in input order: files' JSON and JWS records as facts packed on the
    /// worker threads.
    private func readV2(_ shard: ShardSelection?, into state: State) throws {
        var reader = ParallelV2Reader(columnMap: inputs.columnMap)
        reader.reader.decoder.signatures = settings.signatures
        reader.reader.decoder.members = Self.v2Members
        let verifying = settings.signatures != nil
        let add = { (item: V2FactsItem, texts: FactTexts) in
            switch item {
            case .facts(let facts, let verified):
                state.spans.addV2(facts)
                guard Self.holds(shard, ShardHash.shard(of: facts, texts: texts, count: shard?.count ?? 1)) else {
                    return
                }
                state.v2Notifications += 1
                state.reconciler.add(facts, texts: texts)
                if verifying && !verified { state.reconciler.v2Unverified? += 1 }
            case .other(.api(let record)): state.transactions.add(record)
            case .other(.rejected(let error)): if Self.holds(shard, 0) { state.v2Rejects.append(error) }
            case .other(.record): break // packed as `.facts` by `V2FactsItem`
            }
        }
        if let database = settings.v2Database {
            var texts = FactTexts() // one store, emptied for each row
            try PostgresReader(source: database).v2Outcomes(decoder: reader.reader.decoder, columnMap: inputs.columnMap)
            { outcome in
                state.progress.advance(bytes: 0, records: 1)
                texts.removeAll()
                let item = V2FactsItem(outcome, texts: &texts)
                add(item, texts)
            }
        } else {
            try reader.readFacts(inputs.v2Files, progress: { state.progress.advance(bytes: $0, records: $1) }, add)
        }
    }

    /// The V1 side streams through the same parallel reading and mapping as `migrate`, each record's facts packed on
    /// the worker threads, in input order.
    private func readV1(_ shard: ShardSelection?, into state: State) throws {
        let consume = { (batch: V1FactsPipeline.Batch) in
            state.progress.advance(bytes: batch.inputBytes, records: batch.items.count)
            for item in batch.items {
                switch item {
                case .rejected(let error):
                    if Self.holds(shard, 0) { state.reconciler.addV1Reject(error) }
                case .facts(let facts):
                    state.spans.addV1(facts)
                    if Self.holds(shard, ShardHash.shard(of: facts, texts: batch.texts, count: shard?.count ?? 1)) {
                        state.reconciler.add(facts, texts: batch.texts)
                    }
                }
            }
        }
        try V1FactsPipeline(table: inputs.table).run(v1Source, consume: consume)
    }

    /// Against Apple's API view: the same parallel pass also reads every V1 record's receipt facts.
    private func readV1WithTransactions(into state: State) throws {
        let kept = state.transactions.statusSubscriptions
        state.collector = V1TransactionCollector(statusSubscriptions: kept)
        let consume = { (batch: V1FactsPipeline.Batch) in
            state.progress.advance(bytes: batch.inputBytes, records: batch.items.count)
            for item in batch.items {
                switch item {
                case .rejected(let error): state.reconciler.addV1Reject(error)
                case .facts(let facts): state.reconciler.add(facts, texts: batch.texts)
                }
            }
            // The workers made each record's state facts: this thread only merges.
            for receipt in batch.receipts { state.collector.add(receipt.facts, stateFacts: receipt.stateFacts) }
        }
        let pipeline = V1FactsPipeline(table: inputs.table, receipts: .init(statusSubscriptions: kept))
        try pipeline.run(v1Source, consume: consume)
    }

    /// Where the V1 records come from: the V1 database's rows, or the V1 files.
    private var v1Source: RecordSource {
        guard let database = settings.v1Database else { return .files(inputs.v1.files) }
        let reader = PostgresReader(source: database)
        return .producer { try reader.v1Records($0) }
    }

    /// Judges what was read: a shard with the whole input's spans, plus the API view's comparison when there is one.
    private func finish(_ shard: ShardSelection?, _ state: State) -> ReconciliationResult {
        // The API view is compared first and its records dropped before the notification engine pairs: the two sets
        // of records are never held together with the pairing's tables (the peak of an API-view run).
        var comparison: TransactionComparison?
        if state.transactions.holdsRecords {
            // With `--switch`, Apple's view after the switch is compared with the V2 notifications the engine holds.
            let switched =
                settings.options.switchDates.isEmpty
                ? nil : state.reconciler.switchNotifications(statuses: state.transactions.statusSubscriptions)
            comparison = state.transactions.finish(v1: state.collector, switched: switched)
            state.transactions = TransactionReconciler(rules: inputs.transactionRules, options: settings.options)
            state.collector = V1TransactionCollector()
            Self.returnFreedMemory()
        }
        var reconciler = state.reconciler
        // One copy of the records, not two.
        state.reconciler = Reconciler(table: inputs.table, options: settings.options)
        if shard != nil {
            // A partition holds (nearly) only its own records: the spans over every record are in its manifests.
            let spans = settings.partition?.spans ?? state.spans
            reconciler.options.v1Span = spans.v1
            reconciler.options.v2Span = spans.v2
        }
        var result = reconciler.finish()
        if let comparison {
            result = result.adding(comparison, notificationsCompared: state.v2Notifications > 0)
        }
        result.countTimePrecision()
        return result
    }

    /// Everything a pass reads of a V2 record's payload: the engine's readings, its shard, its time for the spans, and
    /// the id check's verdict.
    struct V2Readings: Equatable {
        /// What the engine reads.
        var engine: ReconciliationInputs.V2Readings
        /// Its shard among many.
        var shard: Int
        /// Its `signedDate`.
        var time: Int64?
        /// The id check's reject, if any.
        var idCheck: ASNError?
    }

    /// The V2 members a pass reads (`V2Readings`, named by their paths), the only ones its V2 decoder makes values of.
    static let v2Members = V2MemberSelection(paths: ReconciliationInputs.v2Paths + V2IDCheck.paths)

    /// What a pass reads of `payload`.
    static func readings(of payload: ResponseBodyV2DecodedPayload) -> V2Readings {
        let location = SourceLocation(path: "")
        return V2Readings(
            engine: ReconciliationInputs.readings(of: payload), shard: ShardHash.shard(of: payload, count: 1 << 30),
            time: payload.signedDate,
            idCheck: V2IDCheck.checked(.record(V2Record(payload: payload, location: location, contentDigest: []))).error
        )
    }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`, looked up at run time: the Glibc module
    /// does not declare it). Much of what the API view frees before pairing was made on the reading threads, in their
    /// own malloc arenas, which the pairing on this thread does not reuse: handed back, it is not counted twice in
    /// the peak.
    private static func returnFreedMemory() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// Whether `shard` (all shards when nil) holds shard number `k`.
    private static func holds(_ shard: ShardSelection?, _ k: Int) -> Bool {
        shard.map { $0.holds(k) } ?? true
    }
}
