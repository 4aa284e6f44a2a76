import CSQLite

/// One compiled SQL statement: bind parameters (1-based), step through rows, read columns (0-based), reset to reuse.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    /// Wraps a compiled statement; `SQLiteDatabase.prepare` does this.
    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    // MARK: - Binding

    /// Binds parameters 1, 2, … in order (nil binds NULL); resets the statement first.
    @discardableResult
    package func bind(_ values: [SQLiteValue]) throws(ASNError) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .text(let text):
                // With its byte count, so a NUL inside the text is kept rather than ending it.
                var text = text
                code = text.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress, !chars.isEmpty else {
                            return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
                        }
                        return sqlite3_bind_text(statement, index, start, Int32(chars.count), transientDestructor)
                    }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), transientDestructor)
                }
            }
            guard code == SQLITE_OK else { throw database.failure("bind parameter \(index)", database.lastMessage) }
        }
        return self
    }

    // MARK: - Stepping

    /// Advances to the next row: true when there is one, false when done.
    package func step() throws(ASNError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = database.lastMessage
            sqlite3_reset(statement)
            throw database.failure("run a statement", message)
        }
    }

    /// Runs a statement that returns no rows, with `values` bound.
    package func run(_ values: [SQLiteValue] = []) throws(ASNError) {
        try bind(values)
        while try step() {}
    }

    /// Calls `body` for each row of the statement with `values` bound.
    package func forEach(_ values: [SQLiteValue] = [], _ body: (SQLiteStatement) throws(ASNError) -> Void)
        throws(ASNError)
    {
        try bind(values)
        while try step() { try body(self) }
    }

    // MARK: - Columns

    /// How many columns each row has.
    package var columnCount: Int32 {
        sqlite3_column_count(statement)
    }

    /// Whether column `index` of the current row is NULL.
    package func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    /// Whether column `index` of the current row holds bytes (a BLOB).
    package func isBlob(_ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_BLOB
    }

    /// Column `index` as an integer (0 for NULL).
    package func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// Column `index` as an optional integer.
    package func optionalInt64(_ index: Int32) -> Int64? {
        isNull(index) ? nil : int64(index)
    }

    /// Column `index` as text ("" for NULL).
    package func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` as an optional text.
    package func optionalText(_ index: Int32) -> String? {
        isNull(index) ? nil : text(index)
    }

    /// Column `index` as bytes (empty for NULL).
    package func blob(_ index: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(statement, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, index))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

// MARK: - Private constants

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
