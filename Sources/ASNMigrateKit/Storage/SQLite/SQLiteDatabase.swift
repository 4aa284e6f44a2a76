import CSQLite
import Foundation

/// A small, safe handle on one SQLite database file: open, run SQL, prepare statements, transactions.
///
/// Every failure is an `ASNError(.stateDatabase, …)` naming the file and SQLite's own message. Not thread-safe: one
/// run uses one handle on one thread.
package final class SQLiteDatabase {
    /// The database file's path.
    package let path: String

    private var handle: OpaquePointer?

    /// Opens (creating when `create`) the database at `path`; waits up to `busyTimeoutMs` for another writer.
    package init(path: String, create: Bool = true, busyTimeoutMs: Int32 = 5_000) throws(ASNError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let db = try Self.openHandle(
            path, flags: flags, path: path, hint: "check the path and its folder's permissions")
        handle = db
        sqlite3_busy_timeout(db, busyTimeoutMs)
    }

    /// Opens the database at `path` read-only, to look at it without writing anything: with `immutable`, SQLite
    /// takes no lock and creates no `-wal` or `-shm` file beside it (only for a file no one else writes meanwhile).
    package init(inspecting path: String, immutable: Bool) throws(ASNError) {
        self.path = path
        var escaped: [UInt8] = []
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                escaped += Array("%\(String(byte, radix: 16))".utf8)
            } else {
                escaped.append(byte)
            }
        }
        let uri = "file:" + String(decoding: escaped, as: UTF8.self) + (immutable ? "?immutable=1" : "")
        handle = try Self.openHandle(
            uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, path: path,
            hint: "check the path and its permissions")
    }

    /// `sqlite3_open_v2` of `filename` (a path or a `file:` URI) with `flags`, or the error naming `path`.
    private static func openHandle(_ filename: String, flags: Int32, path: String, hint: String) throws(ASNError)
        -> OpaquePointer
    {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(filename, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(db)
            throw ASNError(.stateDatabase, "cannot open the state database '\(path)': \(message); \(hint)")
        }
        return db
    }

    deinit {
        close()
    }

    /// Closes the handle; safe to call more than once.
    package func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    // MARK: - Running SQL

    /// Runs one or more SQL statements that return no rows.
    package func execute(_ sql: String) throws(ASNError) {
        let db = try open()
        var errorText: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &errorText)
        guard code == SQLITE_OK else {
            let message = errorText.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorText)
            throw failure("run '\(Self.abbreviated(sql))'", message)
        }
    }

    /// Compiles one statement.
    package func prepare(_ sql: String) throws(ASNError) -> SQLiteStatement {
        let db = try open()
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("prepare '\(Self.abbreviated(sql))'", lastMessage)
        }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back and rethrows when `body` throws.
    package func transaction<T>(_ body: () throws(ASNError) -> T) throws(ASNError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA user_version`: the schema version the database says it has.
    package var userVersion: Int {
        get throws(ASNError) { Int(try integerPragma("user_version")) }
    }

    /// The value of an integer pragma such as `user_version` or `application_id` (0 when it gives no row).
    package func integerPragma(_ name: String) throws(ASNError) -> Int64 {
        let statement = try prepare("PRAGMA \(name)")
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// What `PRAGMA quick_check` finds wrong with the database's pages (each table's and index's b-tree, the free
    /// list, records that do not fit their page), up to `limit` lines; empty when it answers `ok`. A database so
    /// damaged that the check itself fails is one line, SQLite's message.
    package func quickCheck(limit: Int = 10) -> [String] {
        var problems: [String] = []
        do {
            try prepare("PRAGMA quick_check(\(max(1, limit)))").forEach { s in
                let line = s.text(0)
                if line != "ok" { problems.append(line) }
            }
        } catch {
            problems.append(error.message)
        }
        return problems
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    // MARK: - Errors

    /// SQLite's message for the last failure on this handle.
    var lastMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
    }

    /// The error for a failed `action`, naming the file and SQLite's message.
    func failure(_ action: String, _ message: String) -> ASNError {
        ASNError(
            .stateDatabase, "state database '\(path)': cannot \(action): \(message)",
            at: SourceLocation(path: path))
    }

    // MARK: - Private

    private func open() throws(ASNError) -> OpaquePointer {
        guard let handle else { throw failure("use it", "the database is closed") }
        return handle
    }

    private static func abbreviated(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    }
}
