import Foundation

/// One `nightly` run over the state database: ingest the files not yet in the ledger, re-pair the subscriptions
/// they touch (plus everything still open or pending), settle, and compare with the open differences.
///
/// All changes happen in one SQLite transaction; the reports are derived from the committed state by
/// `NightlyReport`, so a run killed at any moment leaves either nothing or a state the next run publishes as is.
package struct NightlyPass {
    /// The settings.
    package var settings: NightlySettings
    /// The mapping table.
    package var table: MappingTable
    /// The column map for V2 CSV exports.
    package var columnMap: V2ColumnMap?
    /// The run date (YYYY-MM-DD).
    package var date: String
    /// The run's "now", epoch ms.
    package var now: Int64
    /// Writes one log line (the command adds the timestamp).
    package var log: (String) -> Void
    /// Called at named steps (`ingested`, `settled`); the test hook pauses there.
    package var step: (String) -> Void
    /// The machine's clock (epoch ms) that file ages are measured against (`min-file-age`), whatever the run date.
    package var fileClock: Int64 = Int64(Date().timeIntervalSince1970 * 1000)
    /// Called after each file read with its bytes and records read (the command's progress line).
    package var progress: (Int, Int) -> Void = { _, _ in }
    /// The signature checks for V2 records read (nil: not verified).
    package var signatures: SignaturePolicy?
    /// With `nightly --fetch`: called once the night's V1 files are read and before its V2 side is, with the
    /// subscriptions the new V1 records touched (`NightlyFetch` asks Apple and writes the fetch folder); what it throws
    /// stops the night before anything is committed.
    package var beforeV2: ((NightlyStore, Set<SubscriptionKey>) throws(ASNError) -> Void)?
    /// With `nightly --fetch`: the fetch folder's real path; the night wrote its files, so `min-file-age` does not
    /// hold them back.
    package var answersFolder: String?
    /// Whether a first night pairs in memory while reading (`NightlyBackfill`); off only in tests, to compare both paths.
    package var pairsFirstNightInMemory = true
    /// How the night reads its inputs (`settings.inputLimits`), and the zstd frames its readers found unverified.
    let reading: InputReading
    /// Whether the night keeps each V1 record's receipt facts, which only Apple's API view reads (set by `run`).
    let receipts = ReceiptKeeping()

    /// Whether V1 receipt facts are kept: only while the state has ever seen an API answer or `fetch` is configured,
    /// so a state of notifications alone does not carry them; and whether a V1 record was stored without them.
    final class ReceiptKeeping: @unchecked Sendable { // @unchecked: used by the night's one thread only.
        /// Kept this night.
        var kept = true
        /// A V1 record was stored this night without its receipt facts.
        var skipped = false
    }

    /// Creates a run.
    package init(
        settings: NightlySettings, table: MappingTable, columnMap: V2ColumnMap?, date: String, now: Int64,
        log: @escaping (String) -> Void, step: @escaping (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.table = table
        self.columnMap = columnMap
        self.date = date
        self.now = now
        self.log = log
        self.step = step
        self.reading = InputReading(settings.inputLimits, keepingShapes: true)
    }

    /// What the run changed, for the log.
    package struct Figures: Sendable, Equatable {
        /// Files read this run (new or changed).
        package var filesIngested = 0
        /// Subscriptions re-paired.
        package var subscriptionsRepaired = 0
        /// Differences first confirmed.
        package var new = 0
        /// Differences resolved.
        package var resolved = 0
        /// V2 records read that carried no signature to verify (only counted under `verify-signatures`).
        package var v2Unverified = 0
        /// Files left for a later night because they were modified less than `min-file-age` ago.
        package var filesYoung = 0
        /// Files read again because they changed in the part already read, other than the parts of Apple's API view a
        /// fetch rewrites (the night's own `--fetch` among them), which the log notes file by file.
        package var filesChanged = 0
        /// Files read this night through zstd frames written without a content checksum, with their frame counts.
        package var unverifiedInputs: [UnverifiedInput] = []
    }

    /// A file read through zstd frames without a content checksum, and how many.
    package struct UnverifiedInput: Sendable, Equatable {
        /// The input's name.
        package var name: String
        /// Its frames without a checksum.
        package var frames: Int
    }

    // MARK: - Running

    /// What a night has learnt so far: its figures, the subscriptions its files touched and how, its counters.
    struct Tally {
        /// The figures the log shows.
        var figures = Figures()
        /// Subscriptions touched by new or appended records.
        var late: Set<SubscriptionKey> = []
        /// Subscriptions touched by a changed file.
        var corrected: Set<SubscriptionKey> = []
        /// Subscriptions mapped again under changed rules.
        var remapped: Set<SubscriptionKey> = []
        /// The run's counters (`runs` columns).
        var counters: [String: Int] = [:]
        /// The judging rules changed since the last night (mapping rules, ignored fields, time tolerance).
        var rulesChanged = false
    }

    /// The night's judgement before it is compared with what is open.
    struct Judgement {
        /// The subscriptions re-paired, in order.
        var keys: [SubscriptionKey]
        /// The differences confirmed and the items still pending.
        var settled: (confirmed: [Discrepancy], pending: [DifferenceRow])
    }

    /// Ingests, re-pairs, settles and compares, all in one transaction of `store`.
    package func run(_ store: NightlyStore, started: String) throws(ASNError) -> Figures {
        try store.transaction { () throws(ASNError) -> Figures in
            let runId = try store.runs.insertRun(date: date, started: started)
            if let shard = settings.shard {
                try store.runs.setMeta("shard_index", Int64(shard.index))
                try store.runs.setMeta("shard_count", Int64(shard.count))
            }
            var tally = Tally()
            // A first night pairs in memory while reading; later nights read the touched subscriptions back.
            let fresh = try store.isEmpty()
            var backfill = pairsFirstNightInMemory && fresh ? NightlyBackfill(table: table) : nil
            let firstNight = backfill != nil
            let remap = try checkRules(store, fresh: fresh)
            tally.rulesChanged = remap
            let apiView = try store.runs.meta("api_view")
            receipts.kept = settings.fetch || apiView == 1
            receipts.skipped = false
            for side in ["v1", "v2"] {
                if side == "v2", let beforeV2 {
                    try beforeV2(store, tally.late.union(tally.corrected).union(tally.remapped))
                }
                try ingest(
                    side: side, store: store, runId: runId, backfill: backfill, remap: remap && side == "v1",
                    tally: &tally)
            }
            if try readReceiptsAgainIfNeeded(store, runId: runId, tally: &tally) { backfill = nil }
            // zstd frames read without a checksum this night: warned about by the log, counted in `summary.csv`.
            tally.figures.unverifiedInputs = reading.unverifiedFrames.take().map {
                UnverifiedInput(name: $0.name, frames: $0.frames)
            }
            let frames = tally.figures.unverifiedInputs.reduce(0) { $0 + $1.frames }
            if frames > 0 { tally.counters["unverified_frames", default: 0] += frames }
            step("ingested")
            let judgement = try judge(store, backfill: backfill, firstNight: firstNight, tally: &tally)
            step("settled")
            try compare(judgement, store: store, firstNight: firstNight, tally: &tally)
            try prune(store, tally: &tally)
            try record(store, runId: runId, tally: tally)
            return tally.figures
        }
    }

    // MARK: - Steps

    /// The mapping rules in force: when they differ from the last night's, every V1 file still under the roots is
    /// mapped again before anything is compared (records of files no longer there keep theirs); so is it once after
    /// the state is upgraded to keep V1 transaction facts. True to re-map.
    private func checkRules(_ store: NightlyStore, fresh: Bool) throws(ASNError) -> Bool {
        let digest = Self.judgementDigest(table, settings)
        let lastDigest = try store.runs.meta("rules_digest")
        let remap = !fresh && lastDigest != nil && lastDigest != digest
        if remap {
            log("the mapping rules differ from the last night's: mapping the V1 files again under the rules in force")
        }
        try store.runs.setMeta("rules_digest", digest)
        // A state made before V1 transaction facts were kept (schema 8) reads its V1 files again for them once.
        if try store.runs.meta("v1_transactions_missing") == 1 {
            try store.runs.setMeta("v1_transactions_missing", nil)
            if !remap {
                log(
                    "the state was made before nightly kept V1 transaction facts (for Apple's API view): reading the V1 files still under the roots again for them"
                )
                return true
            }
        }
        return remap
    }

    /// Notes V1 records stored tonight without their receipt facts; and when the state has now seen its first API
    /// answers, reads the V1 files still under the roots again for those facts (as a rules change maps them again),
    /// so Apple's view is compared with every V1 record. True when it read them: a first night's in-memory pairing,
    /// which holds them once already, is then set aside for the state's.
    private func readReceiptsAgainIfNeeded(_ store: NightlyStore, runId: Int64, tally: inout Tally) throws(ASNError)
        -> Bool
    {
        if receipts.skipped { try store.runs.setMeta("v1_receipts_skipped", 1) }
        guard !receipts.kept, try store.runs.meta("api_view") == 1, try store.runs.meta("v1_receipts_skipped") == 1
        else {
            return false
        }
        try store.runs.setMeta("v1_receipts_skipped", nil)
        receipts.kept = true
        log(
            "the state holds Apple's API view for the first time: reading the V1 files still under the roots again for their receipt facts"
        )
        // Not tonight's reading: its records and rejects were counted the night they arrived.
        var again = Tally()
        try ingest(side: "v1", store: store, runId: runId, backfill: nil, remap: true, tally: &again)
        tally.remapped.formUnion(again.remapped.union(again.late).union(again.corrected))
        return true
    }

    /// Ingests what is new or changed on one side, and marks the ledger's files that are gone.
    private func ingest(
        side: String, store: NightlyStore, runId: Int64, backfill: NightlyBackfill?, remap: Bool,
        tally: inout Tally
    ) throws(ASNError) {
        // A PostgreSQL source is one ledger entry, read for its new rows (Reports/operations.md, Reading from PostgreSQL).
        let database = settings.databaseSource(side: side)
        let listed = try listed(side: side, database: database)
        let realPaths = Set(listed)
        for path in listed {
            if database == nil, FileIdentity.isTemporaryName(path) {
                tally.counters["files_deferred", default: 0] += 1
                log("note: \(path) has a temporary name; left for a later night")
                continue
            }
            let outcome: FileOutcome
            if let database {
                outcome = try ingestDatabase(database, store: store, run: runId, backfill: backfill, remap: remap)
            } else {
                outcome = try ingestIfNeeded(
                    InputFile(path: path, reading: reading), side: side, store: store, run: runId, listed: realPaths,
                    backfill: backfill,
                    remap: remap)
            }
            count(outcome, side: side, tally: &tally)
        }
        for entry in try store.ledger.ledgerEntries(side: side)
        where entry.vanished == nil && !realPaths.contains(entry.path) {
            try store.ledger.markVanished(id: entry.id, date: date)
            tally.counters["files_vanished", default: 0] += 1
            log("note: \(entry.path) is no longer under the \(side) roots; its records are kept")
        }
    }

    /// The files under one side's roots, each once under its real path however the roots spell it (relative,
    /// absolute, through a link); a database is one ledger entry.
    private func listed(side: String, database: PostgresSource?) throws(ASNError) -> [String] {
        if let database { return [Self.ledgerPath(database)] }
        let files: [InputFile]
        do {
            // A fetch folder's own files (its summary and lists) are not V2 records, as `reconcile` leaves them.
            files = try InputPaths.expand(side == "v1" ? settings.v1 : settings.v2Roots, reading: reading).filter {
                side == "v1" || !FetchFolder.isOwnFile($0.path)
            }
        } catch let error as ASNError {
            throw error
        } catch {
            throw ASNError(.unreadableInput, "cannot list the \(side) input roots: \(error)")
        }
        var listed: [String] = []
        var realPaths: Set<String> = []
        for file in files where !file.isDescriptor {
            let real = FileIdentity.realPath(file.path) ?? file.path
            if realPaths.insert(real).inserted { listed.append(real) }
        }
        return listed
    }

    /// Counts what one file's ingest did and which subscriptions it touched, and how.
    private func count(_ outcome: FileOutcome, side: String, tally: inout Tally) {
        if outcome.linesDeferred { tally.counters["lines_deferred", default: 0] += 1 }
        switch outcome.action {
        case .skipped: return
        case .deferred:
            tally.counters["files_deferred", default: 0] += 1
            tally.figures.filesYoung += 1
            return
        case .renamed:
            tally.counters["files_renamed", default: 0] += 1
            return
        case .sameContent:
            tally.counters["files_same_content", default: 0] += 1
            return
        case .unreadable:
            tally.counters["\(side)_records_read", default: 0] += outcome.counts.read
            tally.counters["\(side)_rejected", default: 0] += outcome.counts.rejected
            return
        case .appended: tally.counters["files_appended", default: 0] += 1
        case .changed:
            tally.counters["files_changed", default: 0] += 1
            if outcome.answersChanged == nil { tally.figures.filesChanged += 1 }
        case .new, .remapped, .reread: break
        }
        tally.figures.filesIngested += 1
        progress(outcome.bytes, outcome.counts.read)
        tally.counters["records_replaced", default: 0] += outcome.replaced
        tally.figures.v2Unverified += outcome.counts.unverified
        switch outcome.action {
        case .remapped: tally.remapped.formUnion(outcome.previous.union(outcome.touched))
        case .reread: tally.corrected.formUnion(outcome.previous.union(outcome.touched))
        case .changed:
            tally.corrected.formUnion(outcome.answersChanged ?? outcome.previous.union(outcome.touched))
        default: tally.late.formUnion(outcome.touched)
        }
        for (name, value) in [
            ("records_read", outcome.counts.read), ("records_stored", outcome.counts.stored),
            ("duplicates", outcome.counts.duplicates), ("other_environment", outcome.counts.otherEnvironment),
            ("rejected", outcome.counts.rejected)
        ] {
            tally.counters["\(side)_\(name)", default: 0] += value
        }
    }

    /// Re-pairs the touched subscriptions through the reconcile engine, as one reconcile over their records would,
    /// over the period of everything stored, and settles what it finds.
    private func judge(
        _ store: NightlyStore, backfill: NightlyBackfill?, firstNight: Bool, tally: inout Tally
    ) throws(ASNError)
        -> Judgement
    {
        // The period: reconcile's default (the overlap of both sides' event times) over everything stored.
        let b1 = try store.facts.bounds(side: "v1")
        let b2 = try store.facts.bounds(side: "v2")
        let period = Self.period(b1, b2)
        let keys = try touched(store, period: period, firstNight: firstNight, tally: tally).sorted()
        tally.figures.subscriptionsRepaired = keys.count
        var options = settings.reconcileOptions
        options.from = period?.from
        options.to = period?.to
        // The engine's edge rule must see the whole state's extents, not only the re-paired subscriptions'.
        options.v1Span = b1.map { $0.min...$0.max }
        options.v2Span = b2.map { $0.min...$0.max }
        // With `--switch`, the seam checks judge a subscription against how far the whole state's V2 notifications
        // reach, and the state keeps each subscription's part of the counts.
        let switched = !settings.switchDates.isEmpty
        if switched {
            options.switchReach = try store.switches.switchReach(settings.switchDates)
            options.keepsSwitchShares = true
        }
        var reconciler: Reconciler
        var conflicts: [Discrepancy] = []
        if let backfill {
            // Every subscription of the state is touched on a first night, and every record was fed while reading.
            reconciler = backfill.reconciler
            reconciler.options = options
            conflicts = backfill.conflicts
        } else {
            reconciler = Reconciler(table: table, options: options)
            for key in keys {
                for record in try store.facts.records(of: key) { record.feed(into: &reconciler) }
                conflicts += try store.facts.conflicts(of: key)
            }
        }
        let result = reconciler.finish()
        if switched { try store.switches.replaceSwitchShares(of: keys, with: result.switchShares) }
        // Conflicting duplicates are judged by the period as `reconcile` judges them (dated by the duplicate's signedDate).
        let start = result.summary.periodStart ?? Int64.min
        let end = result.summary.periodEnd ?? Int64.max
        var differences =
            result.differences + conflicts.filter { $0.eventDate.map { $0 >= start && $0 <= end } ?? true }
        var edge = result.pending
        if try store.apiView.holdsAPIView() {
            // As `reconcile` does (`ReconciliationResult.adding`): without V2 notifications the notification
            // comparison does not take place, only its `unmapped_v1` and `conflicting_duplicate_v2` rows stay.
            if !(try store.apiView.holdsV2Notifications()) {
                differences = differences.filter { $0.kind == .unmappedV1 || $0.kind == .conflictingDuplicateV2 }
                edge = []
            }
            differences += try apiViewDifferences(store, keys: keys)
        }
        return Judgement(
            keys: keys,
            settled: NightlySettle(settle: settings.settle, now: now).split(differences, edge: edge))
    }

    /// The subscriptions to re-pair: those the files touched, those whose records' fate moved with the period's
    /// edges or whose state at the end may have changed, every subscription with a pending item, and on a night under
    /// other rules everything still open.
    private func touched(
        _ store: NightlyStore, period: (from: Int64, to: Int64)?, firstNight: Bool,
        tally: Tally
    ) throws(ASNError) -> Set<SubscriptionKey> {
        var touched = tally.late.union(tally.corrected).union(tally.remapped)
        let oldFrom = try store.runs.meta("period_from")
        let oldTo = try store.runs.meta("period_to")
        if let period {
            if let oldFrom, oldFrom != period.from {
                touched.formUnion(
                    try store.facts.subscriptions(
                        eventIn: Swift.min(oldFrom, period.from)...Swift.max(oldFrom, period.from), expiresToo: false))
            } else if oldFrom == nil, !firstNight {
                touched.formUnion(try store.facts.subscriptions(eventIn: Int64.min...Int64.max, expiresToo: false))
            }
            if let oldTo, oldTo != period.to {
                let moved = Swift.min(oldTo, period.to)...Swift.max(oldTo, period.to)
                // The states are judged at the period's end: those with a change point the end moved past (an
                // expiry, a grace period's or billing retry's end, a revocation) may be in another state now.
                touched.formUnion(try store.facts.subscriptions(eventIn: moved, expiresToo: false))
                touched.formUnion(try store.facts.subscriptions(changingIn: moved))
            }
        }
        try store.runs.setMeta("period_from", period?.from)
        try store.runs.setMeta("period_to", period?.to)
        // A state converted from an earlier release's schema: judged again whole, as a fresh state's night would be.
        if try store.runs.meta(NightlyStore.judgeAllKey) != nil {
            if !firstNight {
                log("the state was converted from an earlier release's schema: judging every subscription again")
                touched.formUnion(try store.facts.allSubscriptions())
            }
            try store.runs.setMeta(NightlyStore.judgeAllKey, nil)
        }
        // Switch dates other than the last night's (or given, or dropped): every subscription is judged again.
        let switchDigest = Self.switchDigest(settings.switchDates)
        if try store.runs.meta("switch_digest") != switchDigest {
            if !firstNight {
                log("the switch dates differ from the last night's: judging every subscription again")
                touched.formUnion(try store.facts.subscriptions(eventIn: Int64.min...Int64.max, expiresToo: false))
                touched.formUnion(try store.differences.unsettledSubscriptions())
            }
            try store.switches.clearSwitchShares()
            try store.runs.setMeta("switch_digest", switchDigest)
        }
        // Pending items settle as time passes, so their subscriptions are re-paired every night. An open difference's
        // answer changes only through what is re-paired above (new or changed records, the period's moved edges, a
        // retry ending), so it is re-judged with them, except on a night under other rules, which re-judges them all
        // (a V2-only subscription's rows depend on the V2-only rules and no V1 file touches it).
        touched.formUnion(try apiViewTouched(store, firstNight: firstNight))
        return touched.union(
            tally.rulesChanged
                ? try store.differences.unsettledSubscriptions() : try store.differences.pendingSubscriptions())
    }

    /// Compares the night's judgement with the open differences and replaces the pending items, subscription by
    /// subscription (a first night has nothing open or pending to compare with).
    private func compare(_ judgement: Judgement, store: NightlyStore, firstNight: Bool, tally: inout Tally)
        throws(ASNError)
    {
        var confirmedByKey: [SubscriptionKey: [Discrepancy]] = [:]
        for d in judgement.settled.confirmed { confirmedByKey[Self.key(d), default: []].append(d) }
        var pendingByKey: [SubscriptionKey: [DifferenceRow]] = [:]
        for row in judgement.settled.pending { pendingByKey[Self.key(row.difference), default: []].append(row) }
        for key in judgement.keys {
            let open = firstNight ? [:] : try store.differences.openDifferences(of: key)
            var seen: Set<String> = []
            for d in (confirmedByKey[key] ?? []).sorted(by: Discrepancy.reportOrder) {
                let identity = Self.unique(DifferenceRow.identity(d), in: &seen)
                if let existing = open[identity] {
                    try store.differences.updateDifference(id: existing.id, d, date: date)
                } else {
                    try store.differences.insertDifference(d, identity: identity, date: date)
                    tally.figures.new += 1
                }
            }
            for (identity, existing) in open where !seen.contains(identity) {
                let reason =
                    tally.corrected.contains(key)
                    ? "corrected_record" : tally.late.contains(key) ? "late_record" : "rule"
                try store.differences.resolveDifference(id: existing.id, date: date, by: reason)
                tally.figures.resolved += 1
            }
            try replacePending(of: key, with: pendingByKey[key] ?? [], store: store, firstNight: firstNight)
        }
        try store.differences.confirmOpenDifferences(date: date)
    }

    /// A subscription's pending items, each keeping the night it was first seen.
    private func replacePending(
        of key: SubscriptionKey, with pending: [DifferenceRow], store: NightlyStore,
        firstNight: Bool
    ) throws(ASNError) {
        let firstSeen = firstNight ? [:] : try store.differences.pendingFirstSeen(of: key)
        var pendingSeen: Set<String> = []
        let rows = pending.sorted { Discrepancy.reportOrder($0.difference, $1.difference) }.map { row in
            var row = row
            let identity = Self.unique(DifferenceRow.identity(row.difference), in: &pendingSeen)
            row.firstSeen = firstSeen[identity] ?? date
            return (identity: identity, row: row)
        }
        if firstNight {
            try store.differences.insertPending(rows)
        } else {
            try store.differences.replacePending(of: key, with: rows)
        }
    }

    /// Forgets settled subscriptions that fell out of the horizon (their UUIDs stay, for late retries).
    private func prune(_ store: NightlyStore, tally: inout Tally) throws(ASNError) {
        let lastCutoff = try store.runs.meta("prune_cutoff") ?? Int64.min
        if let horizon = settings.horizon, case let cutoff = now - horizon, cutoff > lastCutoff {
            tally.counters["records_pruned"] = try store.facts.prune(
                olderThan: cutoff, candidatesIn: lastCutoff...(cutoff - 1),
                keeping: try store.differences.unsettledSubscriptions())
            try store.runs.setMeta("prune_cutoff", cutoff)
        }
    }

    /// Stores the night's counters with its run and the state's record counts.
    private func record(_ store: NightlyStore, runId: Int64, tally: Tally) throws(ASNError) {
        var counters = tally.counters
        counters["files_ingested"] = tally.figures.filesIngested
        counters["subscriptions_repaired"] = tally.figures.subscriptionsRepaired
        counters["differences_new"] = tally.figures.new
        counters["differences_resolved"] = tally.figures.resolved
        counters["differences_open"] = try store.differences.openCount()
        counters["pending"] = try store.differences.pendingCount()
        try store.facts.saveRecordCounts()
        try store.runs.updateRun(id: runId, counters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The digest of what judges the records: the mapping rules (`MappingTable.digest`), the fields compared, the time
    /// tolerance and the pairing window. A change re-maps and re-pairs everything, so the night's reports show what the
    /// change did. With the defaults it is the rules' own digest (what `asn-migrate version` prints); a window other
    /// than the default is part of it only when set, so states made before it was counted keep their digest.
    static func judgementDigest(_ table: MappingTable, _ settings: NightlySettings) -> Int64 {
        let defaultWindow = NightlySettings().window
        guard !settings.ignoredFields.isEmpty || settings.timeTolerance != 0 || settings.window != defaultWindow else {
            return table.digest
        }
        var text =
            "\(table.digest)|\(settings.ignoredFields.map(\.rawValue).sorted().joined(separator: ","))|\(settings.timeTolerance)"
        if settings.window != defaultWindow { text += "|window \(settings.window)" }
        return Int64(bitPattern: SHA1.prefix64(SHA1.digest(Array(text.utf8)))) & Int64.max
    }

    /// The digest of the switch dates (`--switch`) the state was judged under; nil without any.
    static func switchDigest(_ dates: SwitchDates) -> Int64? {
        guard !dates.isEmpty else { return nil }
        let text = dates.environments.map { "\($0.name)=\($0.instant)" }.joined(separator: ";")
        return Int64(bitPattern: SHA1.prefix64(SHA1.digest(Array(text.utf8)))) & Int64.max
    }

    /// reconcile's default period over the two sides' bounds: their overlap, or the one side that has records.
    package static func period(_ b1: (min: Int64, max: Int64)?, _ b2: (min: Int64, max: Int64)?) -> (
        from: Int64, to: Int64
    )? {
        switch (b1, b2) {
        case (let a?, let b?): return (Swift.max(a.min, b.min), Swift.min(a.max, b.max))
        case (let a?, nil): return (a.min, a.max)
        case (nil, let b?): return (b.min, b.max)
        case (nil, nil): return nil
        }
    }

    // MARK: - Ingesting

    /// What the ledger made of one listed file.
    enum FileAction: Equatable {
        /// Already read, unchanged (or only an unfinished last line added).
        case skipped
        /// Still being written (modified within `min-file-age`): left for a later night.
        case deferred
        /// A file already read, found under another path (renamed, moved, or another spelling of an old ledger path): not read again.
        case renamed
        /// Another path with exactly the content of a file already read (a copy): not read.
        case sameContent
        /// A file already read that grew at its end: only its new lines are read.
        case appended
        /// A file whose already-read content changed: read again, its old records replaced.
        case changed
        /// A file not read before.
        case new
        /// A file already read, read again whole to map its records under new mapping rules (its old records replaced).
        case remapped
        /// A file already read, read again whole (its old records and rejects replaced): an older reader rejected
        /// records of it, or `--reread` names it.
        case reread
        /// A file that cannot be examined or read (a dangling link, no permission): one reject this night; not in the
        /// ledger, so the next night tries it again.
        case unreadable
    }

    /// What ingesting one file did.
    struct FileOutcome {
        /// What the ledger made of the file.
        var action: FileAction
        /// The file's record counts (of the bytes read this run).
        var counts = IngestCounts()
        /// Subscriptions of the records stored (or conflicts found).
        var touched: Set<SubscriptionKey> = []
        /// Subscriptions of the records an earlier copy of the file had.
        var previous: Set<SubscriptionKey> = []
        /// Records of the earlier copy that were removed.
        var replaced = 0
        /// A changed file of Apple's API view only, before and after: the subscriptions whose answers in it changed
        /// (the others' stored answers are byte for byte what they were, so their comparison cannot change).
        var answersChanged: Set<SubscriptionKey>?
        /// Bytes read this run.
        var bytes = 0
        /// Whether an unfinished last line (no newline yet, file still young) was left for a later night.
        var linesDeferred = false
        /// A sharded night: the first and last event time of the records read that belong to other shards.
        var otherShards: ClosedRange<Int64>?
    }

    /// Reads what `file` (named by its real path) has that the ledger has not: nothing when it is known and unchanged
    /// or still being written, only the new lines when it grew at its end, everything when it is new or its read part changed.
    /// `listed` holds the real paths of every file listed this run, to tell a rename (old path gone) from a copy.
    /// With `remap` (the mapping rules changed), a file already read and not still being written is read again whole.
    func ingestIfNeeded(
        _ file: InputFile, side: String, store: NightlyStore, run: Int64, listed: Set<String>,
        backfill: NightlyBackfill? = nil, remap: Bool = false
    ) throws(ASNError) -> FileOutcome {
        let status: (size: Int64, mtimeMs: Int64)
        do {
            status = try Self.fileStatus(file.path)
        } catch {
            return try unreadable(error, file: file, side: side, store: store)
        }
        let entry = try store.ledger.ledgerEntry(path: file.path)
        if !remap, let entry, entry.size == status.size, entry.mtimeMs == status.mtimeMs, !wantsReread(entry) {
            if entry.vanished != nil {
                try store.ledger.touchFile(id: entry.id, size: status.size, mtimeMs: status.mtimeMs)
            }
            return FileOutcome(action: .skipped)
        }
        // The file is opened once: the bytes hashed for the ledger and the decision are the bytes the reader reads
        // (the same descriptor, up to the size taken here), whatever is written to the path meanwhile.
        let snapshot: FileSnapshot
        do {
            snapshot = try FileSnapshot(path: file.path)
        } catch {
            return try unreadable(error, file: file, side: side, store: store)
        }
        let outcome = try ingest(
            snapshot, listedAs: file, side: side, entry: entry, store: store, run: run, listed: listed,
            backfill: backfill, remap: remap)
        try confirmRead(snapshot, outcome: outcome, store: store)
        return outcome
    }

    /// Decides and does what one night does with a file opened at `snapshot`: read it whole or its new lines, or
    /// skip or defer it.
    private func ingest(
        _ snapshot: FileSnapshot, listedAs file: InputFile, side: String, entry: LedgerStore.Entry?,
        store: NightlyStore, run: Int64, listed: Set<String>, backfill: NightlyBackfill?, remap: Bool
    ) throws(ASNError) -> FileOutcome {
        let young =
            fileClock - snapshot.mtimeMs < settings.minFileAge
            && !(answersFolder.map { file.path.hasPrefix($0 + "/") } ?? false)
        let data = snapshot.data
        let read = FileRead(
            file: snapshot.input(reading: file.reading), side: side, data: data, mtimeMs: snapshot.mtimeMs,
            store: store, run: run, backfill: backfill)
        if remap, let entry, entry.size > 0, !young { return try readAgain(read, entry: entry, action: .remapped) }
        if let entry, !young, wantsReread(entry) { return try readAgain(read, entry: entry, action: .reread) }
        let plan = data.withUnsafeBytes { bytes in Self.plan(bytes, entry: entry, young: young, path: file.path) }
        switch plan {
        case .skip(let linesDeferred):
            if let entry, linesDeferred == false {
                try store.ledger.touchFile(id: entry.id, size: entry.size, mtimeMs: snapshot.mtimeMs)
            }
            var outcome = FileOutcome(action: .skipped)
            outcome.linesDeferred = linesDeferred
            return outcome
        case .defer:
            return FileOutcome(action: .deferred)
        case .readTail(let from, let to, let sha1, let lineOffset, let linesDeferred):
            guard let entry else { return FileOutcome(action: .skipped) }
            return try readTail(
                read, entry: entry, bytes: from..<to, sha1: sha1, lineOffset: lineOffset, linesDeferred: linesDeferred)
        case .readAll(let size, let sha1):
            return try readAll(read, entry: entry, size: size, sha1: sha1, listed: listed)
        }
    }

    /// After a file was read: when it was written to while it was read, checks that the bytes the ledger now names
    /// (its size and hash) are still the file's first bytes. Lines appended meanwhile are read the next night, as
    /// for any grown file; a file rewritten in place has its hash forgotten, so the next night reads it whole again
    /// and replaces what this night stored of it.
    private func confirmRead(_ snapshot: FileSnapshot, outcome: FileOutcome, store: NightlyStore) throws(ASNError) {
        switch outcome.action {
        case .new, .changed, .appended, .remapped, .reread: break
        default: return
        }
        guard snapshot.changedSinceTaken(), let entry = try store.ledger.ledgerEntry(path: snapshot.path) else {
            return
        }
        if snapshot.stillHolds(length: Int(entry.size), sha1: entry.sha1) {
            log("note: \(snapshot.path) grew while it was read: its new lines are read the next night")
            return
        }
        try store.ledger.forgetHash(id: entry.id)
        log(
            "warning: \(snapshot.path) was rewritten while it was read: what was read of it is kept for tonight, and the next night reads it whole again and replaces it"
        )
    }

    /// A file listed under a root that cannot be examined or read: one reject, as `migrate` and `reconcile` count it,
    /// so the night goes on. The ledger does not take it, so each night it stays unreadable counts it again (it
    /// stays in sight) and the first night it can be read reads it as a new file.
    private func unreadable(_ error: ASNError, file: InputFile, side: String, store: NightlyStore) throws(ASNError)
        -> FileOutcome
    {
        log("note: \(error.message); counted as one reject, and tried again next night")
        var outcome = FileOutcome(action: .unreadable)
        try reject(error, side: side, file: file, fileId: 0, store: store, lineOffset: 0, into: &outcome)
        return outcome
    }

    /// One file being read: its bytes (one snapshot) and where its records go.
    struct FileRead {
        /// The file.
        let file: InputFile
        /// "v1" or "v2".
        let side: String
        /// The snapshot of its bytes.
        let data: Data
        /// Its modification time, epoch ms.
        let mtimeMs: Int64
        /// The state.
        let store: NightlyStore
        /// The run's id.
        let run: Int64
        /// A first night's in-memory pairing, if any.
        let backfill: NightlyBackfill?
    }

    /// Reads a file already read again whole, replacing what was stored: a V1 file under changed mapping rules
    /// (`.remapped`), or a file whose records an older reader rejected, or one `--reread` names (`.reread`).
    private func readAgain(_ read: FileRead, entry: LedgerStore.Entry, action: FileAction) throws(ASNError)
        -> FileOutcome
    {
        var outcome = FileOutcome(action: action)
        outcome.bytes = read.data.count
        let sha1 = read.data.withUnsafeBytes { bytes in FileIdentity.hash(bytes, length: bytes.count) }
        let removed = try read.store.facts.removeContent(ofFile: entry.id)
        outcome.previous = removed.keys
        outcome.replaced = removed.records
        if action == .remapped {
            log("\(read.file.path): mapping its \(removed.records) stored record(s) again under the rules in force")
        }
        let fileId = try read.store.ledger.beginFile(
            path: read.file.path, side: read.side, size: Int64(read.data.count), mtimeMs: read.mtimeMs, sha1: sha1,
            date: date, run: read.run)
        if read.side == "v1" {
            try ingestV1(read.file, fileId: fileId, store: read.store, backfill: read.backfill, into: &outcome)
        } else {
            try ingestV2(read.file, fileId: fileId, store: read.store, backfill: read.backfill, into: &outcome)
        }
        try read.store.ledger.finishFile(id: fileId, counts: outcome.counts)
        try read.store.ledger.setShape(id: fileId, reading.shapes?.take(read.file.path)?.ledgerName)
        if action == .reread {
            log(
                "\(read.file.path): read again (\(rereadReason(entry))): \(entry.rejects) reject(s) and \(removed.records) stored record(s) replaced by \(outcome.counts.stored) record(s) and \(outcome.counts.rejected) reject(s)"
            )
        }
        return outcome
    }

    /// Whether a file already read is to be read again whole: named by `--reread`, or judged by an older reader
    /// (`InputReading.readerVersion`) that rejected some of its records.
    func wantsReread(_ entry: LedgerStore.Entry) -> Bool {
        if let reread = settings.reread, reread.names(entry.path) { return true }
        return entry.readerVersion != InputReading.readerVersion && entry.rejects > 0 && entry.size > 0
    }

    /// Why a file is read again, for the log.
    private func rereadReason(_ entry: LedgerStore.Entry) -> String {
        if let reread = settings.reread, reread.names(entry.path) { return "--reread" }
        return
            "an older release's reader (version \(entry.readerVersion)) rejected records of it; this release's reader is version \(InputReading.readerVersion)"
    }

    /// Reads the lines appended to a file already read (from a detached copy of the new bytes).
    private func readTail(
        _ read: FileRead, entry: LedgerStore.Entry, bytes: Range<Int>, sha1: String, lineOffset: Int,
        linesDeferred: Bool
    ) throws(ASNError) -> FileOutcome {
        var outcome = FileOutcome(action: .appended)
        outcome.linesDeferred = linesDeferred
        outcome.bytes = bytes.count
        let fd: Int32
        do {
            fd = try read.data.withUnsafeBytes { all in
                try FileIdentity.detachedCopy(UnsafeRawBufferPointer(rebasing: all[bytes]), of: read.file.path)
            }
        } catch {
            throw Self.readFailure(read.file, error)
        }
        defer { close(fd) }
        var tail = InputFile(descriptor: fd, name: read.file.path, reading: reading)
        // The new part is split as the whole file's reading would go on: in the shape its first read decided (found
        // again from the part already read when a state made before shapes were kept has none), whatever the new
        // bytes start with, so a damaged line costs one reject, as in a full read.
        tail.shape = entry.shape.flatMap(FileShape.init(ledgerName:))
        if tail.shape == nil { tail.shape = try shapeOfReadPart(read, entry: entry) }
        if read.side == "v1" {
            try ingestV1(
                tail, fileId: entry.id, store: read.store, backfill: read.backfill, lineOffset: lineOffset,
                into: &outcome)
        } else {
            try ingestV2(
                tail, fileId: entry.id, store: read.store, backfill: read.backfill, lineOffset: lineOffset,
                into: &outcome)
        }
        try read.store.ledger.extendFile(
            id: entry.id, size: Int64(bytes.upperBound), mtimeMs: read.mtimeMs, sha1: sha1, date: date, run: read.run,
            counts: outcome.counts)
        if entry.shape == nil { try read.store.ledger.setShape(id: entry.id, tail.shape?.ledgerName) }
        log(
            "\(read.file.path) grew: read its \(outcome.counts.read) new record(s) from byte \(bytes.lowerBound)"
                + (linesDeferred ? "; its unfinished last line is left for a later night" : ""))
        return outcome
    }

    /// Reads a whole file: new, changed in the part already read (its stored records replaced), or a renamed file or
    /// a copy of one already read (not read again).
    private func readAll(
        _ read: FileRead, entry: LedgerStore.Entry?, size: Int, sha1: String, listed: Set<String>
    ) throws(ASNError) -> FileOutcome {
        var outcome = FileOutcome(action: .new)
        outcome.bytes = size
        let (file, store) = (read.file, read.store)
        // A file read while empty that has content now is read as new; empty files are never each other's copies.
        var answersBefore: [SubscriptionKey: [Int64]]?
        if let entry, entry.size > 0 {
            outcome.action = .changed
            answersBefore = try store.apiView.apiAnswers(ofFile: entry.id)
            let removed = try store.facts.removeContent(ofFile: entry.id)
            outcome.previous = removed.keys
            outcome.replaced = removed.records
        } else if entry == nil, size > 0,
            let twin = try store.ledger.ledgerEntry(size: Int64(size), sha1: sha1, notAt: file.path)
        {
            if !listed.contains(twin.path) {
                try store.ledger.moveFile(id: twin.id, to: file.path, mtimeMs: read.mtimeMs)
                log("note: \(file.path) is \(twin.path) renamed or moved (same content): not read again")
                return FileOutcome(action: .renamed)
            }
            let copy = try store.ledger.beginFile(
                path: file.path, side: read.side, size: Int64(size), mtimeMs: read.mtimeMs, sha1: sha1, date: date,
                run: read.run)
            try store.ledger.finishFile(id: copy, counts: IngestCounts())
            log("note: \(file.path) has the same content as \(twin.path): not read")
            return FileOutcome(action: .sameContent)
        }
        let fileId = try store.ledger.beginFile(
            path: file.path, side: read.side, size: Int64(size), mtimeMs: read.mtimeMs, sha1: sha1, date: date,
            run: read.run)
        if read.side == "v1" {
            try ingestV1(file, fileId: fileId, store: store, backfill: read.backfill, into: &outcome)
        } else {
            try ingestV2(file, fileId: fileId, store: store, backfill: read.backfill, into: &outcome)
        }
        try store.ledger.finishFile(id: fileId, counts: outcome.counts)
        try store.ledger.setShape(id: fileId, reading.shapes?.take(file.path)?.ledgerName)
        if outcome.action == .changed {
            try noteChange(of: file, fileId: fileId, store: store, before: answersBefore, &outcome)
        }
        return outcome
    }

    /// Logs a changed file re-read. A file of Apple's API view only (a `fetch --update` part, rewritten whenever
    /// anything is fetched) is expected to change: a note naming how many subscriptions' answers changed, and only
    /// those are re-paired. Any other file changing in the part already read is a warning.
    private func noteChange(
        of file: InputFile, fileId: Int64, store: NightlyStore, before: [SubscriptionKey: [Int64]]?,
        _ outcome: inout FileOutcome
    ) throws(ASNError) {
        let replaced = "its \(outcome.replaced) stored record(s) are replaced, so none is counted twice (files_changed)"
        if let before, let after = try store.apiView.apiAnswers(ofFile: fileId) {
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            outcome.answersChanged = changed
            log(
                "note: \(file.path) (Apple's API view) was rewritten: re-read; \(replaced); \(changed.count) subscription(s) with changed answers"
            )
            return
        }
        log("warning: \(file.path) changed in the part already read: re-reading it; \(replaced)")
    }

    /// The shape the first `entry.size` bytes of the file (the part already read, unchanged) were split in: they are
    /// split again as a reading of the file alone splits them, up to the most its sample can take.
    private func shapeOfReadPart(_ read: FileRead, entry: LedgerStore.Entry) throws(ASNError) -> FileShape? {
        let length = Swift.min(Int(entry.size), read.data.count, 4 * FileShape.sampleBytes)
        let fd: Int32
        do {
            fd = try read.data.withUnsafeBytes { all in
                try FileIdentity.detachedCopy(UnsafeRawBufferPointer(rebasing: all[0..<length]), of: read.file.path)
            }
        } catch {
            throw Self.readFailure(read.file, error)
        }
        defer { close(fd) }
        let probe = InputReading(settings.inputLimits, keepingShapes: true)
        try? RecordReader(file: InputFile(descriptor: fd, name: read.file.path, reading: probe)).forEach { _ in }
        return probe.shapes?.take(read.file.path)
    }

    /// What to do with a file's bytes, given its ledger entry.
    enum ReadPlan: Equatable {
        /// Nothing to read (`linesDeferred`: only an unfinished last line is new).
        case skip(linesDeferred: Bool)
        /// Still being written: a later night reads it.
        case `defer`
        /// Read bytes `from..<to` (line numbers start after `lineOffset` lines); `sha1` is that of bytes `0..<to`.
        case readTail(from: Int, to: Int, sha1: String, lineOffset: Int, linesDeferred: Bool)
        /// Read the whole file, `size` bytes hashing to `sha1`.
        case readAll(size: Int, sha1: String)
    }

    /// The plan for a file's `bytes`: pure, so each rule is tested without files.
    static func plan(_ bytes: UnsafeRawBufferPointer, entry: LedgerStore.Entry?, young: Bool, path: String)
        -> ReadPlan
    {
        guard let entry else {
            return young ? .defer : .readAll(size: bytes.count, sha1: FileIdentity.hash(bytes, length: bytes.count))
        }
        let read = Int(entry.size)
        let prefixSame = bytes.count >= read && FileIdentity.hash(bytes, length: read) == entry.sha1
        if prefixSame && bytes.count == read { return .skip(linesDeferred: false) }
        if prefixSame && FileIdentity.isAppendable(bytes, consumed: read) {
            var end = bytes.count
            var deferred = false
            if young, bytes[end - 1] != UInt8(ascii: "\n") {
                end = FileIdentity.completeLinesEnd(bytes)
                deferred = true
            }
            guard end > read else { return .skip(linesDeferred: deferred) }
            return .readTail(
                from: read, to: end, sha1: FileIdentity.hash(bytes, length: end),
                lineOffset: FileIdentity.lineCount(bytes, length: read), linesDeferred: deferred)
        }
        return young ? .defer : .readAll(size: bytes.count, sha1: FileIdentity.hash(bytes, length: bytes.count))
    }

    private func ingestV1(
        _ file: InputFile, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, lineOffset: Int = 0,
        into outcome: inout FileOutcome
    ) throws(ASNError) {
        var result = outcome
        do {
            // Each record's transaction facts are kept too, for a V2 side that is (or becomes) Apple's API view.
            try V1FactsPipeline(table: table, receipts: receipts.kept ? .init() : nil).run(.files([file])) { batch in
                try keepV1(
                    batch, file: file, fileId: fileId, store: store, backfill: backfill, lineOffset: lineOffset,
                    into: &result)
            }
        } catch {
            throw Self.readFailure(file, error)
        }
        outcome = result
        if let span = result.otherShards { try store.facts.addOtherShardBounds(file: fileId, side: "v1", span) }
    }

    private func ingestV2(
        _ file: InputFile, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, lineOffset: Int = 0,
        into outcome: inout FileOutcome
    ) throws(ASNError) {
        var result = outcome
        do {
            // reconcile's reading: each notification packed into its facts on the workers, straight from its bytes.
            var reader = ParallelV2Reader(columnMap: columnMap)
            reader.reader.decoder.signatures = signatures
            func keepNotification(_ stored: StoredRecord, verified: Bool) throws(ASNError) {
                if signatures != nil && !verified && owns(stored.key) { result.counts.unverified += 1 }
                try keep(
                    stored, fileId: fileId, store: store, backfill: backfill, lineOffset: lineOffset, into: &result,
                    conflict: { Reconciler.conflict(stored.facts) })
            }
            try reader.readFacts([file]) { item, texts in
                switch item {
                case .other(.rejected(let error)):
                    try reject(
                        error, side: "v2", file: file, fileId: fileId, store: store, lineOffset: lineOffset,
                        into: &result)
                case .facts(let packed, let verified):
                    let digest = Int64(bitPattern: packed.fingerprint)
                    try keepNotification(
                        StoredRecord(facts: packed.facts(in: texts), digest: digest), verified: verified)
                case .other(.record(let record)):
                    try keepNotification(StoredRecord(v2: record), verified: record.signatureVerified)
                case .other(.api(let record)):
                    try keepAPI(
                        record, file: file, fileId: fileId, store: store, lineOffset: lineOffset, into: &result)
                }
            }
        } catch {
            throw Self.readFailure(file, error)
        }
        outcome = result
        if let span = result.otherShards { try store.facts.addOtherShardBounds(file: fileId, side: "v2", span) }
    }

    /// Keeps one batch of V1 records (rejects counted, the others stored with their receipt facts).
    func keepV1(
        _ batch: V1FactsPipeline.Batch, file: InputFile, fileId: Int64, store: NightlyStore,
        backfill: NightlyBackfill?, lineOffset: Int, into outcome: inout FileOutcome
    ) throws(ASNError) {
        var shown = batch.receipts.makeIterator()
        var receipt = shown.next()
        for (index, item) in batch.items.enumerated() {
            var transactions: V1RecordFacts?
            if let found = receipt, found.item == index {
                transactions = found.facts
                receipt = shown.next()
            }
            switch item {
            case .rejected(let error):
                try reject(
                    error, side: "v1", file: file, fileId: fileId, store: store, lineOffset: lineOffset, into: &outcome)
            case .facts(let facts):
                if !receipts.kept { receipts.skipped = true }
                try keep(
                    StoredRecord(facts: facts.facts(in: batch.texts)), fileId: fileId, store: store,
                    backfill: backfill, lineOffset: lineOffset, into: &outcome, transactions: transactions)
            }
        }
    }

    /// Counts one reject of `file` and keeps it in the state (located in the file when the error has no place of its own).
    /// A sharded night keeps every reject in shard 0, as `reconcile --shard` does.
    func reject(
        _ error: ASNError, side: String, file: InputFile, fileId: Int64, store: NightlyStore, lineOffset: Int,
        into outcome: inout FileOutcome
    ) throws(ASNError) {
        if let shard = settings.shard, !shard.holds(0) { return }
        outcome.counts.read += 1
        outcome.counts.rejected += 1
        var located = error.located(in: file.path)
        if lineOffset > 0, let line = located.location?.line { located.location?.line = line + lineOffset }
        try store.facts.insertReject(file: fileId, .init(side: side, error: located), date: date)
    }

    /// Stores a record unless its environment is filtered out or its UUID was seen (a V2 UUID with other content is a
    /// conflict, whose row `conflict` makes). A sharded night stores only its own shard's records: another shard's only
    /// widens the period's span (`otherShards`), as `reconcile --shard` counts every record read into its spans. A V1
    /// record's `transactions` (its receipts' facts, for Apple's API view) are kept even for a copy already seen.
    func keep(
        _ record: StoredRecord, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, lineOffset: Int,
        into outcome: inout FileOutcome, conflict: () -> Discrepancy? = { nil }, transactions: V1RecordFacts? = nil
    ) throws(ASNError) {
        var record = record
        if lineOffset > 0, let line = record.facts.location.line { record.facts.location.line = line + lineOffset }
        let key = record.key
        if !owns(key) {
            let kept = settings.environment.map { $0 == key.environment } ?? true
            if kept, !record.facts.eventTimeInferred, let time = record.facts.time {
                outcome.otherShards =
                    outcome.otherShards.map { Swift.min($0.lowerBound, time)...Swift.max($0.upperBound, time) }
                    ?? time...time
            }
            return
        }
        outcome.counts.read += 1
        if let environment = settings.environment, key.environment != environment {
            outcome.counts.otherEnvironment += 1
            return
        }
        // A V1 copy's transaction facts are kept too, as `reconcile` gathers every copy's: the first copy in its input
        // order names the transactions' source, whichever night each copy arrived.
        if var transactions {
            transactions.source = record.facts.location.source
            outcome.touched.formUnion(try store.apiView.insertV1Transactions(transactions, file: fileId))
        }
        if let seen = try store.facts.seen(side: record.side, uuid: record.notificationUUID) {
            outcome.counts.duplicates += 1
            if record.side == "v2", seen.digest != record.digest, let row = conflict() {
                try store.facts.insertConflict(row, file: fileId)
                backfill?.conflicts.append(row)
                outcome.touched.insert(key)
            }
            return
        }
        try store.facts.insert(record, file: fileId)
        if let backfill { record.feed(into: &backfill.reconciler) }
        outcome.counts.stored += 1
        outcome.touched.insert(key)
    }

    // MARK: - Helpers

    /// Whether this night keeps `key`'s records: always, or in a sharded night when the subscription is its shard's.
    private func owns(_ key: SubscriptionKey) -> Bool {
        guard let shard = settings.shard else { return true }
        return shard.holds(
            ShardHash.shard(
                environment: key.environment, originalTransactionId: key.originalTransactionId, count: shard.count))
    }

    private static func key(_ d: Discrepancy) -> SubscriptionKey {
        SubscriptionKey(environment: d.environment, originalTransactionId: d.originalTransactionId)
    }

    /// `identity`, or `identity#2`, `#3`… when the same subscription has several rows with one identity.
    private static func unique(_ identity: String, in seen: inout Set<String>) -> String {
        var candidate = identity
        var n = 1
        while !seen.insert(candidate).inserted {
            n += 1
            candidate = "\(identity)#\(n)"
        }
        return candidate
    }

    private static func readFailure(_ file: InputFile, _ error: any Error) -> ASNError {
        if let error = error as? ASNError { return error }
        return ASNError(
            .unreadableInput, "cannot read '\(ConsoleText.path(file.path))': \(error)",
            at: SourceLocation(path: file.path))
    }

    /// Size and modification time (ms) of a file.
    static func fileStatus(_ path: String) throws(ASNError) -> (size: Int64, mtimeMs: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw InputPaths.unreadable(path, errno: errno) }
        return (Int64(info.st_size), FileSnapshot.milliseconds(info))
    }
}
