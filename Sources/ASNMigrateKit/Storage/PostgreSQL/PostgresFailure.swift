import CPostgres
import Foundation

/// Sorts libpq's failures into temporary ones (exit 75: run again later) and configuration ones (exit 78: fix a
/// setting), and keeps passwords out of every message.
enum PostgresFailure {
    // MARK: - Classifying

    /// The error for a connection attempt that failed with libpq's `message` (already scrubbed).
    static func connectionError(_ message: String, target: String, needsPassword: Bool) -> ASNError {
        let detail = oneLine(message)
        let lower = detail.lowercased()
        let configuration = needsPassword || configurationSigns.contains { lower.contains($0) }
        if configuration {
            return ASNError(
                .databaseConfiguration,
                "PostgreSQL refused the connection to \(target): \(detail); check the URI, the user, the database name and the password in ~/.pgpass or PGPASSWORD (exit 78)",
                cause: needsPassword ? "the server asks for a password and none was found" : nil)
        }
        return ASNError(
            .databaseUnavailable,
            "could not reach PostgreSQL, \(target): \(detail); nothing was published; run again when the server is up (exit 75)"
        )
    }

    /// The error for a statement that failed with `message` (scrubbed) and SQLSTATE `sqlState` while doing `what`.
    static func queryError(
        _ message: String, sqlState: String?, connectionLost: Bool, target: String, doing what: String
    ) -> ASNError {
        let detail = oneLine(message)
        let state = sqlState.map { " (SQLSTATE \($0))" } ?? ""
        if connectionLost || sqlState == nil || temporaryClasses.contains(where: { sqlState?.hasPrefix($0) == true }) {
            return ASNError(
                .databaseUnavailable,
                "lost PostgreSQL, \(target), while \(what): \(detail)\(state); no report was written; run again when the server is up (exit 75)"
            )
        }
        return ASNError(
            .databaseConfiguration,
            "PostgreSQL, \(target), refused \(what): \(detail)\(state); check --v1-query / --v2-query and the columns it returns (exit 78)"
        )
    }

    // MARK: - Passwords

    /// The passwords a message could echo: the URI's own and `PGPASSWORD`'s.
    static func secrets(in uri: String) -> [String] {
        var found: [String] = []
        if let options = PQconninfoParse(uri, nil) {
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "password", let value = option.pointee.val {
                    found.append(String(cString: value))
                }
                option += 1
            }
            PQconninfoFree(options)
        }
        if let userinfo = PostgresSource.userinfo(of: uri), let colon = userinfo.firstIndex(of: ":") {
            let raw = String(userinfo[userinfo.index(after: colon)...])
            found.append(raw)
            if let decoded = raw.removingPercentEncoding { found.append(decoded) }
        }
        // `password=…` in a query string or key=value string, also when libpq cannot parse it (its message may quote it).
        var rest = Substring(uri)
        while let start = rest.range(of: "password=", options: .caseInsensitive) {
            rest = rest[start.upperBound...]
            let value = String(rest.prefix { $0 != "&" && $0 != " " })
            found.append(value)
            if let decoded = value.removingPercentEncoding { found.append(decoded) }
        }
        if let environment = ProcessInfo.processInfo.environment["PGPASSWORD"] { found.append(environment) }
        return found.filter { !$0.isEmpty }
    }

    /// `text` with every secret replaced by `***`.
    static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    // MARK: - Private

    /// Words of libpq's connection messages that mean a setting is wrong, not that the server is away.
    private static let configurationSigns = [
        "password authentication failed", "authentication failed", "no password supplied", "does not exist",
        "no pg_hba.conf entry", "invalid ", "unsupported", "permission denied for database", "not permitted to log in",
        "ssl is not enabled", "certificate"
    ]

    /// SQLSTATE classes that pass: connection exception, operator intervention (shutdown, cancel), insufficient
    /// resources, transaction rollback (serialization), system error.
    private static let temporaryClasses = ["08", "57", "53", "40", "58"]

    /// libpq's possibly multi-line message on one line.
    private static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }.joined(separator: " ")
    }
}
