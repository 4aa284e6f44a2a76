import Foundation

/// One `nightly` run over the state database: ingest the files not yet in the ledger, re-pair the subscriptions
/// they touch (plus everything still open or pending), settle, and compare with the open differences.
///
/// All changes happen in one SQLite transaction; the reports are derived from the committed state by
/// `NightlyReport`, so a run killed at any moment leaves either nothing or a state the next run publishes as is.
public struct NightlyRun {
    /// The settings.
    public var settings: NightlySettings
    /// The mapping table.
    public var table: MappingTable
    /// The column map for V2 CSV exports.
    public var columnMap: V2ColumnMap?
    /// The run date (YYYY-MM-DD).
    public var date: String
    /// The run's "now", epoch ms.
    public var now: Int64
    /// Writes one log line (the command adds the timestamp).
    public var log: (String) -> Void
    /// Called at named steps (`ingested`, `settled`); the test hook pauses there.
    public var step: (String) -> Void
    /// The signature checks for V2 records read (nil: not verified).
    public var signatures: SignaturePolicy?
    /// Whether a first night pairs in memory while reading (`NightlyBackfill`); off only in tests, to compare both paths.
    public var pairsFirstNightInMemory = true

    /// Creates a run.
    public init(settings: NightlySettings, table: MappingTable, columnMap: V2ColumnMap?, date: String, now: Int64,
                log: @escaping (String) -> Void, step: @escaping (String) -> Void = { _ in }) {
        self.settings = settings
        self.table = table
        self.columnMap = columnMap
        self.date = date
        self.now = now
        self.log = log
        self.step = step
    }

    /// What the run changed, for the log.
    public struct Figures: Sendable, Equatable {
        /// Files read this run (new or changed).
        public var filesIngested = 0
        /// Subscriptions re-paired.
        public var subscriptionsRepaired = 0
        /// Differences first confirmed.
        public var new = 0
        /// Differences resolved.
        public var resolved = 0
        /// V2 records read that carried no signature to verify (only counted under `verify-signatures`).
        public var v2Unverified = 0
    }

    // MARK: - Running

    /// Ingests, re-pairs, settles and compares, all in one transaction of `store`.
    public func run(_ store: NightlyStore, started: String) throws(ASNError) -> Figures {
        try store.transaction { () throws(ASNError) -> Figures in
            let runId = try store.insertRun(date: date, started: started)
            var figures = Figures()
            var late: Set<SubscriptionKey> = []
            var corrected: Set<SubscriptionKey> = []
            var counters: [String: Int] = [:]
            // A first night pairs in memory while reading; later nights read the touched subscriptions back.
            let fresh = try store.isEmpty()
            let backfill = pairsFirstNightInMemory && fresh ? NightlyBackfill(table: table) : nil
            // 0. The mapping rules in force: when they differ from the last night's, every V1 file still under the
            //    roots is mapped again before anything is compared (records of files no longer there keep theirs).
            let digest = table.digest, lastDigest = try store.meta("rules_digest")
            let remap = !fresh && lastDigest != nil && lastDigest != digest
            var remapped: Set<SubscriptionKey> = []
            if remap { log("the mapping rules differ from the last night's: mapping the V1 files again under the rules in force") }
            try store.setMeta("rules_digest", digest)

            // 1. Ingest what is new or changed.
            for side in ["v1", "v2"] {
                let roots = side == "v1" ? settings.v1 : settings.v2
                let files: [InputFile]
                do {
                    files = try InputPaths.expand(roots)
                } catch let error as ASNError {
                    throw error
                } catch {
                    throw ASNError(.unreadableInput, "cannot list the \(side) input roots: \(error)")
                }
                var listed: Set<String> = []
                for file in files where !file.isDescriptor {
                    listed.insert(file.path)
                    let again = remap && side == "v1"
                    guard let outcome = try ingestIfNeeded(file, side: side, store: store, run: runId, backfill: backfill, force: again) else { continue }
                    figures.filesIngested += 1
                    counters["records_replaced", default: 0] += outcome.replaced
                    figures.v2Unverified += outcome.counts.unverified
                    if again, outcome.remapped {
                        remapped.formUnion(outcome.previous)
                        remapped.formUnion(outcome.touched)
                    } else if outcome.reingested {
                        corrected.formUnion(outcome.previous)
                        corrected.formUnion(outcome.touched)
                    } else {
                        late.formUnion(outcome.touched)
                    }
                    for (name, value) in [("records_read", outcome.counts.read), ("records_stored", outcome.counts.stored),
                                          ("duplicates", outcome.counts.duplicates), ("other_environment", outcome.counts.otherEnvironment),
                                          ("rejected", outcome.counts.rejected)] {
                        counters["\(side)_\(name)", default: 0] += value
                    }
                }
                for entry in try store.ledgerEntries(side: side) where entry.vanished == nil && !listed.contains(entry.path) {
                    try store.markVanished(id: entry.id, date: date)
                    counters["files_vanished", default: 0] += 1
                    log("note: \(entry.path) is no longer under the \(side) roots; its records are kept")
                }
            }
            step("ingested")

            // 2. The period: reconcile's default (the overlap of both sides' event times) over everything stored.
            let b1 = try store.bounds(side: "v1"), b2 = try store.bounds(side: "v2")
            let period = Self.period(b1, b2)
            var touched = late.union(corrected).union(remapped)
            let oldFrom = try store.meta("period_from"), oldTo = try store.meta("period_to")
            if let period {
                // Records whose fate moved with the period's edges, and subscriptions whose state at the end may have changed.
                if let oldFrom, oldFrom != period.from {
                    touched.formUnion(try store.subscriptions(eventIn: Swift.min(oldFrom, period.from)...Swift.max(oldFrom, period.from), expiresToo: false))
                } else if oldFrom == nil, backfill == nil {
                    touched.formUnion(try store.subscriptions(eventIn: Int64.min...Int64.max, expiresToo: false))
                }
                if let oldTo, oldTo != period.to {
                    touched.formUnion(try store.subscriptions(eventIn: Swift.min(oldTo, period.to)...Swift.max(oldTo, period.to), expiresToo: true))
                }
            }
            try store.setMeta("period_from", period?.from)
            try store.setMeta("period_to", period?.to)
            touched.formUnion(try store.unsettledSubscriptions())

            // 3. Re-pair the touched subscriptions through the reconcile engine, as one reconcile over their records would.
            let keys = touched.sorted()
            figures.subscriptionsRepaired = keys.count
            var options = ReconcileOptions()
            options.window = settings.window
            options.from = period?.from
            options.to = period?.to
            // The engine's edge rule must see the whole state's extents, not only the re-paired subscriptions'.
            options.v1Span = b1.map { $0.min...$0.max }
            options.v2Span = b2.map { $0.min...$0.max }
            var reconciler: Reconciler
            var conflicts: [Discrepancy] = []
            if let backfill {
                // Every subscription of the state is touched on a first night, and every record was fed while reading.
                reconciler = backfill.reconciler
                reconciler.options = options
                conflicts = backfill.conflicts
            } else {
                reconciler = Reconciler(table: table, options: options)
                let decoder = V2RecordDecoder()
                for key in keys {
                    for record in try store.records(of: key) { try record.feed(into: &reconciler, decoder: decoder) }
                    conflicts += try store.conflicts(of: key)
                }
            }
            let result = reconciler.finish()
            let differences = result.differences + conflicts
            let judged = NightlySettle(settle: settings.settle, now: now).split(differences, edge: result.pending)
            step("settled")

            // 4. Compare with the open differences and replace the pending items, subscription by subscription.
            var confirmedByKey: [SubscriptionKey: [Discrepancy]] = [:]
            for d in judged.confirmed { confirmedByKey[Self.key(d), default: []].append(d) }
            var pendingByKey: [SubscriptionKey: [DifferenceRow]] = [:]
            for row in judged.pending { pendingByKey[Self.key(row.difference), default: []].append(row) }
            for key in keys {
                // A first night has nothing open or pending to compare with.
                let open = backfill == nil ? try store.openDifferences(of: key) : [:]
                var seen: Set<String> = []
                for d in (confirmedByKey[key] ?? []).sorted(by: Discrepancy.reportOrder) {
                    let identity = Self.unique(DifferenceRow.identity(d), in: &seen)
                    if let existing = open[identity] {
                        try store.updateDifference(id: existing.id, d, date: date)
                    } else {
                        try store.insertDifference(d, identity: identity, date: date)
                        figures.new += 1
                    }
                }
                for (identity, existing) in open where !seen.contains(identity) {
                    // A change of the rules resolves as `rule`: the judgement changed, not the records.
                    let reason = corrected.contains(key) ? "corrected_record" : late.contains(key) ? "late_record" : "rule"
                    try store.resolveDifference(id: existing.id, date: date, by: reason)
                    figures.resolved += 1
                }
                let firstSeen = backfill == nil ? try store.pendingFirstSeen(of: key) : [:]
                var pendingSeen: Set<String> = []
                let rows = (pendingByKey[key] ?? []).sorted { Discrepancy.reportOrder($0.difference, $1.difference) }.map { row in
                    var row = row
                    let identity = Self.unique(DifferenceRow.identity(row.difference), in: &pendingSeen)
                    row.firstSeen = firstSeen[identity] ?? date
                    return (identity: identity, row: row)
                }
                if backfill == nil {
                    try store.replacePending(of: key, with: rows)
                } else {
                    try store.insertPending(rows)
                }
            }

            // 5. Forget settled subscriptions that fell out of the horizon (their UUIDs stay, for late retries).
            let lastCutoff = try store.meta("prune_cutoff") ?? Int64.min
            if let horizon = settings.horizon, case let cutoff = now - horizon, cutoff > lastCutoff {
                counters["records_pruned"] = try store.prune(olderThan: cutoff, candidatesIn: lastCutoff...(cutoff - 1))
                try store.setMeta("prune_cutoff", cutoff)
            }

            counters["files_ingested"] = figures.filesIngested
            counters["subscriptions_repaired"] = figures.subscriptionsRepaired
            counters["differences_new"] = figures.new
            counters["differences_resolved"] = figures.resolved
            counters["differences_open"] = try store.scalar("SELECT COUNT(*) FROM differences WHERE resolved IS NULL")
            counters["pending"] = try store.scalar("SELECT COUNT(*) FROM pending")
            try store.updateRun(id: runId, counters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            return figures
        }
    }

    /// reconcile's default period over the two sides' bounds: their overlap, or the one side that has records.
    public static func period(_ b1: (min: Int64, max: Int64)?, _ b2: (min: Int64, max: Int64)?) -> (from: Int64, to: Int64)? {
        switch (b1, b2) {
        case let (a?, b?): return (Swift.max(a.min, b.min), Swift.min(a.max, b.max))
        case let (a?, nil): return (a.min, a.max)
        case let (nil, b?): return (b.min, b.max)
        case (nil, nil): return nil
        }
    }

    // MARK: - Ingesting

    /// What ingesting one file did.
    struct FileOutcome {
        /// The file's record counts.
        var counts = IngestCounts()
        /// Subscriptions of the records stored (or conflicts found).
        var touched: Set<SubscriptionKey> = []
        /// Subscriptions of the records an earlier copy of the file had.
        var previous: Set<SubscriptionKey> = []
        /// Records of the earlier copy that were removed.
        var replaced = 0
        /// Whether the file was in the ledger with other content.
        var reingested = false
        /// Whether the file was read again, unchanged, to map it under new rules.
        var remapped = false
    }

    /// Reads `file` when it is not in the ledger or its content changed, or, with `force`, again whatever it holds (a
    /// change of the mapping rules); nil when it was skipped.
    func ingestIfNeeded(_ file: InputFile, side: String, store: NightlyStore, run: Int64, backfill: NightlyBackfill? = nil,
                        force: Bool = false) throws(ASNError) -> FileOutcome? {
        let status = try Self.fileStatus(file.path)
        let entry = try store.ledgerEntry(path: file.path)
        if !force, let entry, entry.size == status.size, entry.mtimeMs == status.mtimeMs {
            if entry.vanished != nil { try store.touchFile(id: entry.id, size: status.size, mtimeMs: status.mtimeMs) }
            return nil
        }
        let sha1 = try Self.contentHash(file.path)
        if !force, let entry, entry.sha1 == sha1 {
            try store.touchFile(id: entry.id, size: status.size, mtimeMs: status.mtimeMs)
            return nil
        }
        var outcome = FileOutcome()
        if let entry {
            let removed = try store.removeContent(ofFile: entry.id)
            outcome.previous = removed.keys
            outcome.replaced = removed.records
            outcome.reingested = true
            if force, entry.sha1 == sha1 {
                outcome.remapped = true
                log("\(file.path): mapping its \(removed.records) stored record(s) again under the rules in force")
            } else {
                log("\(file.path) changed: re-reading it (\(removed.records) stored record(s) replaced)")
            }
        }
        let fileId = try store.beginFile(path: file.path, side: side, size: status.size, mtimeMs: status.mtimeMs, sha1: sha1, date: date, run: run)
        if side == "v1" {
            try ingestV1(file, fileId: fileId, store: store, backfill: backfill, into: &outcome)
        } else {
            try ingestV2(file, fileId: fileId, store: store, backfill: backfill, into: &outcome)
        }
        try store.finishFile(id: fileId, counts: outcome.counts)
        return outcome
    }

    private func ingestV1(_ file: InputFile, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, into outcome: inout FileOutcome) throws(ASNError) {
        var result = outcome
        do {
            try MigrationPipeline(mapper: FastRecordMapper(table: table)).run(files: [file], renderJSONLines: false) { batch in
                for item in batch.outcomes {
                    result.counts.read += 1
                    switch item {
                    case .rejected(let error):
                        try Self.reject(error, side: "v1", file: file, fileId: fileId, store: store, into: &result)
                    case .migrated(let payload):
                        try keep(StoredRecord(migrated: payload), fileId: fileId, store: store, backfill: backfill, into: &result, original: .v1(item))
                    case .unmapped(let u):
                        try keep(StoredRecord(unmapped: u), fileId: fileId, store: store, backfill: backfill, into: &result, original: .v1(item))
                    }
                }
            }
        } catch {
            throw Self.readFailure(file, error)
        }
        outcome = result
    }

    private func ingestV2(_ file: InputFile, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, into outcome: inout FileOutcome) throws(ASNError) {
        var result = outcome
        do {
            var reader = ParallelV2Reader(columnMap: columnMap)
            reader.reader.decoder.signatures = signatures
            try reader.read([file]) { item in
                result.counts.read += 1
                switch item {
                case .rejected(let error):
                    try Self.reject(error, side: "v2", file: file, fileId: fileId, store: store, into: &result)
                case .record(let record):
                    if signatures != nil && !record.signatureVerified { result.counts.unverified += 1 }
                    try keep(StoredRecord(v2: record), fileId: fileId, store: store, backfill: backfill, into: &result, original: .v2(record))
                case .api(let record):
                    // Apple's API view is compared by `reconcile`; the nightly state holds notifications only.
                    let error = ASNError(.wrongFieldType, "an App Store Server API response (transaction history, subscription statuses or a lone transaction) is not a notification; nightly reconciles notifications only: compare API responses with 'asn-migrate reconcile --v1 … --v2 …'",
                                         at: record.location)
                    try Self.reject(error, side: "v2", file: file, fileId: fileId, store: store, into: &result)
                }
            }
        } catch {
            throw Self.readFailure(file, error)
        }
        outcome = result
    }

    /// Counts one reject of `file` and keeps it in the state (located in the file when the error has no place of its own).
    private static func reject(_ error: ASNError, side: String, file: InputFile, fileId: Int64, store: NightlyStore, into outcome: inout FileOutcome) throws(ASNError) {
        outcome.counts.rejected += 1
        try store.insertReject(file: fileId, .init(side: side, error: error.located(in: file.path)))
    }

    /// Stores a record unless its environment is filtered out or its UUID was seen (a V2 UUID with other content is a conflict).
    private func keep(_ record: StoredRecord, fileId: Int64, store: NightlyStore, backfill: NightlyBackfill?, into outcome: inout FileOutcome,
                      original: NightlyBackfill.Original) throws(ASNError) {
        var payload: ResponseBodyV2DecodedPayload?
        if case .v2(let read) = original { payload = read.payload }
        if let environment = settings.environment, record.environment != environment {
            outcome.counts.otherEnvironment += 1
            return
        }
        if !record.notificationUUID.isEmpty, let digest = try store.seenDigest(side: record.side, uuid: record.notificationUUID) {
            outcome.counts.duplicates += 1
            if let payload, digest != record.digest {
                let conflict = Reconciler.conflict(payload)
                try store.insertConflict(conflict, file: fileId)
                backfill?.conflicts.append(conflict)
                outcome.touched.insert(SubscriptionKey(environment: record.environment, originalTransactionId: record.originalTransactionId))
            }
            return
        }
        try store.insert(record, file: fileId)
        backfill?.add(original)
        outcome.counts.stored += 1
        outcome.touched.insert(SubscriptionKey(environment: record.environment, originalTransactionId: record.originalTransactionId))
    }

    // MARK: - Helpers

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
        return ASNError(.unreadableInput, "cannot read '\(file.path)': \(error)", at: SourceLocation(path: file.path))
    }

    /// Size and modification time (ms) of a file.
    static func fileStatus(_ path: String) throws(ASNError) -> (size: Int64, mtimeMs: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw InputPaths.unreadable(path, errno: errno) }
        let mtime = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
        return (Int64(info.st_size), mtime)
    }

    /// SHA-1 of the file's bytes, hex.
    static func contentHash(_ path: String) throws(ASNError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw ASNError(.unreadableInput, "cannot read '\(path)' to hash it: \(error.localizedDescription)", at: SourceLocation(path: path))
        }
        let digest = data.withUnsafeBytes { SHA1.digest($0) }
        return SHA1.hex(digest)
    }
}
