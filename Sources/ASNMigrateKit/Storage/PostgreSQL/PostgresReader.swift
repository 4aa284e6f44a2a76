import Foundation

/// Reads a `PostgresSource`'s rows as the records the file readers produce, so a table reconciles exactly as the
/// same data exported to files would: a V1 row becomes the JSON Lines record `{"received_at":MS,"body":BODY}` (or
/// `BODY` alone without a receive time), a V2 row a `{"signedPayload":…}` record, its JSON body, or — with a column
/// map — the object a CSV export's row gives.
///
/// Columns are found by name: V1 needs `body` (`json`, `jsonb` or `text`) and may have `received_at` (`timestamptz`,
/// `timestamp` read as UTC, or epoch seconds or milliseconds); V2 needs `signed_payload` (the JWS) or `body`, or the
/// columns its map names. Each row is located `label:key`: `key` is the row's `id` column when that holds a whole
/// number, else the row's 1-based position in the result. Rows stream through a cursor, `fetchSize` at a time.
package struct PostgresReader: Sendable {
    /// The source to read.
    package var source: PostgresSource
    /// Rows per `FETCH`.
    package var fetchSize: Int
    /// For `nightly`: read only rows at or after a since-column value and skip rows already read; nil reads every row.
    package var incremental: Incremental?

    /// A reader of `source`, `fetchSize` rows per fetch.
    package init(source: PostgresSource, fetchSize: Int = 2_000, incremental: Incremental? = nil) {
        self.source = source
        self.fetchSize = max(1, fetchSize)
        self.incremental = incremental
    }

    /// What `nightly` reads of a source: rows whose `sinceColumn` is at least the high-water `mark` (less `overlap`
    /// for a time column; every row without a column or a mark yet), minus the rows whose `id` is in `known`.
    /// Each row must have an `id`.
    package struct Incremental: Sendable {
        /// The monotonic column (`timestamptz`, `timestamp`, `date` or an integer), or nil to read every row each night.
        package var sinceColumn: String?
        /// The highest since-column value read on earlier nights (epoch ms for times, the integer otherwise), or nil.
        package var mark: Int64?
        /// How far below `mark` a time column is read again (ms), for rows that arrive late.
        package var overlap: Int64
        /// The ids of rows already read that the filter can return again.
        package var known: Set<String>
        /// Where each row read is told: its id and since-column value (called on the reading thread).
        package var read: RowLog

        /// Creates the filter.
        package init(sinceColumn: String?, mark: Int64?, overlap: Int64, known: Set<String>, read: RowLog = RowLog()) {
            self.sinceColumn = sinceColumn
            self.mark = mark
            self.overlap = overlap
            self.known = known
            self.read = read
        }
    }

    /// The rows an incremental read returned: new ids with their since-column values, and the highest value seen.
    /// Filled on the reading thread and read once the read has ended.
    package final class RowLog: @unchecked Sendable {
        // @unchecked: every access goes through `lock`.
        private let lock = NSLock()
        private var rows: [(key: String, mark: Int64?)] = []
        private var highest: Int64?
        private var time = false

        /// Whether the since-column is a time, so the overlap applies (set once the read has looked at it).
        package var isTimeColumn: Bool {
            get {
                lock.lock()
                defer { lock.unlock() }
                return time
            }
            set {
                lock.lock()
                defer { lock.unlock() }
                time = newValue
            }
        }

        /// An empty log.
        package init() {}

        /// Notes a row: `isNew` when its id was not known (it is then read as a record).
        func note(key: String, mark: Int64?, isNew: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if isNew { rows.append((key, mark)) }
            if let mark { highest = Swift.max(highest ?? mark, mark) }
        }

        /// The new rows, in the order read.
        package var newRows: [(key: String, mark: Int64?)] {
            lock.lock()
            defer { lock.unlock() }
            return rows
        }

        /// The highest since-column value of every row returned, new or known.
        package var highestMark: Int64? {
            lock.lock()
            defer { lock.unlock() }
            return highest
        }
    }

    // MARK: - Reading

    /// Connects and disconnects: a bad URI, login or database fails here, before any work is done.
    package func checkConnection() throws(ASNError) {
        _ = try PostgresConnection(uri: source.uri)
    }

    /// Calls `emit` with one V1 record per row, in the query's order.
    package func v1Records(_ emit: (InputItem) throws -> Void) throws {
        let connection = try PostgresConnection(uri: source.uri)
        var columns: (body: Int, receivedAt: Int?, id: Int?)?
        var position = 0
        try connection.forEachRow(try statement(connection), fetchSize: fetchSize) { row in
            position += 1
            guard try isNew(row, connection: connection) else { return }
            if columns == nil {
                guard let body = row.index(of: "body") else {
                    throw missingColumns(row.columns, connection: connection)
                }
                columns = (body, row.index(of: "received_at"), row.index(of: "id"))
            }
            guard let columns else { return }
            let body = row.bytes(columns.body) ?? Array("null".utf8)
            var bytes = body
            if let column = columns.receivedAt, let received = row.text(column) {
                bytes =
                    Array("{\"received_at\":".utf8) + Self.receiveTime(received) + Array(",\"body\":".utf8) + body + [
                        UInt8(ascii: "}")
                    ]
            }
            try emit(
                .record(RawRecord(location: location(row, idColumn: columns.id, position: position), bytes: bytes)))
        }
    }

    /// Calls `body` with the outcome of every row, decoded by `decoder` as the file readers decode records
    /// (through `columnMap` when given, as a CSV export's rows are).
    package func v2Outcomes(decoder: V2RecordDecoder, columnMap: V2ColumnMap?, _ body: (V2ReadOutcome) throws -> Void)
        throws
    {
        let connection = try PostgresConnection(uri: source.uri)
        var binding: V2ColumnMap.Binding?
        var columns: (payload: Int, signed: Bool, id: Int?)?
        var position = 0
        try connection.forEachRow(try statement(connection), fetchSize: fetchSize) { row in
            position += 1
            guard try isNew(row, connection: connection) else { return }
            let idColumn = row.index(of: "id")
            let at = location(row, idColumn: idColumn, position: position)
            if let columnMap {
                if binding == nil {
                    do {
                        binding = try columnMap.bind(
                            header: row.columns.filter { $0 != Self.markColumn }, csvPath: source.label)
                    } catch let error as ASNError {
                        throw ASNError(
                            .databaseConfiguration,
                            "the rows of \(source.side) \(source.label) (\(connection.target)) do not fit the column map: \(error.message) (exit 78)"
                        )
                    }
                }
                guard let binding else { return }
                let cells = row.columns.indices.filter { row.columns[$0] != Self.markColumn }.map { row.text($0) ?? "" }
                do {
                    let object = try binding.object(of: CSVRecord(fields: cells, line: at.line ?? position))
                    for outcome in decoder.decode(.object(object), at: at) { try body(outcome) }
                } catch let error as ASNError where error.location?.path == source.label {
                    try body(.rejected(error))
                }
                return
            }
            if columns == nil {
                if let signed = row.index(of: "signed_payload") {
                    columns = (signed, true, idColumn)
                } else if let payload = row.index(of: "body") {
                    columns = (payload, false, idColumn)
                } else {
                    throw missingColumns(row.columns, connection: connection)
                }
            }
            guard let columns else { return }
            var bytes = row.bytes(columns.payload) ?? Array("null".utf8)
            if columns.signed, row.bytes(columns.payload) != nil {
                bytes = Array("{\"signedPayload\":".utf8) + Self.quoted(bytes) + [UInt8(ascii: "}")]
            }
            for outcome in decoder.decode(RawRecord(location: at, bytes: bytes)) { try body(outcome) }
        }
    }

    // MARK: - Private

    /// The column the incremental statement adds: the row's since-column value as a number.
    static let markColumn = "asn_migrate_mark"

    /// The statement to stream: the source's SELECT, or for an incremental read that SELECT filtered by the
    /// since-column (and its value added as `asn_migrate_mark`).
    private func statement(_ connection: PostgresConnection) throws(ASNError) -> String {
        guard let incremental, let column = incremental.sinceColumn else { return source.selectStatement }
        let inner = source.isTableName ? "SELECT * FROM \(source.query)" : source.selectStatement
        let quoted = "asn_migrate_source." + PostgresConnection.identifier(column)
        let types = try connection.columnTypes("SELECT \(quoted) FROM (\(inner)) AS asn_migrate_source")
        let mark: String
        var from = incremental.mark
        switch types.first {
        case 1184?, 1114?, 1082?: // timestamptz, timestamp (as UTC), date
            mark = "(extract(epoch FROM \(quoted)) * 1000)::bigint"
            from = from.map { $0 - incremental.overlap }
            incremental.read.isTimeColumn = true
        case 20?, 21?, 23?: mark = "\(quoted)::bigint" // bigint, smallint, integer
        default:
            throw ASNError(
                .databaseConfiguration,
                "the since-column '\(column)' of \(source.side) \(source.label) (\(connection.target)) is neither a time (timestamptz, timestamp, date) nor an integer; name a column that only grows as rows arrive (exit 78)"
            )
        }
        var sql =
            "SELECT asn_migrate_source.*, \(mark) AS \(Self.markColumn) FROM (\(inner)) AS asn_migrate_source WHERE \(quoted) IS NOT NULL"
        if let from { sql += " AND \(mark) >= \(from)" }
        return source.isTableName ? sql + " ORDER BY 1" : sql
    }

    /// For an incremental read: notes the row and says whether its id is new; every row is new otherwise.
    private func isNew(_ row: PostgresRow, connection: PostgresConnection) throws -> Bool {
        guard let incremental else { return true }
        guard let idColumn = row.index(of: "id") else {
            throw ASNError(
                .databaseConfiguration,
                "\(source.side) \(source.label) (\(connection.target)) has no 'id' column; nightly needs one to tell the rows it has read from new ones (a primary key) (exit 78)"
            )
        }
        guard let key = row.text(idColumn) else {
            throw ASNError(
                .databaseConfiguration,
                "\(source.side) \(source.label) (\(connection.target)) has a row whose 'id' is NULL; nightly needs every row to have one (exit 78)"
            )
        }
        let mark = row.index(of: Self.markColumn).flatMap { row.text($0) }.flatMap { Int64($0) }
        let new = !incremental.known.contains(key)
        incremental.read.note(key: key, mark: mark, isNew: new)
        return new
    }

    /// `label:id` for a whole-number `id`, else `label:position`.
    private func location(_ row: PostgresRow, idColumn: Int?, position: Int) -> SourceLocation {
        if let idColumn, let text = row.text(idColumn), let id = Int(text) {
            return SourceLocation(path: source.label, line: id)
        }
        return SourceLocation(path: source.label, line: position)
    }

    /// The configuration error for a result without the columns this side needs.
    private func missingColumns(_ found: [String], connection: PostgresConnection) -> ASNError {
        let needed =
            source.side == "v1"
            ? "a column named 'body' (json, jsonb or text: the V1 body), and optionally 'received_at' and 'id'"
            : "a column named 'signed_payload' (the JWS) or 'body' (json, jsonb or text: a V2 body or decoded payload), and optionally 'id'; or pass --v2-columns to read decoded columns"
        return ASNError(
            .databaseConfiguration,
            "\(source.side) \(source.label) (\(connection.target)) returns the columns \(found.map { "'\($0)'" }.joined(separator: ", ")); it needs \(needed) (exit 78)"
        )
    }

    /// A receive time as the envelope's JSON value: epoch milliseconds when it reads as a time, else the text as a
    /// JSON string (which the V1 reader then rejects, naming the key).
    static func receiveTime(_ text: String) -> [UInt8] {
        if let ms = Timestamp.parseEpoch(text) ?? Timestamp.parseDatabaseText(text) { return Array(String(ms).utf8) }
        return quoted(Array(text.utf8))
    }

    /// `bytes` as a JSON string literal.
    static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                ByteTables.appendHex(byte, to: &out)
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
