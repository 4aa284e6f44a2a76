import Foundation

/// The state database of `nightly`: opens it (creating, checking and converting it), owns its transaction and
/// its backups, and holds its stores, one concern each, over one shared connection (`StateDatabase`). All SQL lives
/// in the stores; `NightlyPass` decides, the stores store.
package final class NightlyStore {
    /// The connection the stores share.
    package let state: StateDatabase
    /// The file ledger and the rows read from database sources.
    package let ledger: LedgerStore
    /// The records' facts, the UUIDs seen, the change points, conflicts and rejects.
    package let facts: FactsStore
    /// The differences and the pending items.
    package let differences: DifferenceStore
    /// Apple's API view and the V1 transaction facts it is compared with.
    package let apiView: APIViewStore
    /// The switch's shares and reach (`nightly --switch`).
    package let switches: SwitchStore
    /// The run log and the `meta` values.
    package let runs: RunStore

    /// The SQLite database.
    package var database: SQLiteDatabase { state.database }

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
        let database = try SQLiteDatabase(path: path, create: false)
        let problems = database.quickCheck()
        if !problems.isEmpty {
            database.close()
            throw Self.damaged(path, problems: problems, backups: backups)
        }
        let state = StateDatabase(database)
        let facts = FactsStore(state)
        self.state = state
        self.facts = facts
        ledger = LedgerStore(state)
        differences = DifferenceStore(state)
        apiView = APIViewStore(state, facts: facts)
        switches = SwitchStore(state)
        runs = RunStore(state)
        let apiView = self.apiView
        try StateSchema.migrate(
            database,
            converted: { (found: Int) throws(ASNError) in
                if found < StateSchema.changePointsVersion { try facts.addChangePointsOfStoredRecords() }
                if found < StateSchema.stateCodecVersion { try apiView.convertJSONBlobs() }
                // What an earlier release judged may read otherwise now (a row's event date, say): the next night
                // judges every subscription again, as a fresh state's night would.
                try state.setMeta(Self.judgeAllKey, 1)
            }, converting: converting)
        try facts.moveFormatTwoRecords()
        try database.execute(FactsStore.recordsView)
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
        state.close()
    }

    /// Runs `body` in one transaction.
    package func transaction<T>(_ body: () throws(ASNError) -> T) throws(ASNError) -> T {
        try state.transaction(body)
    }

    /// Whether the state holds no records, conflicts, differences or pending items (a first night, as far as pairing goes).
    package func isEmpty() throws(ASNError) -> Bool {
        try state.scalar(
            "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM facts LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM conflicts LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM differences LIMIT 1)) + (SELECT COUNT(*) FROM (SELECT 1 FROM pending LIMIT 1))"
        ) == 0
    }

    /// The `meta` key set by a conversion from an earlier schema: the next night judges every subscription again.
    package static let judgeAllKey = "judge_all_after_conversion"
}
