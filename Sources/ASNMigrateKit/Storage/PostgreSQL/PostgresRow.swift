import CPostgres

/// One row of a fetched result, read in place (valid only inside the `forEachRow` call that hands it out).
struct PostgresRow {
    /// The fetched result holding the row.
    let result: OpaquePointer
    /// The row's index in the result.
    let row: Int32
    /// The result's column names, in order.
    let columns: [String]

    /// The index of the column named `name`, or nil.
    func index(of name: String) -> Int? {
        columns.firstIndex(of: name)
    }

    /// Whether the value at `column` is SQL NULL.
    func isNull(_ column: Int) -> Bool {
        PQgetisnull(result, row, Int32(column)) != 0
    }

    /// The value at `column` in PostgreSQL's text form, or nil for NULL.
    func bytes(_ column: Int) -> [UInt8]? {
        guard !isNull(column), let value = PQgetvalue(result, row, Int32(column)) else { return nil }
        let length = Int(PQgetlength(result, row, Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The value at `column` as text, or nil for NULL.
    func text(_ column: Int) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }
}
