import Foundation

/// The state database's schema: versioned with `PRAGMA user_version`, upgraded by ordered migrations.
///
/// Version N is reached by running `migrations[0..<N]` in order inside one transaction. A database whose
/// `user_version` is above `currentVersion` was written by a newer asn-migrate and is refused, never touched.
package enum StateSchema {
    /// The schema version this binary writes and reads.
    package static var currentVersion: Int { migrations.count }

    /// The migrations; element `i` takes the schema from version `i` to `i + 1`. Never edit one that has shipped: append.
    package static let migrations: [String] = [
        """
        CREATE TABLE files (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            side TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ms INTEGER NOT NULL,
            sha1 TEXT NOT NULL,
            records_read INTEGER NOT NULL,
            records_stored INTEGER NOT NULL,
            duplicates INTEGER NOT NULL,
            other_environment INTEGER NOT NULL,
            rejects INTEGER NOT NULL,
            first_ingested TEXT NOT NULL,
            ingested TEXT NOT NULL,
            ingest_run INTEGER NOT NULL,
            vanished TEXT
        );
        CREATE TABLE records (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            side TEXT NOT NULL,
            form TEXT NOT NULL,
            environment TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            notification_uuid TEXT NOT NULL,
            event_ms INTEGER,
            inferred INTEGER NOT NULL,
            expires_ms INTEGER,
            source TEXT NOT NULL,
            payload TEXT NOT NULL
        );
        CREATE INDEX records_subscription ON records(environment, original_transaction_id);
        CREATE INDEX records_side_time ON records(side, inferred, event_ms);
        CREATE INDEX records_expires ON records(expires_ms);
        CREATE INDEX records_file ON records(file_id);
        CREATE TABLE seen_uuids (
            side TEXT NOT NULL,
            notification_uuid TEXT NOT NULL,
            digest TEXT NOT NULL,
            file_id INTEGER NOT NULL,
            PRIMARY KEY (side, notification_uuid)
        ) WITHOUT ROWID;
        CREATE INDEX seen_uuids_file ON seen_uuids(file_id);
        CREATE TABLE conflicts (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            kind TEXT NOT NULL, environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            web_order_line_item_id TEXT NOT NULL, event_date TEXT NOT NULL, v1_notification_type TEXT NOT NULL,
            expected_type TEXT NOT NULL, expected_subtype TEXT NOT NULL, v2_notification_type TEXT NOT NULL,
            v2_subtype TEXT NOT NULL, field TEXT NOT NULL, v1_value TEXT NOT NULL, v2_value TEXT NOT NULL,
            v1_source TEXT NOT NULL, v2_notification_uuid TEXT NOT NULL,
            product_id TEXT NOT NULL, bundle_id TEXT NOT NULL, v2_signed_date TEXT NOT NULL, v1_event_time_inferred TEXT NOT NULL
        );
        CREATE INDEX conflicts_subscription ON conflicts(environment, original_transaction_id);
        CREATE INDEX conflicts_file ON conflicts(file_id);
        CREATE TABLE differences (
            id INTEGER PRIMARY KEY,
            identity TEXT NOT NULL,
            kind TEXT NOT NULL, environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            web_order_line_item_id TEXT NOT NULL, event_date TEXT NOT NULL, v1_notification_type TEXT NOT NULL,
            expected_type TEXT NOT NULL, expected_subtype TEXT NOT NULL, v2_notification_type TEXT NOT NULL,
            v2_subtype TEXT NOT NULL, field TEXT NOT NULL, v1_value TEXT NOT NULL, v2_value TEXT NOT NULL,
            v1_source TEXT NOT NULL, v2_notification_uuid TEXT NOT NULL,
            product_id TEXT NOT NULL, bundle_id TEXT NOT NULL, v2_signed_date TEXT NOT NULL, v1_event_time_inferred TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            resolved TEXT,
            resolved_by TEXT
        );
        CREATE UNIQUE INDEX differences_open_identity ON differences(identity) WHERE resolved IS NULL;
        CREATE INDEX differences_subscription ON differences(environment, original_transaction_id);
        CREATE INDEX differences_first_seen ON differences(first_seen);
        CREATE INDEX differences_resolved ON differences(resolved);
        CREATE TABLE pending (
            id INTEGER PRIMARY KEY,
            identity TEXT NOT NULL,
            kind TEXT NOT NULL, environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            web_order_line_item_id TEXT NOT NULL, event_date TEXT NOT NULL, v1_notification_type TEXT NOT NULL,
            expected_type TEXT NOT NULL, expected_subtype TEXT NOT NULL, v2_notification_type TEXT NOT NULL,
            v2_subtype TEXT NOT NULL, field TEXT NOT NULL, v1_value TEXT NOT NULL, v2_value TEXT NOT NULL,
            v1_source TEXT NOT NULL, v2_notification_uuid TEXT NOT NULL,
            product_id TEXT NOT NULL, bundle_id TEXT NOT NULL, v2_signed_date TEXT NOT NULL, v1_event_time_inferred TEXT NOT NULL,
            settles_at TEXT NOT NULL,
            pending_reason TEXT NOT NULL,
            first_seen TEXT NOT NULL
        );
        CREATE INDEX pending_subscription ON pending(environment, original_transaction_id);
        CREATE TABLE rejects (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            side TEXT NOT NULL,
            source TEXT NOT NULL,
            line INTEGER,
            reason TEXT NOT NULL,
            cause TEXT NOT NULL
        );
        CREATE INDEX rejects_file ON rejects(file_id);
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            run_date TEXT NOT NULL,
            started TEXT NOT NULL,
            finished TEXT,
            exit_status INTEGER,
            files_ingested INTEGER NOT NULL DEFAULT 0,
            files_vanished INTEGER NOT NULL DEFAULT 0,
            v1_records_read INTEGER NOT NULL DEFAULT 0,
            v1_records_stored INTEGER NOT NULL DEFAULT 0,
            v1_duplicates INTEGER NOT NULL DEFAULT 0,
            v1_other_environment INTEGER NOT NULL DEFAULT 0,
            v1_rejected INTEGER NOT NULL DEFAULT 0,
            v2_records_read INTEGER NOT NULL DEFAULT 0,
            v2_records_stored INTEGER NOT NULL DEFAULT 0,
            v2_duplicates INTEGER NOT NULL DEFAULT 0,
            v2_other_environment INTEGER NOT NULL DEFAULT 0,
            v2_rejected INTEGER NOT NULL DEFAULT 0,
            records_replaced INTEGER NOT NULL DEFAULT 0,
            records_pruned INTEGER NOT NULL DEFAULT 0,
            subscriptions_repaired INTEGER NOT NULL DEFAULT 0,
            differences_new INTEGER NOT NULL DEFAULT 0,
            differences_resolved INTEGER NOT NULL DEFAULT 0,
            differences_open INTEGER NOT NULL DEFAULT 0,
            pending INTEGER NOT NULL DEFAULT 0,
            published INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX runs_date ON runs(run_date);
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // 2: file identity by real path and content (renamed, appended, changed, deferred files counted per run);
        // a reject remembers the night it was read, since an appended file keeps its older rejects.
        """
        ALTER TABLE runs ADD COLUMN files_deferred INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE runs ADD COLUMN lines_deferred INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE runs ADD COLUMN files_appended INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE runs ADD COLUMN files_changed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE runs ADD COLUMN files_renamed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE runs ADD COLUMN files_same_content INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE rejects ADD COLUMN ingested TEXT;
        CREATE INDEX files_content ON files(size, sha1);
        """,
        // 3: records as compact facts (`RecordFactsCodec`) instead of their JSON payload: texts and subscriptions are
        // stored once (an environment as a text id), a V2 content digest as 8 bytes, a UUID as 16; no index by file
        // (only a changed file, which is rare, looks its records up by file). `NightlyStore` moves format-2 records
        // over and leaves a `records` view for queries.
        """
        CREATE TABLE texts (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL UNIQUE
        );
        CREATE TABLE subscriptions (
            id INTEGER PRIMARY KEY,
            environment_id INTEGER NOT NULL,
            original_transaction_id TEXT NOT NULL,
            UNIQUE (environment_id, original_transaction_id)
        );
        CREATE TABLE facts (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            subscription_id INTEGER NOT NULL,
            side INTEGER NOT NULL,
            inferred INTEGER NOT NULL,
            event_ms INTEGER,
            expires_ms INTEGER,
            retry_ends_ms INTEGER,
            uuid BLOB,
            digest INTEGER,
            facts BLOB NOT NULL
        );
        CREATE INDEX facts_subscription ON facts(subscription_id);
        CREATE INDEX facts_side_time ON facts(side, inferred, event_ms);
        CREATE INDEX facts_expires ON facts(expires_ms) WHERE expires_ms IS NOT NULL;
        CREATE INDEX facts_retry_ends ON facts(retry_ends_ms) WHERE retry_ends_ms IS NOT NULL;
        CREATE UNIQUE INDEX facts_uuid ON facts(side, uuid) WHERE uuid IS NOT NULL;
        CREATE TABLE pruned_uuids (
            side INTEGER NOT NULL,
            uuid BLOB NOT NULL,
            digest INTEGER,
            file_id INTEGER NOT NULL,
            PRIMARY KEY (side, uuid)
        ) WITHOUT ROWID;
        """,
        // 4: rows already read from a database source (`--v1 postgres://…`), by the source's ledger entry and the
        // row's id, with the row's since-column value: a row read again inside the overlap window is skipped.
        """
        CREATE TABLE source_rows (
            file_id INTEGER NOT NULL,
            row_key TEXT NOT NULL,
            mark INTEGER,
            PRIMARY KEY (file_id, row_key)
        ) WITHOUT ROWID;
        """,
        // 5: a shard's state (`nightly --shard K/N`) keeps only its own subscriptions' records, but the period is the
        // whole run's: the first and last event time of the other shards' records, per file and side, so a changed
        // file's are replaced with its records.
        """
        CREATE TABLE other_shard_bounds (
            file_id INTEGER NOT NULL,
            side INTEGER NOT NULL,
            min_ms INTEGER NOT NULL,
            max_ms INTEGER NOT NULL,
            PRIMARY KEY (file_id, side)
        ) WITHOUT ROWID;
        """,
        // 6: texts as bytes (BLOB), so two texts that differ only after a NUL are two texts, and every text reads back
        // byte for byte. The `records` view naming `texts` is dropped first (`migrate`) and made again after.
        """
        CREATE TABLE texts_bytes (
            id INTEGER PRIMARY KEY,
            text BLOB NOT NULL UNIQUE
        );
        INSERT INTO texts_bytes (id, text) SELECT id, CAST(text AS BLOB) FROM texts;
        DROP TABLE texts;
        ALTER TABLE texts_bytes RENAME TO texts;
        """,
        // 7: zstd frames read without a content checksum, per run (`unverified_frames` in `summary.csv`).
        """
        ALTER TABLE runs ADD COLUMN unverified_frames INTEGER NOT NULL DEFAULT 0;
        """,
        // 8: Apple's App Store Server API view as the V2 side (`APIViewStore`): each V1 record's transaction
        // facts once per subscription they show (`v1_transactions`, its receipt entries as references to
        // `v1_entries`, where each distinct entry of a subscription is kept once), Apple's transactions and statuses as read, each
        // copy with its file (`api_records`), and every date of a subscription that the whole state's moving spans can
        // reach (`api_dates`), so a night re-pairs only the subscriptions whose answer can change. A state that already
        // holds V1 records is marked so that its next night reads the V1 files again for their transaction facts.
        """
        CREATE TABLE v1_transactions (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            subscription_id INTEGER NOT NULL,
            inferred INTEGER NOT NULL,
            event_ms INTEGER,
            facts BLOB NOT NULL,
            entries BLOB NOT NULL
        );
        CREATE TABLE v1_entries (
            id INTEGER PRIMARY KEY,
            subscription_id INTEGER NOT NULL,
            digest INTEGER NOT NULL,
            entry BLOB NOT NULL,
            UNIQUE (subscription_id, digest)
        );
        CREATE INDEX v1_transactions_subscription ON v1_transactions(subscription_id);
        CREATE INDEX v1_transactions_file ON v1_transactions(file_id);
        CREATE INDEX v1_transactions_time ON v1_transactions(inferred, event_ms);
        CREATE TABLE api_records (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            subscription_id INTEGER NOT NULL,
            kind INTEGER NOT NULL,
            purchase_ms INTEGER,
            record BLOB NOT NULL
        );
        CREATE INDEX api_records_subscription ON api_records(subscription_id);
        CREATE INDEX api_records_file ON api_records(file_id);
        CREATE INDEX api_records_purchase ON api_records(purchase_ms) WHERE purchase_ms IS NOT NULL;
        CREATE TABLE api_dates (
            at_ms INTEGER NOT NULL,
            subscription_id INTEGER NOT NULL,
            PRIMARY KEY (at_ms, subscription_id)
        ) WITHOUT ROWID;
        INSERT INTO meta (key, value) SELECT 'v1_transactions_missing', 1 WHERE EXISTS (SELECT 1 FROM facts WHERE side = 1);
        """,
        // 9: how each file was read: the shape its first read split it in (`shape`, so a grown file's new part is
        // split the same way), and the version of the reader that judged it (`reader_version`, 0 for a file read
        // before versions were kept), so a file an older reader rejected lines of is read again by a newer one.
        """
        ALTER TABLE files ADD COLUMN shape TEXT;
        ALTER TABLE files ADD COLUMN reader_version INTEGER NOT NULL DEFAULT 0;
        """,
        // 10: with `--switch`, each subscription's part of the seam's counts as its last re-pairing found it, summed
        // into `summary.csv`'s switch figures (`SwitchStore`).
        """
        CREATE TABLE IF NOT EXISTS switch_shares (
            subscription_id INTEGER PRIMARY KEY,
            live INTEGER NOT NULL,
            continued INTEGER NOT NULL,
            delivered_in_both INTEGER NOT NULL,
            v1_after_switch INTEGER NOT NULL,
            v2_before_switch INTEGER NOT NULL
        );
        """,
        // 11: one index of the instants a subscription's judged state can change (`change_points`, each point of
        // `SubscriptionStateRules.changePoints` over each record's facts: expiries, grace ends, retry ends,
        // revocations, and the API view's dates), in place of `facts_expires`, `facts_retry_ends` and `api_dates`,
        // which held no grace end but inside an expiry. `retry_ends_ms` is no longer written. The points of the records
        // already stored are added by `NightlyStore` in the same transaction (they are read from each record's facts).
        """
        CREATE TABLE change_points (
            at_ms INTEGER NOT NULL,
            subscription_id INTEGER NOT NULL,
            PRIMARY KEY (at_ms, subscription_id)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO change_points (at_ms, subscription_id) SELECT at_ms, subscription_id FROM api_dates;
        DROP TABLE api_dates;
        DROP INDEX IF EXISTS facts_expires;
        DROP INDEX IF EXISTS facts_retry_ends;
        """,
        // 12: one binary form (`StateCodec`, version 1) for `v1_transactions.facts`, `v1_entries.entry` and
        // `api_records.record`, which held JSON (Foundation's encoding of Swift properties, the project's own for API
        // answers): no Swift property name in a stored byte, API answers as facts. The blobs already stored are
        // rewritten by `NightlyStore` in the same transaction (their digests computed again); `meta.state_codec`
        // names the form's version.
        """
        INSERT OR REPLACE INTO meta (key, value) VALUES ('state_codec', 1);
        """
    ]

    /// The version whose migration made `change_points`: a state converted from below it has its stored records'
    /// points added in the conversion's transaction.
    package static let changePointsVersion = 11

    /// The first version whose API-view blobs are `StateCodec`'s: a state converted from below it has its JSON blobs
    /// rewritten in the conversion's transaction.
    package static let stateCodecVersion = 12

    /// The version whose migration rebuilds `texts`, before which the `records` view over it is dropped.
    private static let textsAsBytesVersion = 5

    /// Writes the whole schema into a new, empty database, stamped with `StateFile.applicationId`, in one
    /// transaction (in SQLite's default rollback journal: the file is whole once it commits, and then renamed into place).
    package static func create(_ database: SQLiteDatabase) throws(ASNError) {
        try database.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF")
        try database.transaction { () throws(ASNError) in
            try upgrade(database, from: 0)
            try database.execute("PRAGMA application_id = \(StateFile.applicationId)")
        }
        try addCellColumns(database)
    }

    /// Brings `database` to `currentVersion`, or throws when it is newer than this binary knows; stamps a state
    /// written before states carried `StateFile.applicationId`. Only for a file `StateFile.inspect` found to be a state.
    ///
    /// An older state is converted in place inside one transaction, from a copy of the file taken first
    /// (`conversionCopy`, written beside it with `VACUUM INTO`) and removed once the conversion commits: a run stopped
    /// during the conversion (even by `SIGKILL`) leaves the old state as it was, which the next run converts again.
    /// `converted` runs inside the conversion's transaction after the migrations, with the version found (the
    /// conversions SQL alone cannot make); `converting` is called there too, last (the crash tests pause there).
    package static func migrate(
        _ database: SQLiteDatabase, converted: (Int) throws(ASNError) -> Void = { _ in },
        converting: () -> Void = {}
    ) throws(ASNError) {
        let found = try database.userVersion
        guard found <= currentVersion else {
            throw ASNError(
                .stateDatabase,
                "state database '\(database.path)' has schema version \(found), but this asn-migrate supports up to \(currentVersion); run a newer asn-migrate, or point --state at another file",
                at: SourceLocation(path: database.path))
        }
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY"
        )
        let stamped = try database.integerPragma("application_id") == Int64(StateFile.applicationId)
        let copy = conversionCopy(of: database.path)
        if found < currentVersion || !stamped {
            if found > 0, found < currentVersion {
                // A copy of the state as it stands, kept until the conversion commits.
                unlink(copy)
                try database.prepare("VACUUM INTO ?").run([.text(copy)])
                FileSystem.syncDirectory(FileSystem.parentDirectory(of: database.path))
            }
            try database.transaction { () throws(ASNError) in
                try upgrade(database, from: found)
                if !stamped { try database.execute("PRAGMA application_id = \(StateFile.applicationId)") }
                if found > 0, found < currentVersion {
                    try converted(found)
                    converting()
                }
            }
        }
        // Committed (or nothing to convert): a copy left by a conversion stopped before is not needed any more.
        unlink(copy)
        try addCellColumns(database)
    }

    /// Where the copy of a state being converted is kept until the conversion commits: a hidden sibling of the state
    /// file, `.<name>.before-conversion`.
    package static func conversionCopy(of path: String) -> String {
        let name = ".\(FileSystem.lastComponent(of: path)).before-conversion"
        let folder = FileSystem.parentDirectory(of: path)
        return folder == "." && !path.hasPrefix("./") ? name : folder + "/" + name
    }

    /// Runs the migrations from version `found` on and sets `user_version`, inside the caller's transaction.
    private static func upgrade(_ database: SQLiteDatabase, from found: Int) throws(ASNError) {
        guard found < currentVersion else { return }
        for version in found..<currentVersion {
            if version == textsAsBytesVersion {
                var isView = false
                try database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'records'").forEach {
                    _ in isView = true
                }
                if isView { try database.execute("DROP VIEW records") }
            }
            try database.execute(migrations[version])
        }
        try database.execute("PRAGMA user_version = \(currentVersion)")
    }

    /// The tables holding difference rows, whose cells follow `Discrepancy.columns`.
    package static let cellTables = ["conflicts", "differences", "pending"]

    /// Adds every `Discrepancy.columns` column a cell table lacks (as `TEXT NOT NULL DEFAULT ''`), so a column
    /// appended to `differences.csv` needs no migration; rows stored before it read back with that cell empty.
    static func addCellColumns(_ database: SQLiteDatabase) throws(ASNError) {
        var missing: [(String, String)] = []
        for table in cellTables {
            var present: Set<String> = []
            try database.prepare("PRAGMA table_info(\(table))").forEach { s in present.insert(s.text(1)) }
            for column in Discrepancy.columns where !present.contains(column) { missing.append((table, column)) }
        }
        guard !missing.isEmpty else { return }
        try database.transaction { () throws(ASNError) in
            for (table, column) in missing {
                try database.execute("ALTER TABLE \(table) ADD COLUMN \(column) TEXT NOT NULL DEFAULT ''")
            }
        }
    }
}
