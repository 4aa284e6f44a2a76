import Foundation

/// The file ledger (`files`): each input file (or database source) read, by path, size, modification time and content
/// hash, what reading it gave, and the rows already read from a database source (`source_rows`).
package final class LedgerStore: StateStore {
    /// The shared connection.
    let state: StateDatabase

    /// A store over `state`.
    init(_ state: StateDatabase) {
        self.state = state
    }

    /// One row of the file ledger.
    package struct Entry: Sendable, Equatable {
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

    /// The ledger entry for `path`, if any.
    package func ledgerEntry(path: String) throws(ASNError) -> Entry? {
        var found: Entry?
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
    package func ledgerEntry(size: Int64, sha1: String, notAt path: String) throws(ASNError) -> Entry? {
        var found: Entry?
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
    package func ledgerEntries(side: String) throws(ASNError) -> [Entry] {
        var all: [Entry] = []
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

    /// Forgets the hash of file `id`'s bytes read, so the next night reads it whole again and replaces what it
    /// stored: for a file rewritten while it was read.
    package func forgetHash(id: Int64) throws(ASNError) {
        try cached("UPDATE files SET sha1 = '' WHERE id = ?").run([.integer(id)])
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

    /// How many files the ledger holds.
    package func fileCount() throws(ASNError) -> Int {
        try scalar("SELECT COUNT(*) FROM files")
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

    /// The high-water mark of the since-column the database source `file` was read up to, if any.
    package func sourceMark(file: Int64) throws(ASNError) -> Int64? {
        try meta(Self.markKey(file))
    }

    /// Keeps (or, with nil, forgets) the high-water mark of the database source `file`.
    package func setSourceMark(file: Int64, _ mark: Int64?) throws(ASNError) {
        try setMeta(Self.markKey(file), mark)
    }

    // MARK: - Private

    /// The `meta` key holding the high-water mark of the database source with ledger id `fileId`.
    private static func markKey(_ fileId: Int64) -> String {
        "source_mark_\(fileId)"
    }

    private static func entry(_ s: SQLiteStatement) -> Entry {
        Entry(
            id: s.int64(0), path: s.text(1), side: s.text(2), size: s.int64(3), mtimeMs: s.int64(4), sha1: s.text(5),
            vanished: s.optionalText(6), shape: s.optionalText(7), readerVersion: s.int64(8), rejects: s.int64(9))
    }
}
