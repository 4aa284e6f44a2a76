import Foundation

/// The state database of `nightly`, as typed queries: the file ledger, stored records, seen UUIDs, differences,
/// pending items, rejects and the run log. All SQL lives here; `NightlyPass` decides, this file stores.
package final class NightlyStore {
    /// One row of the file ledger.
    package struct LedgerEntry: Sendable, Equatable {
        /// Row id.
        package var id: Int64
        /// The path as listed under an input root.
        package var path: String
        /// "v1" or "v2".
        package var side: String
        /// Size in bytes when last ingested.
        package var size: Int64
        /// Modification time (ms) when last seen.
        package var mtimeMs: Int64
        /// SHA-1 of the content, hex.
        package var sha1: String
        /// The run date the file was found missing, nil while present.
        package var vanished: String?
        /// The shape its first read split it in (`FileShape.ledgerName`), nil when not known.
        package var shape: String?
        /// The version of the reader that judged its records (`NightlyPass.readerVersion`; 0 before it was kept).
        package var readerVersion: Int64 = 0
        /// How many of its records were rejected.
        package var rejects: Int64 = 0
    }

    /// The database.
    package let database: SQLiteDatabase

    private var statements: [String: SQLiteStatement] = [:]
    private var textIds: [String: Int64] = [:]
    private var textsById: [Int64: String] = [:]
    private var textsLoaded = false
    private var subscriptionIds: [SubscriptionKey: Int64] = [:]
    /// Records added (+) and removed (−) per side since the counts were last kept in `meta`.
    private var countChanges: [String: Int] = [:]
    private static let subscriptionCacheLimit = 1 << 20
    /// The ids of receipt entries already stored (`v1_entries`), by subscription id and content digest.
    var entryIds: [[Int64]: Int64] = [:]

    /// Opens (creating if needed, with its folder) the state database at `path` and brings its schema up to date.
    /// A new state is written beside `path` and renamed into place (`StateFile.create`); a file that is not a state
    /// (`StateFile.inspect`: empty, not SQLite, another program's database) is refused before anything writes to it.
    /// Before anything writes to it, its pages are checked (`PRAGMA quick_check`): a damaged state is refused, left as
    /// it is, and the error names the last good copy in `backups` (`--state-backup`), if any. A state of an older
    /// schema is converted in one transaction (`StateSchema.migrate`), `converting` called inside it.
    package init(path: String, backups: String? = nil, converting: () -> Void = {}) throws(ASNError) {
        try FileSystem.createDirectories(FileSystem.parentDirectory(of: path))
        switch try StateFile.inspect(path) {
        case .absent: try StateFile.create(path)
        case .empty: throw Self.emptyStateFile(path)
        case .state: break
        }
        database = try SQLiteDatabase(path: path, create: false)
        let problems = database.quickCheck()
        if !problems.isEmpty {
            database.close()
            throw Self.damaged(path, problems: problems, backups: backups)
        }
        try StateSchema.migrate(
            database,
            converted: { (found: Int) throws(ASNError) in
                if found < StateSchema.changePointsVersion { try self.addChangePointsOfStoredRecords() }
                if found < StateSchema.stateCodecVersion { try self.convertJSONBlobs() }
                // What an earlier release judged may read otherwise now (a row's event date, say): the next night
                // judges every subscription again, as a fresh state's night would.
                try self.setMeta(Self.judgeAllKey, 1)
            }, converting: converting)
        try moveFormatTwoRecords()
        try database.execute(Self.recordsView)
    }

    /// The error for a 0-byte state file, which holds no state.
    package static func emptyStateFile(_ path: String) -> ASNError {
        ASNError(
            .stateDatabase,
            "the state file '\(path)' is empty (0 bytes), so it holds no state: restore it from the copy made before the last good night, or remove it to start a new state (every input file is then read again as new)",
            at: SourceLocation(path: path))
    }

    /// The error for a state whose pages `PRAGMA quick_check` found damaged: what it found, that nothing was
    /// written, and the newest copy in `backups` that passes the same check, to restore.
    package static func damaged(_ path: String, problems: [String], backups: String?) -> ASNError {
        let found = problems.prefix(3).joined(separator: "; ") + (problems.count > 3 ? "; …" : "")
        var advice: String
        if let backups {
            if let good = lastGoodBackup(in: backups) {
                advice =
                    "the last good copy --state-backup holds is '\(good)': restore it (Reports/operations.md, Rolling back a night: remove the state with its -wal and -shm files, copy the backup in its place) and run the nights since again"
            } else {
                advice =
                    "--state-backup '\(backups)' holds no copy that passes the check: restore a copy of your own, or move the state away to start a new one (every input file is then read again)"
            }
        } else {
            advice =
                "no --state-backup is set: restore a copy of your own, or move the state away to start a new one (every input file is then read again)"
        }
        return ASNError(
            .stateDatabase,
            "the state database '\(path)' is damaged (PRAGMA quick_check: \(found)); nothing was written to it or to its backups; \(advice)",
            at: SourceLocation(path: path))
    }

    /// The newest `before-<date>.sqlite` in `directory` whose pages pass `PRAGMA quick_check` (opened read-only,
    /// immutable: nothing is written beside it), if any.
    static func lastGoodBackup(in directory: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        for name in names.filter({ $0.hasPrefix("before-") && $0.hasSuffix(".sqlite") }).sorted().reversed() {
            guard let copy = try? SQLiteDatabase(inspecting: folder + name, immutable: true) else { continue }
            defer { copy.close() }
            if copy.quickCheck(limit: 1).isEmpty { return folder + name }
        }
        return nil
    }

    /// Copies the state, as committed, to `directory/name` (SQLite's `VACUUM INTO`, then a rename), unless that file
    /// exists already (a re-run of the night keeps the copy made before its first run); returns the path. The copy's
    /// pages are checked (`PRAGMA quick_check`) before it takes its place beside the older ones.
    @discardableResult
    package func backup(into directory: String, name: String) throws(ASNError) -> String {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        try FileSystem.createDirectories(directory)
        let partial = FileSystem.hiddenSibling(of: path, tag: "backup")
        unlink(partial)
        try database.prepare("VACUUM INTO ?").run([.text(partial)])
        let problems = (try? SQLiteDatabase(inspecting: partial, immutable: true)).map { copy in
            defer { copy.close() }
            return copy.quickCheck()
        }
        if let problems, !problems.isEmpty {
            unlink(partial)
            throw Self.damaged(database.path, problems: problems, backups: directory)
        }
        guard rename(partial, path) == 0 else {
            let code = errno
            unlink(partial)
            throw FileSystem.failure("rename the state backup into", path, code)
        }
        return path
    }

    /// Finalizes the cached statements and closes the database (SQLite then folds its write-ahead log back into the
    /// file and removes the `-wal` and `-shm` files); safe to call more than once.
    package func close() {
        statements.removeAll()
        database.close()
    }

    /// Runs `body` in one transaction.
    package func transaction<T>(_ body: () throws(ASNError) -> T) throws(ASNError) -> T {
        try database.transaction(body)
    }

    // MARK: - Ledger

    /// The ledger entry for `path`, if any.
    package func ledgerEntry(path: String) throws(ASNError) -> LedgerEntry? {
        var found: LedgerEntry?
        try cached(
            "SELECT id, path, side, size, mtime_ms, sha1, vanished, shape, reader_version, rejects FROM files WHERE path = ?"
        ).forEach([
            .text(path)
        ]) { s in
            found = Self.entry(s)
        }
        return found
    }

    /// A ledger entry (other than at `path`) whose consumed bytes are exactly `size` bytes hashing to `sha1`: the same file under another name.
    package func ledgerEntry(size: Int64, sha1: String, notAt path: String) throws(ASNError) -> LedgerEntry? {
        var found: LedgerEntry?
        try cached(
            "SELECT id, path, side, size, mtime_ms, sha1, vanished, shape, reader_version, rejects FROM files WHERE size = ? AND sha1 = ? AND path <> ? ORDER BY id LIMIT 1"
        )
        .forEach([.integer(size), .text(sha1), .text(path)]) { s in found = Self.entry(s) }
        return found
    }

    /// Moves a ledger entry to the path its file is found under now (renamed, moved, or listed through another spelling).
    package func moveFile(id: Int64, to path: String, mtimeMs: Int64) throws(ASNError) {
        try cached("UPDATE files SET path = ?, mtime_ms = ?, vanished = NULL WHERE id = ?").run([
            .text(path), .integer(mtimeMs), .integer(id)
        ])
    }

    /// Notes that `size` bytes (hashing to `sha1`) of a file that grew are now read, and adds what reading the new bytes gave.
    package func extendFile(
        id: Int64, size: Int64, mtimeMs: Int64, sha1: String, date: String, run: Int64, counts: IngestCounts
    ) throws(ASNError) {
        try cached(
            "UPDATE files SET size = ?, mtime_ms = ?, sha1 = ?, ingested = ?, ingest_run = ?, vanished = NULL, records_read = records_read + ?, records_stored = records_stored + ?, duplicates = duplicates + ?, other_environment = other_environment + ?, rejects = rejects + ? WHERE id = ?"
        )
        .run([
            .integer(size), .integer(mtimeMs), .text(sha1), .text(date), .integer(run), .integer(Int64(counts.read)),
            .integer(Int64(counts.stored)),
            .integer(Int64(counts.duplicates)), .integer(Int64(counts.otherEnvironment)),
            .integer(Int64(counts.rejected)), .integer(id)
        ])
    }

    /// The newest modification time (ms) of the ledger's files of `side`, if any.
    package func newestFile(side: String) throws(ASNError) -> Int64? {
        var found: Int64?
        try cached("SELECT MAX(mtime_ms) FROM files WHERE side = ?").forEach([.text(side)]) { s in
            found = s.optionalInt64(0)
        }
        return found
    }

    /// Every ledger entry of `side`, by path.
    package func ledgerEntries(side: String) throws(ASNError) -> [LedgerEntry] {
        var all: [LedgerEntry] = []
        try cached(
            "SELECT id, path, side, size, mtime_ms, sha1, vanished, shape, reader_version, rejects FROM files WHERE side = ? ORDER BY path"
        )
        .forEach([.text(side)]) { s in
            all.append(Self.entry(s))
        }
        return all
    }

    /// Adds (or, for a known path, resets) a ledger entry before its records are read; returns its id.
    package func beginFile(
        path: String, side: String, size: Int64, mtimeMs: Int64, sha1: String, date: String, run: Int64
    ) throws(ASNError) -> Int64 {
        if let existing = try ledgerEntry(path: path) {
            try cached(
                "UPDATE files SET side = ?, size = ?, mtime_ms = ?, sha1 = ?, ingested = ?, ingest_run = ?, vanished = NULL, records_read = 0, records_stored = 0, duplicates = 0, other_environment = 0, rejects = 0, shape = NULL, reader_version = ? WHERE id = ?"
            )
            .run([
                .text(side), .integer(size), .integer(mtimeMs), .text(sha1), .text(date), .integer(run),
                .integer(InputReading.readerVersion), .integer(existing.id)
            ])
            return existing.id
        }
        try cached(
            "INSERT INTO files (path, side, size, mtime_ms, sha1, records_read, records_stored, duplicates, other_environment, rejects, first_ingested, ingested, ingest_run, reader_version) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, ?, ?, ?, ?)"
        )
        .run([
            .text(path), .text(side), .integer(size), .integer(mtimeMs), .text(sha1), .text(date), .text(date),
            .integer(run), .integer(InputReading.readerVersion)
        ])
        return try lastInsertId()
    }

    /// Records what reading the file gave.
    package func finishFile(id: Int64, counts: IngestCounts) throws(ASNError) {
        try cached(
            "UPDATE files SET records_read = ?, records_stored = ?, duplicates = ?, other_environment = ?, rejects = ? WHERE id = ?"
        )
        .run([
            .integer(Int64(counts.read)), .integer(Int64(counts.stored)), .integer(Int64(counts.duplicates)),
            .integer(Int64(counts.otherEnvironment)), .integer(Int64(counts.rejected)), .integer(id)
        ])
    }

    /// Notes the shape a file's first read split it in (`FileShape.ledgerName`), which its new part is read in when it grows.
    package func setShape(id: Int64, _ shape: String?) throws(ASNError) {
        try cached("UPDATE files SET shape = ? WHERE id = ?").run([shape.map { .text($0) } ?? .null, .integer(id)])
    }

    /// Notes a new size/modification time for unchanged content, and that the file is present.
    package func touchFile(id: Int64, size: Int64, mtimeMs: Int64) throws(ASNError) {
        try cached("UPDATE files SET size = ?, mtime_ms = ?, vanished = NULL WHERE id = ?").run([
            .integer(size), .integer(mtimeMs), .integer(id)
        ])
    }

    /// Notes that a file is no longer under its root (its records are kept).
    package func markVanished(id: Int64, date: String) throws(ASNError) {
        try cached("UPDATE files SET vanished = ? WHERE id = ? AND vanished IS NULL").run([.text(date), .integer(id)])
    }

    /// Deletes everything a file contributed (records, pruned UUIDs, conflicts, rejects) before it is read again;
    /// returns the subscriptions its records belonged to and how many records were removed.
    package func removeContent(ofFile id: Int64) throws(ASNError) -> (keys: Set<SubscriptionKey>, records: Int) {
        var keys: Set<SubscriptionKey> = []
        var count = 0
        var ids: Set<Int64> = []
        try cached("SELECT subscription_id, COUNT(*) FROM facts WHERE file_id = ? GROUP BY subscription_id").forEach([
            .integer(id)
        ]) { s in
            ids.insert(s.int64(0))
            count += Int(s.int64(1))
        }
        // Apple's API view and the V1 transaction facts (`NightlyStore+APIView`) go with their file too; Apple's
        // answers are V2 records replaced (a V1 record's transaction facts are counted as its record, above).
        count += try scalar("SELECT COUNT(*) FROM api_records WHERE file_id = ?", [.integer(id)])
        for table in ["v1_transactions", "api_records"] {
            try cached("SELECT DISTINCT subscription_id FROM \(table) WHERE file_id = ?").forEach([.integer(id)]) { s in
                ids.insert(s.int64(0))
            }
        }
        keys.formUnion(try self.keys(of: ids))
        try cached("SELECT environment, original_transaction_id FROM conflicts WHERE file_id = ?").forEach([
            .integer(id)
        ]) { s in
            keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1)))
        }
        try cached("SELECT side, COUNT(*) FROM facts WHERE file_id = ? GROUP BY side").forEach([.integer(id)]) { s in
            countChanges[s.int64(0) == 1 ? "v1" : "v2", default: 0] -= Int(s.int64(1))
        }
        for table in [
            "facts", "pruned_uuids", "conflicts", "rejects", "source_rows", "other_shard_bounds", "v1_transactions",
            "api_records"
        ] {
            try cached("DELETE FROM \(table) WHERE file_id = ?").run([.integer(id)])
        }
        return (keys, count)
    }

    // MARK: - Database sources

    /// The ids of the rows already read from the database source `file` whose since-column value is at least
    /// `from` (every row read when nil), or that had none.
    package func knownRows(file: Int64, from: Int64?) throws(ASNError) -> Set<String> {
        var keys: Set<String> = []
        let sql =
            from == nil
            ? "SELECT row_key FROM source_rows WHERE file_id = ?"
            : "SELECT row_key FROM source_rows WHERE file_id = ? AND (mark IS NULL OR mark >= ?)"
        try cached(sql).forEach([.integer(file)] + (from.map { [.integer($0)] } ?? [])) { s in keys.insert(s.text(0)) }
        return keys
    }

    /// Notes a row of the database source `file` as read.
    package func insertRow(file: Int64, key: String, mark: Int64?) throws(ASNError) {
        try cached("INSERT OR REPLACE INTO source_rows (file_id, row_key, mark) VALUES (?, ?, ?)")
            .run([.integer(file), .text(key), mark.map { .integer($0) } ?? .null])
    }

    /// Forgets the rows of `file` whose since-column value lies below `mark`: no later night's filter returns them.
    package func pruneRows(file: Int64, below mark: Int64) throws(ASNError) {
        try cached("DELETE FROM source_rows WHERE file_id = ? AND mark < ?").run([.integer(file), .integer(mark)])
    }

    // MARK: - Records

    /// A notificationUUID already stored (or pruned) on a side.
    package struct SeenUUID: Sendable, Equatable {
        /// V2: the content fingerprint of the copy stored; nil for V1.
        package var digest: Int64?
    }

    /// The record stored (or pruned) earlier under notificationUUID `uuid` on `side`, if any ("" is never seen).
    package func seen(side: String, uuid: String) throws(ASNError) -> SeenUUID? {
        let value = Self.uuidValue(uuid)
        guard value != .null else { return nil }
        var found: SeenUUID?
        for table in ["facts", "pruned_uuids"] where found == nil {
            try cached("SELECT digest FROM \(table) WHERE side = ? AND uuid = ?").forEach([
                .integer(Self.sideCode(side)), value
            ]) { s in
                found = SeenUUID(digest: s.optionalInt64(0))
            }
        }
        return found
    }

    /// Stores one record (its notificationUUID, when it has one, is then seen).
    package func insert(_ r: StoredRecord, file: Int64) throws(ASNError) {
        let facts = r.facts
        let subscription = try subscriptionId(r.key)
        let bytes = try RecordFactsCodec.encode(facts) { (text: String) throws(ASNError) -> Int64 in try textId(text) }
        countChanges[r.side, default: 0] += 1
        try cached(
            "INSERT INTO facts (file_id, subscription_id, side, inferred, event_ms, expires_ms, uuid, digest, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .run([
            .integer(file), .integer(subscription), .integer(Self.sideCode(r.side)),
            .integer(facts.eventTimeInferred ? 1 : 0),
            .integer(facts.time), .integer(facts.expiry), Self.uuidValue(facts.notificationUUID),
            .integer(r.digest), .blob(bytes)
        ])
        try insertChangePoints(of: facts, subscription: subscription)
    }

    /// The `meta` key set by a conversion from an earlier schema: the next night judges every subscription again.
    package static let judgeAllKey = "judge_all_after_conversion"

    /// Notes the instants the record's facts can change its subscription's judged state at
    /// (`SubscriptionStateRules.changePoints`: expiry, grace end, retry end, revocation).
    private func insertChangePoints(of facts: RecordFacts, subscription: Int64) throws(ASNError) {
        guard let fact = facts.stateFact else { return }
        try insertChangePoints(SubscriptionStateRules.changePoints(CollectionOfOne(fact)), subscription: subscription)
    }

    /// Notes instants at which `subscription`'s judged state can change (`change_points`; nil left out).
    func insertChangePoints(_ points: [Int64?], subscription: Int64) throws(ASNError) {
        for point in Set(points.compactMap { $0 }).sorted() {
            try cached("INSERT OR IGNORE INTO change_points (at_ms, subscription_id) VALUES (?, ?)").run([
                .integer(point), .integer(subscription)
            ])
        }
    }

    /// Adds the change points of every stored record, read back from its facts: what a state converted from a schema
    /// before `change_points` lacks (its expiry index held the later of expiry and grace end only). A record whose
    /// facts do not read back adds none: reading its subscription's records refuses it as damaged, as before.
    func addChangePointsOfStoredRecords() throws(ASNError) {
        var environments: [Int64: String] = [:]
        try database.prepare(
            "SELECT f.id, f.subscription_id, s.environment_id, s.original_transaction_id, f.facts, f.uuid, f.event_ms FROM facts f JOIN subscriptions s ON s.id = f.subscription_id"
        ).forEach { (s: SQLiteStatement) throws(ASNError) in
            let environmentId = s.int64(2)
            let environment = environments[environmentId] ?? text(id: environmentId) ?? ""
            environments[environmentId] = environment
            let uuid = Self.uuidText(s, 5)
            let bytes = s.blob(4)
            let facts = bytes.withUnsafeBytes { raw in
                RecordFactsCodec.decode(
                    raw, environment: environment, originalTransactionId: s.text(3), notificationUUID: uuid,
                    time: s.optionalInt64(6), text: { self.text(id: $0) })
            }
            guard let facts else { return }
            try insertChangePoints(of: facts, subscription: s.int64(1))
        }
    }

    /// The stored records of one subscription, in the order they were ingested.
    package func records(of key: SubscriptionKey) throws(ASNError) -> [StoredRecord] {
        guard let subscription = try subscriptionId(key, create: false) else { return [] }
        var all: [StoredRecord] = []
        var damaged: Int64?
        try cached("SELECT id, facts, uuid, digest, event_ms FROM facts WHERE subscription_id = ? ORDER BY id").forEach(
            [.integer(subscription)]) { s in
                let uuid = Self.uuidText(s, 2)
                let bytes = s.blob(1)
                let facts = bytes.withUnsafeBytes { raw in
                    RecordFactsCodec.decode(
                        raw, environment: key.environment, originalTransactionId: key.originalTransactionId,
                        notificationUUID: uuid, time: s.optionalInt64(4), text: { self.text(id: $0) })
                }
                guard let facts else {
                    damaged = damaged ?? s.int64(0)
                    return
                }
                all.append(StoredRecord(facts: facts, digest: s.optionalInt64(3)))
            }
        if let damaged {
            throw ASNError(
                .stateDatabase,
                "stored record \(damaged) of subscription \(key.environment) \(key.originalTransactionId) cannot be read back (its facts are damaged or of a newer format); restore the state from a backup (--state-backup) or start a new one",
                at: SourceLocation(path: database.path))
        }
        return all
    }

    /// The first and last known event time of a side (V1: not inferred), over stored records and `meta` bounds of pruned ones.
    package func bounds(side: String) throws(ASNError) -> (min: Int64, max: Int64)? {
        var low: Int64?
        var high: Int64?
        try cached(
            "SELECT MIN(event_ms), MAX(event_ms) FROM facts WHERE side = ? AND inferred = 0 AND event_ms IS NOT NULL"
        ).forEach([.integer(Self.sideCode(side))]) { s in
            low = s.optionalInt64(0)
            high = s.optionalInt64(1)
        }
        try cached("SELECT MIN(min_ms), MAX(max_ms) FROM other_shard_bounds WHERE side = ?").forEach([
            .integer(Self.sideCode(side))
        ]) { s in
            if let other = s.optionalInt64(0) { low = Swift.min(low ?? other, other) }
            if let other = s.optionalInt64(1) { high = Swift.max(high ?? other, other) }
        }
        if let pruned = try meta("\(side)_pruned_min") { low = Swift.min(low ?? pruned, pruned) }
        if let pruned = try meta("\(side)_pruned_max") { high = Swift.max(high ?? pruned, pruned) }
        guard let low, let high else { return nil }
        return (low, high)
    }

    /// Widens the span of event times that `file`'s records of other shards had on `side` (`nightly --shard`): their
    /// records are not kept here, but the period is the whole run's.
    package func addOtherShardBounds(file: Int64, side: String, _ span: ClosedRange<Int64>) throws(ASNError) {
        try cached(
            "INSERT INTO other_shard_bounds (file_id, side, min_ms, max_ms) VALUES (?, ?, ?, ?) ON CONFLICT(file_id, side) DO UPDATE SET min_ms = MIN(min_ms, excluded.min_ms), max_ms = MAX(max_ms, excluded.max_ms)"
        ).run([.integer(file), .integer(Self.sideCode(side)), .integer(span.lowerBound), .integer(span.upperBound)])
    }

    /// Subscriptions with a (not inferred) record whose event time lies in `range`, or (`expiresToo`) a change point.
    package func subscriptions(eventIn range: ClosedRange<Int64>, expiresToo: Bool) throws(ASNError) -> Set<
        SubscriptionKey
    > {
        var ids: Set<Int64> = []
        let bound: [SQLiteValue] = [.integer(range.lowerBound), .integer(range.upperBound)]
        for side in [1, 2] as [Int64] {
            try cached(
                "SELECT DISTINCT subscription_id FROM facts WHERE side = ? AND inferred = 0 AND event_ms BETWEEN ? AND ?"
            )
            .forEach([.integer(side)] + bound) { s in ids.insert(s.int64(0)) }
        }
        // Inferred V1 times are judged after pairing, so a moved edge can change their fate too.
        try cached(
            "SELECT DISTINCT subscription_id FROM facts WHERE side = 1 AND inferred = 1 AND event_ms BETWEEN ? AND ?"
        )
        .forEach(bound) { s in ids.insert(s.int64(0)) }
        let keys = try keys(of: ids)
        return expiresToo ? keys.union(try subscriptions(changingIn: range)) : keys
    }

    /// Subscriptions with a change point (`change_points`: an expiry, grace end, retry end, revocation, or a date of
    /// the API view) within `range`: those whose judged state can differ at the two ends of `range`.
    package func subscriptions(changingIn range: ClosedRange<Int64>) throws(ASNError) -> Set<SubscriptionKey> {
        var ids: Set<Int64> = []
        try cached("SELECT DISTINCT subscription_id FROM change_points WHERE at_ms BETWEEN ? AND ?")
            .forEach([.integer(range.lowerBound), .integer(range.upperBound)]) { s in ids.insert(s.int64(0)) }
        return try keys(of: ids)
    }

    /// Every subscription with a record of `side` (`v1` / `v2`): those `nightly --fetch` asks Apple for until answered.
    package func subscriptions(side: String) throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached(
            "SELECT DISTINCT s.environment_id, s.original_transaction_id FROM subscriptions s WHERE EXISTS (SELECT 1 FROM facts f WHERE f.subscription_id = s.id AND f.side = ?)"
        ).forEach([.integer(Self.sideCode(side))]) { s in
            keys.insert(SubscriptionKey(environment: text(id: s.int64(0)) ?? "", originalTransactionId: s.text(1)))
        }
        return keys
    }

    /// Subscriptions with an open difference or a pending item.
    package func unsettledSubscriptions() throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached(
            "SELECT environment, original_transaction_id FROM differences WHERE resolved IS NULL UNION SELECT environment, original_transaction_id FROM pending"
        )
        .forEach { s in keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1))) }
        return keys
    }

    /// The subscriptions with a pending item: their items settle as time passes, so every night re-pairs them.
    package func pendingSubscriptions() throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached("SELECT environment, original_transaction_id FROM pending")
            .forEach { s in keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1))) }
        return keys
    }

    /// Deletes the records of subscriptions whose every record is older than `cutoff` and that have nothing open or
    /// pending, looking only at records with event times in `window` (the stretch that newly fell out of the horizon).
    /// Their UUIDs stay in `seen_uuids`, so a late retry is still a duplicate; the side bounds are kept in `meta`.
    package func prune(olderThan cutoff: Int64, candidatesIn window: ClosedRange<Int64>) throws(ASNError) -> Int {
        let candidates = try subscriptions(eventIn: window, expiresToo: false)
        let unsettled = try unsettledSubscriptions()
        var removed = 0
        for key in candidates.sorted() where !unsettled.contains(key) {
            guard let subscription = try subscriptionId(key, create: false) else { continue }
            var newest: Int64?
            try cached(
                "SELECT MAX(COALESCE(event_ms, 0)) FROM facts INDEXED BY facts_subscription WHERE subscription_id = ?"
            )
            .forEach([.integer(subscription)]) { s in newest = s.optionalInt64(0) }
            guard let newest, newest < cutoff else { continue }
            for (side, b) in try storedBounds(subscription).sorted(by: { $0.key < $1.key }) {
                try setMeta("\(side)_pruned_min", Swift.min(try meta("\(side)_pruned_min") ?? b.min, b.min))
                try setMeta("\(side)_pruned_max", Swift.max(try meta("\(side)_pruned_max") ?? b.max, b.max))
            }
            try cached(
                "INSERT OR IGNORE INTO pruned_uuids (side, uuid, digest, file_id) SELECT side, uuid, digest, file_id FROM facts WHERE subscription_id = ? AND uuid IS NOT NULL"
            )
            .run([.integer(subscription)])
            try cached("SELECT side, COUNT(*) FROM facts WHERE subscription_id = ? GROUP BY side").forEach([
                .integer(subscription)
            ]) { s in
                countChanges[s.int64(0) == 1 ? "v1" : "v2", default: 0] -= Int(s.int64(1))
            }
            try cached("DELETE FROM facts WHERE subscription_id = ?").run([.integer(subscription)])
            removed += database.changes
        }
        return removed
    }

    /// Whether the state holds no records, conflicts, differences or pending items (a first night, as far as pairing goes).
    package func isEmpty() throws(ASNError) -> Bool {
        try scalar(
            "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM facts LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM conflicts LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM differences LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM pending LIMIT 1))"
        ) == 0
    }

    /// Counts of stored records per side.
    package func recordCount(side: String) throws(ASNError) -> Int {
        if let kept = try meta("\(side)_records_in_state") { return Int(kept) + (countChanges[side] ?? 0) }
        return try scalar("SELECT COUNT(*) FROM facts WHERE side = ?", [.integer(Self.sideCode(side))])
    }

    /// Keeps the record counts `recordCount` gives in `meta`, inside the caller's transaction, so a night does not count
    /// a whole side's records (a state of millions) to report how many there are.
    package func saveRecordCounts() throws(ASNError) {
        for side in ["v1", "v2"] {
            try setMeta("\(side)_records_in_state", Int64(try recordCount(side: side)))
        }
        countChanges = [:]
    }

    // MARK: - Conflicts and rejects

    /// Stores a V2 notificationUUID seen again with other content.
    package func insertConflict(_ d: Discrepancy, file: Int64) throws(ASNError) {
        try cached("INSERT INTO conflicts (file_id, \(Self.cellColumns)) VALUES (?, \(Self.cellMarks))")
            .run([.integer(file)] + d.cells.map { .text($0) })
    }

    /// The conflicting duplicates stored for one subscription.
    package func conflicts(of key: SubscriptionKey) throws(ASNError) -> [Discrepancy] {
        var all: [Discrepancy] = []
        try cached(
            "SELECT \(Self.cellColumns) FROM conflicts WHERE environment = ? AND original_transaction_id = ? ORDER BY id"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            if let d = Discrepancy(cells: Self.cells(s, from: 0)) { all.append(d) }
        }
        return all
    }

    /// Stores one reject of a file.
    package func insertReject(file: Int64, _ reject: ReconciliationResult.Reject, date: String) throws(ASNError) {
        try cached(
            "INSERT INTO rejects (file_id, side, source, line, reason, cause, ingested) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        .run([
            .integer(file), .text(reject.side), .text(reject.source), .integer(reject.line.map(Int64.init)),
            .text(reject.reason), .text(reject.cause), .text(date)
        ])
    }

    /// The rejects read on `date` (rejects stored before schema 2: those of the files (re)ingested on `date`; a file
    /// that could not be read has no ledger entry, file id 0), V1 first, in input order.
    package func rejects(ingestedOn date: String) throws(ASNError) -> [ReconciliationResult.Reject] {
        var all: [ReconciliationResult.Reject] = []
        try cached(
            "SELECT r.side, r.source, r.line, r.reason, r.cause FROM rejects r LEFT JOIN files f ON f.id = r.file_id WHERE COALESCE(r.ingested, f.ingested) = ? ORDER BY r.side, r.id"
        )
        .forEach([.text(date)]) { s in
            all.append(
                .init(
                    side: s.text(0), source: s.text(1), line: s.optionalInt64(2).map { Int($0) }, reason: s.text(3),
                    cause: s.text(4)))
        }
        return all
    }

    // MARK: - Differences

    /// The open differences of one subscription, by identity, with their row ids.
    package func openDifferences(of key: SubscriptionKey) throws(ASNError) -> [String: (id: Int64, row: DifferenceRow)]
    {
        var found: [String: (id: Int64, row: DifferenceRow)] = [:]
        try cached(
            "SELECT id, identity, first_seen, last_seen, \(Self.cellColumns) FROM differences WHERE environment = ? AND original_transaction_id = ? AND resolved IS NULL"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 4)) else { return }
            found[s.text(1)] = (s.int64(0), DifferenceRow(difference: d, firstSeen: s.text(2), lastSeen: s.text(3)))
        }
        return found
    }

    /// Stores a newly confirmed difference.
    package func insertDifference(_ d: Discrepancy, identity: String, date: String) throws(ASNError) {
        try cached(
            "INSERT INTO differences (identity, first_seen, last_seen, \(Self.cellColumns)) VALUES (?, ?, ?, \(Self.cellMarks))"
        )
        .run([.text(identity), .text(date), .text(date)] + d.cells.map { .text($0) })
    }

    /// Notes that an open difference is still there (with its current values).
    package func updateDifference(id: Int64, _ d: Discrepancy, date: String) throws(ASNError) {
        let assignments = Discrepancy.columns.map { "\($0) = ?" }.joined(separator: ", ")
        try cached("UPDATE differences SET last_seen = ?, \(assignments) WHERE id = ?")
            .run([.text(date)] + d.cells.map { .text($0) } + [.integer(id)])
    }

    /// Marks every difference still open as seen on `date`: those of subscriptions not re-paired tonight stand as
    /// they were (nothing that decides them changed).
    package func confirmOpenDifferences(date: String) throws(ASNError) {
        try cached("UPDATE differences SET last_seen = ? WHERE resolved IS NULL AND last_seen <> ?").run([
            .text(date), .text(date)
        ])
    }

    /// Closes an open difference.
    package func resolveDifference(id: Int64, date: String, by reason: String) throws(ASNError) {
        try cached("UPDATE differences SET resolved = ?, resolved_by = ? WHERE id = ?").run([
            .text(date), .text(reason), .integer(id)
        ])
    }

    /// Which differences `differenceRows` returns.
    package enum DifferenceFilter: Sendable {
        /// First seen on the date and still open.
        case new
        /// Every open difference.
        case open
        /// Resolved on the date.
        case resolved
    }

    /// The difference rows that `filter` selects for `date`.
    package func differenceRows(_ filter: DifferenceFilter, date: String) throws(ASNError) -> [DifferenceRow] {
        let condition: String
        var values: [SQLiteValue] = []
        switch filter {
        case .new:
            condition = "first_seen = ? AND resolved IS NULL"
            values = [.text(date)]
        case .resolved:
            condition = "resolved = ?"
            values = [.text(date)]
        case .open:
            condition = "resolved IS NULL"
        }
        var rows: [DifferenceRow] = []
        try cached(
            "SELECT first_seen, last_seen, resolved, resolved_by, \(Self.cellColumns) FROM differences WHERE \(condition)"
        ).forEach(values) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 4)) else { return }
            rows.append(
                DifferenceRow(
                    difference: d, firstSeen: s.text(0), lastSeen: s.text(1), resolved: s.optionalText(2),
                    resolvedBy: s.optionalText(3)))
        }
        return rows
    }

    /// The differences open at the end of each of the last `nights` run dates up to `date` (oldest first): first seen
    /// by then and not resolved by then. Derived from the differences' own dates, so publishing again gives the same.
    package func openTrend(through date: String, nights: Int) throws(ASNError) -> [(date: String, open: Int)] {
        var dates: [String] = []
        try cached("SELECT DISTINCT run_date FROM runs WHERE run_date <= ? ORDER BY run_date DESC LIMIT ?").forEach([
            .text(date), .integer(Int64(nights))
        ]) { s in
            dates.append(s.text(0))
        }
        var trend: [(date: String, open: Int)] = []
        for night in dates.reversed() {
            let open = try scalar(
                "SELECT COUNT(*) FROM differences WHERE first_seen <= ? AND (resolved IS NULL OR resolved > ?)",
                [.text(night), .text(night)])
            trend.append((night, Int(open)))
        }
        return trend
    }

    /// Every night of the state, oldest first, with the exit status of its last finished run and its figures:
    /// new (first seen that night and not resolved that night), resolved, open at its end (first seen by then, not
    /// resolved by then, as `openTrend`) and rejected. Four grouped queries, whatever the number of nights.
    package func nights() throws(ASNError) -> [NightlyIndex.Night] {
        var rejected: [String: Int] = [:]
        try cached("SELECT run_date, SUM(v1_rejected + v2_rejected) FROM runs GROUP BY run_date").forEach { s in
            rejected[s.text(0)] = Int(s.int64(1))
        }
        var status: [String: Int32] = [:]
        try cached("SELECT run_date, exit_status FROM runs WHERE exit_status IS NOT NULL ORDER BY id").forEach { s in
            status[s.text(0)] = Int32(clamping: s.int64(1))
        }
        var first: [String: (all: Int, sameNight: Int)] = [:]
        try cached(
            "SELECT first_seen, COUNT(*), SUM(CASE WHEN resolved = first_seen THEN 1 ELSE 0 END) FROM differences GROUP BY first_seen"
        ).forEach { s in first[s.text(0)] = (Int(s.int64(1)), Int(s.int64(2))) }
        var resolved: [String: Int] = [:]
        try cached("SELECT resolved, COUNT(*) FROM differences WHERE resolved IS NOT NULL GROUP BY resolved").forEach {
            s in resolved[s.text(0)] = Int(s.int64(1))
        }
        // Open at the end of a night: first seen by then, less resolved by then (a difference is resolved on or
        // after the night it was first seen), counted over every date either happened on.
        let dates = Set(rejected.keys)
        let events = (Set(first.keys).union(resolved.keys)).union(dates).sorted()
        var open = 0
        var openAt: [String: Int] = [:]
        for date in events {
            open += (first[date]?.all ?? 0) - (resolved[date] ?? 0)
            openAt[date] = open
        }
        return dates.sorted().map { date in
            NightlyIndex.Night(
                date: date, status: status[date], new: (first[date]?.all ?? 0) - (first[date]?.sameNight ?? 0),
                resolved: resolved[date] ?? 0, open: openAt[date] ?? 0, rejected: rejected[date] ?? 0)
        }
    }

    /// How many differences resolved on `date` each `resolved_by` has.
    package func resolvedCounts(date: String) throws(ASNError) -> [String: Int] {
        var counts: [String: Int] = [:]
        try cached("SELECT resolved_by, COUNT(*) FROM differences WHERE resolved = ? GROUP BY 1").forEach([.text(date)])
        { s in
            counts[s.text(0)] = Int(s.int64(1))
        }
        return counts
    }

    // MARK: - Pending

    /// The pending items of one subscription, by identity (to keep their first-seen date).
    package func pendingFirstSeen(of key: SubscriptionKey) throws(ASNError) -> [String: String] {
        var found: [String: String] = [:]
        try cached("SELECT identity, first_seen FROM pending WHERE environment = ? AND original_transaction_id = ?")
            .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in found[s.text(0)] = s.text(1) }
        return found
    }

    /// Makes the pending items of one subscription exactly `rows`, leaving rows that are already right untouched
    /// (so a re-run of the same night rewrites nothing).
    package func replacePending(of key: SubscriptionKey, with rows: [(identity: String, row: DifferenceRow)])
        throws(ASNError)
    {
        var existing: [String: (id: Int64, row: DifferenceRow)] = [:]
        try cached(
            "SELECT id, identity, first_seen, settles_at, pending_reason, \(Self.cellColumns) FROM pending WHERE environment = ? AND original_transaction_id = ?"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 5)) else { return }
            var row = DifferenceRow(difference: d, firstSeen: s.text(2), lastSeen: "")
            row.settlesAt = s.text(3)
            row.pendingReason = s.text(4)
            existing[s.text(1)] = (s.int64(0), row)
        }
        let wanted = Dictionary(rows.map { ($0.identity, $0.row) }, uniquingKeysWith: { first, _ in first })
        for (identity, old) in existing where wanted[identity] != old.row {
            try cached("DELETE FROM pending WHERE id = ?").run([.integer(old.id)])
        }
        for (identity, row) in rows where existing[identity]?.row != row {
            try cached(
                "INSERT INTO pending (identity, settles_at, pending_reason, first_seen, \(Self.cellColumns)) VALUES (?, ?, ?, ?, \(Self.cellMarks))"
            )
            .run(
                [.text(identity), .text(row.settlesAt), .text(row.pendingReason), .text(row.firstSeen)]
                    + row.difference.cells.map { .text($0) })
        }
    }

    /// Adds pending items to a subscription that has none (a first night).
    package func insertPending(_ rows: [(identity: String, row: DifferenceRow)]) throws(ASNError) {
        for (identity, row) in rows {
            try cached(
                "INSERT INTO pending (identity, settles_at, pending_reason, first_seen, \(Self.cellColumns)) VALUES (?, ?, ?, ?, \(Self.cellMarks))"
            )
            .run(
                [.text(identity), .text(row.settlesAt), .text(row.pendingReason), .text(row.firstSeen)]
                    + row.difference.cells.map { .text($0) })
        }
    }

    /// Every pending item.
    package func pendingRows() throws(ASNError) -> [DifferenceRow] {
        var rows: [DifferenceRow] = []
        try cached("SELECT first_seen, settles_at, pending_reason, \(Self.cellColumns) FROM pending").forEach { s in
            guard let d = Discrepancy(cells: Self.cells(s, from: 3)) else { return }
            var row = DifferenceRow(difference: d, firstSeen: s.text(0), lastSeen: "")
            row.settlesAt = s.text(1)
            row.pendingReason = s.text(2)
            rows.append(row)
        }
        return rows
    }

    // MARK: - Runs and meta

    /// The latest run, if any: id, date and whether its reports were published.
    package func latestRun() throws(ASNError) -> (id: Int64, date: String, published: Bool)? {
        var found: (Int64, String, Bool)?
        try cached("SELECT id, run_date, published FROM runs ORDER BY id DESC LIMIT 1").forEach { s in
            found = (s.int64(0), s.text(1), s.int64(2) != 0)
        }
        return found
    }

    /// The runs that committed their night but were stopped before they recorded how they ended (`exit_status` NULL),
    /// oldest first: id and date.
    package func unfinishedRuns() throws(ASNError) -> [(id: Int64, date: String)] {
        var found: [(id: Int64, date: String)] = []
        try cached("SELECT id, run_date FROM runs WHERE exit_status IS NULL ORDER BY id").forEach { s in
            found.append((s.int64(0), s.text(1)))
        }
        return found
    }

    /// Records how a run stopped after its commit ended: `status`, the one its date's reports call for, and the time
    /// that was found (`finished`); whether its reports are published is left as it is.
    package func recordStoppedRun(id: Int64, finished: String, status: Int32) throws(ASNError) {
        try cached("UPDATE runs SET finished = ?, exit_status = ? WHERE id = ? AND exit_status IS NULL").run([
            .text(finished), .integer(Int64(status)), .integer(id)
        ])
    }

    /// Adds a run row; returns its id.
    package func insertRun(date: String, started: String) throws(ASNError) -> Int64 {
        try cached("INSERT INTO runs (run_date, started) VALUES (?, ?)").run([.text(date), .text(started)])
        return try lastInsertId()
    }

    /// Sets integer columns of a run row.
    package func updateRun(id: Int64, _ values: [(String, Int)]) throws(ASNError) {
        guard !values.isEmpty else { return }
        let assignments = values.map { "\($0.0) = ?" }.joined(separator: ", ")
        try database.prepare("UPDATE runs SET \(assignments) WHERE id = ?").run(
            values.map { .integer(Int64($0.1)) } + [.integer(id)])
    }

    /// Marks every run of `date` as published, and this one finished with `status`.
    package func finishRun(id: Int64, date: String, finished: String, status: Int32) throws(ASNError) {
        try cached("UPDATE runs SET finished = ?, exit_status = ? WHERE id = ?").run([
            .text(finished), .integer(Int64(status)), .integer(id)
        ])
        try cached("UPDATE runs SET published = 1 WHERE run_date = ?").run([.text(date)])
    }

    /// Sums of the run-log counters over every run of `date`, but for `latestRunColumns`, its last run's.
    package func runTotals(date: String) throws(ASNError) -> [String: Int] {
        var totals: [String: Int] = [:]
        let columns = Self.summedRunColumns
        try cached(
            "SELECT \(columns.map { "COALESCE(SUM(\($0)), 0)" }.joined(separator: ", ")) FROM runs WHERE run_date = ?"
        ).forEach([.text(date)]) { s in
            for (index, column) in columns.enumerated() { totals[column] = Int(s.int64(Int32(index))) }
        }
        // What waits is the date's last run's: a re-run that read the files an earlier run left no longer has them.
        let waiting = Self.latestRunColumns
        try cached(
            "SELECT \(waiting.joined(separator: ", ")) FROM runs WHERE run_date = ? ORDER BY id DESC LIMIT 1"
        ).forEach([.text(date)]) { s in
            for (index, column) in waiting.enumerated() { totals[column] = Int(s.int64(Int32(index))) }
        }
        return totals
    }

    /// The run counters of what still waits for a later night, which a date's report takes from its last run, not
    /// summed over its runs.
    package static let latestRunColumns = ["files_deferred", "lines_deferred"]

    /// When the latest run of `date` started (UTC ISO 8601), if there is one.
    package func latestStart(date: String) throws(ASNError) -> String? {
        var found: String?
        try cached("SELECT started FROM runs WHERE run_date = ? ORDER BY id DESC LIMIT 1").forEach([.text(date)]) { s in
            found = s.text(0)
        }
        return found
    }

    /// Run dates the tool has run for.
    package func runDates() throws(ASNError) -> Set<String> {
        var dates: Set<String> = []
        try cached("SELECT DISTINCT run_date FROM runs").forEach { s in dates.insert(s.text(0)) }
        return dates
    }

    /// The finish time (UTC ISO 8601) of the last run that exited 0 or 1.
    package func lastSuccess() throws(ASNError) -> String? {
        var found: String?
        try cached(
            "SELECT finished FROM runs WHERE exit_status IN (0, 1) AND finished IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).forEach { s in found = s.text(0) }
        return found
    }

    /// A `meta` value.
    package func meta(_ key: String) throws(ASNError) -> Int64? {
        var value: Int64?
        try cached("SELECT value FROM meta WHERE key = ?").forEach([.text(key)]) { s in value = s.int64(0) }
        return value
    }

    /// Sets (or, with nil, removes) a `meta` value.
    package func setMeta(_ key: String, _ value: Int64?) throws(ASNError) {
        if let value {
            try cached(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            ).run([.text(key), .integer(value)])
        } else {
            try cached("DELETE FROM meta WHERE key = ?").run([.text(key)])
        }
    }

    /// A single integer from a query.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(ASNError) -> Int {
        var value = 0
        try cached(sql).forEach(values) { s in value = Int(s.int64(0)) }
        return value
    }

    /// The run-log columns summed per run date for `summary.csv`.
    package static let summedRunColumns = [
        "files_ingested", "files_vanished", "v1_records_read", "v1_records_stored", "v1_duplicates",
        "v1_other_environment",
        "v1_rejected", "v2_records_read", "v2_records_stored", "v2_duplicates", "v2_other_environment", "v2_rejected",
        "records_replaced", "records_pruned",
        "files_deferred", "lines_deferred", "files_appended", "files_changed", "files_renamed", "files_same_content",
        "unverified_frames"
    ]

    // MARK: - Private

    private static let cellColumns = Discrepancy.columns.joined(separator: ", ")
    private static let cellMarks = Array(repeating: "?", count: Discrepancy.columns.count).joined(separator: ", ")

    func cached(_ sql: String) throws(ASNError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    private func lastInsertId() throws(ASNError) -> Int64 {
        Int64(try scalar("SELECT last_insert_rowid()"))
    }

    /// Each side's first and last (not inferred) event time among one subscription's records; the subscription index is
    /// forced, since the (side, time) index would scan a whole side per subscription.
    private func storedBounds(_ subscription: Int64) throws(ASNError) -> [String: (min: Int64, max: Int64)] {
        var found: [String: (min: Int64, max: Int64)] = [:]
        try cached(
            "SELECT side, MIN(event_ms), MAX(event_ms) FROM facts INDEXED BY facts_subscription WHERE subscription_id = ? AND inferred = 0 AND event_ms IS NOT NULL GROUP BY side"
        )
        .forEach([.integer(subscription)]) { s in
            if let low = s.optionalInt64(1), let high = s.optionalInt64(2) {
                found[s.int64(0) == 1 ? "v1" : "v2"] = (low, high)
            }
        }
        return found
    }

    /// The id of a subscription in `subscriptions` (added when new, unless `create` is false).
    func subscriptionId(_ key: SubscriptionKey, create: Bool = true) throws(ASNError) -> Int64? {
        if let id = subscriptionIds[key] { return id }
        try loadTexts()
        guard let environment = create ? try textId(key.environment) : textIds[key.environment] else { return nil }
        var found: Int64?
        try cached("SELECT id FROM subscriptions WHERE environment_id = ? AND original_transaction_id = ?")
            .forEach([.integer(environment), .text(key.originalTransactionId)]) { s in found = s.int64(0) }
        if found == nil, create {
            try cached("INSERT INTO subscriptions (environment_id, original_transaction_id) VALUES (?, ?)").run([
                .integer(environment), .text(key.originalTransactionId)
            ])
            found = try lastInsertId()
        }
        if let found, subscriptionIds.count < Self.subscriptionCacheLimit { subscriptionIds[key] = found }
        return found
    }

    /// The id of a subscription that `insert` adds when new.
    private func subscriptionId(_ key: SubscriptionKey) throws(ASNError) -> Int64 {
        guard let id = try subscriptionId(key, create: true) else {
            throw ASNError(
                .stateDatabase, "cannot add subscription \(key.environment) \(key.originalTransactionId) to the state",
                at: SourceLocation(path: database.path))
        }
        return id
    }

    /// The keys of subscription ids.
    func keys(of ids: Set<Int64>) throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        for id in ids {
            try cached("SELECT environment_id, original_transaction_id FROM subscriptions WHERE id = ?").forEach([
                .integer(id)
            ]) { s in
                keys.insert(SubscriptionKey(environment: text(id: s.int64(0)) ?? "", originalTransactionId: s.text(1)))
            }
        }
        return keys
    }

    /// The id of a text in `texts` (added when new).
    func textId(_ text: String) throws(ASNError) -> Int64 {
        try loadTexts()
        if let id = textIds[text] { return id }
        try cached("INSERT INTO texts (text) VALUES (?)").run([.blob(Array(text.utf8))])
        let id = try lastInsertId()
        textIds[text] = id
        textsById[id] = text
        return id
    }

    /// The text of an id in `texts` (nil when unknown: the record is damaged).
    func text(id: Int64) -> String? {
        if let text = textsById[id] { return text }
        try? loadTexts()
        return textsById[id]
    }

    private func loadTexts() throws(ASNError) {
        guard !textsLoaded else { return }
        try cached("SELECT id, text FROM texts").forEach { s in
            let id = s.int64(0)
            let text = String(decoding: s.blob(1), as: UTF8.self)
            textIds[text] = id
            textsById[id] = text
        }
        textsLoaded = true
    }

    /// The side column's code: 1 for V1, 2 for V2.
    static func sideCode(_ side: String) -> Int64 { side == "v1" ? 1 : 2 }

    /// A notificationUUID as stored: 16 bytes when standard lowercase, else its text; NULL when absent or empty.
    static func uuidValue(_ uuid: String?) -> SQLiteValue {
        guard let uuid, !uuid.isEmpty else { return .null }
        if let bytes = PackedUUID.bytes(uuid) { return .blob(bytes) }
        return .text(uuid)
    }

    /// A stored notificationUUID back to text.
    static func uuidText(_ s: SQLiteStatement, _ index: Int32) -> String? {
        if s.isNull(index) { return nil }
        if s.isBlob(index) { return PackedUUID.text(bytes: s.blob(index)) }
        return s.text(index)
    }

    private static func entry(_ s: SQLiteStatement) -> LedgerEntry {
        LedgerEntry(
            id: s.int64(0), path: s.text(1), side: s.text(2), size: s.int64(3), mtimeMs: s.int64(4), sha1: s.text(5),
            vanished: s.optionalText(6), shape: s.optionalText(7), readerVersion: s.int64(8), rejects: s.int64(9))
    }

    private static func cells(_ s: SQLiteStatement, from first: Int32) -> [String] {
        (0..<Int32(Discrepancy.columns.count)).map { s.text(first + $0) }
    }

    /// `path:line`, `path[index]` or `path` back to a location.
    static func location(_ source: String) -> SourceLocation {
        if source.hasSuffix("]"), let open = source.lastIndex(of: "["),
            let index = Int(source[source.index(after: open)..<source.index(before: source.endIndex)])
        {
            return SourceLocation(path: String(source[..<open]), index: index)
        }
        if let colon = source.lastIndex(of: ":"), let line = Int(source[source.index(after: colon)...]) {
            return SourceLocation(path: String(source[..<colon]), line: line)
        }
        return SourceLocation(path: source)
    }
}

extension RecordFacts {
    /// The record's facts for the state rules, as notification pairing reads them (`ReconRecord.stateFact`): its one
    /// transaction and its renewal facts; nil without an event time.
    var stateFact: StateFact? {
        var transaction: StateFact.Transaction?
        if self[date: .purchaseDate] != nil || self[date: .expiresDate] != nil || self[text: .transactionId] != nil {
            transaction = StateFact.Transaction(
                transactionId: self[text: .transactionId], purchaseDate: self[date: .purchaseDate] ?? Int64.min,
                expiresDate: self[date: .expiresDate], revocationDate: self[date: .revocationDate],
                productId: self[text: .productId])
        }
        return StateFact.record(
            time: time, transaction: transaction,
            renewal: StateFact.Renewal(
                autoRenewStatus: self[number: .autoRenewStatus], autoRenewProductId: self[text: .autoRenewProductId],
                gracePeriodExpiresDate: self[date: .gracePeriodExpiresDate],
                isInBillingRetryPeriod: self[flag: .isInBillingRetryPeriod]))
    }
}
