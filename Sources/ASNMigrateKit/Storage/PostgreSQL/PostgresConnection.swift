import CPostgres
import Foundation

/// One libpq connection to a PostgreSQL server, used by one thread, that streams a query's rows through a
/// server-side cursor (`FETCH N`), so memory holds one fetch of rows however large the table.
///
/// The connection string is a `postgres://` / `postgresql://` URI or `key=value` pairs, completed by libpq from the
/// `PG*` environment variables and `~/.pgpass` as `psql` completes it. Every failure is an `ASNError` that names the
/// host, port, database and user, never the password: `.databaseUnavailable` (exit 75) when the server cannot be
/// reached now or the connection drops, `.databaseConfiguration` (exit 78) when a setting is wrong.
final class PostgresConnection {
    /// How many rows one `FETCH` brings.
    static let defaultFetchSize = 2_000

    /// What the messages call this server: `database 'app' on host '/tmp' port 5432 as user 'asn'`.
    let target: String
    /// The libpq connection.
    private let connection: OpaquePointer
    /// Text to remove from every message libpq gives (the password, when one was given).
    private let secrets: [String]

    // MARK: - Connecting

    /// Connects to `uri`; throws `.databaseConfiguration` for a URI libpq cannot parse or a login the server refuses,
    /// `.databaseUnavailable` when the server cannot be reached. The session runs in UTC with ISO dates.
    init(uri: String) throws(ASNError) {
        secrets = PostgresFailure.secrets(in: uri)
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &parseError) else {
            let detail = parseError.map { String(cString: $0) } ?? "out of memory"
            if let parseError { PQfreemem(parseError) }
            throw ASNError(
                .databaseConfiguration,
                "'\(PostgresSource.redacted(uri))' is not a PostgreSQL connection URI: \(PostgresFailure.scrub(detail, secrets: PostgresFailure.secrets(in: uri)).trimmingCharacters(in: .whitespacesAndNewlines)); "
                    + "write it as postgres://USER@HOST:PORT/DATABASE (the password in ~/.pgpass or PGPASSWORD, never on the command line)"
            )
        }
        PQconninfoFree(options)
        guard let connection = PQconnectdb(uri) else {
            throw ASNError(
                .databaseUnavailable,
                "could not start a PostgreSQL connection to '\(PostgresSource.redacted(uri))': out of memory; run again later"
            )
        }
        self.connection = connection
        target = Self.describe(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PostgresFailure.scrub(String(cString: PQerrorMessage(connection)), secrets: secrets)
            // deinit closes the connection (every stored property is set, so Swift runs it when init throws).
            throw PostgresFailure.connectionError(
                message, target: target, needsPassword: PQconnectionNeedsPassword(connection) != 0)
        }
        try execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'")
    }

    deinit {
        PQfinish(connection)
    }

    // MARK: - Running

    /// Runs `sql` (no rows expected); throws a classified error when it fails.
    func execute(_ sql: String) throws(ASNError) {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw failure(result, doing: "running '\(Self.shortened(sql))'")
        }
    }

    /// Streams the rows of `query` (a SELECT) in order through a cursor inside a read-only, repeatable-read
    /// transaction (one snapshot for the whole read), `fetchSize` rows at a time, calling `body` with each. What
    /// `body` throws ends the read (the transaction ends with the connection).
    func forEachRow(_ query: String, fetchSize: Int = defaultFetchSize, _ body: (PostgresRow) throws -> Void) throws {
        try execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try execute("DECLARE asn_migrate_rows NO SCROLL CURSOR FOR " + query)
        var columns: [String]?
        let fetch = "FETCH \(max(1, fetchSize)) FROM asn_migrate_rows"
        while true {
            guard let result = PQexec(connection, fetch) else { throw failure(nil, doing: "fetching rows") }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw failure(result, doing: "fetching rows") }
            let count = Int(PQntuples(result))
            if count == 0 { break }
            if columns == nil {
                columns = (0..<PQnfields(result)).map { String(cString: PQfname(result, $0)) }
            }
            for index in 0..<count {
                try body(PostgresRow(result: result, row: Int32(index), columns: columns ?? []))
            }
        }
        try execute("COMMIT")
    }

    /// The type OIDs of the columns `query` returns, without fetching a row.
    func columnTypes(_ query: String) throws(ASNError) -> [UInt32] {
        let result = PQexec(connection, "SELECT * FROM (" + query + ") AS asn_migrate_probe LIMIT 0")
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw failure(result, doing: "reading the columns of '\(Self.shortened(query))'")
        }
        return (0..<PQnfields(result)).map { UInt32(PQftype(result, $0)) }
    }

    /// `name` as a quoted SQL identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - Private

    /// The error for a failed command: unavailable when the connection is gone or the server says so, else configuration.
    private func failure(_ result: OpaquePointer?, doing what: String) -> ASNError {
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        var text = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
        if text.isEmpty { text = String(cString: PQerrorMessage(connection)) }
        let message = PostgresFailure.scrub(text, secrets: secrets)
        return PostgresFailure.queryError(
            message, sqlState: state, connectionLost: PQstatus(connection) != CONNECTION_OK,
            target: target, doing: what)
    }

    /// `database 'D' on host 'H' port P as user 'U'`, from what libpq settled on (URI, environment, defaults).
    private static func describe(_ connection: OpaquePointer) -> String {
        let text = { (value: UnsafeMutablePointer<CChar>?) in value.map { String(cString: $0) } ?? "" }
        return
            "database '\(text(PQdb(connection)))' on host '\(text(PQhost(connection)))' port \(text(PQport(connection))) as user '\(text(PQuser(connection)))'"
    }

    /// The first 120 characters of a statement, on one line.
    private static func shortened(_ sql: String) -> String {
        let line = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }
}
