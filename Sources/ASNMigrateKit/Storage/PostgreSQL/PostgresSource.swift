/// A `--v1` / `--v2` source read from PostgreSQL: the connection URI and what to read (a table or a SELECT).
package struct PostgresSource: Sendable, Equatable {
    /// `v1` or `v2`.
    package var side: String
    /// The connection URI as given (it may hold a password: never print it, print `redactedURI`).
    package var uri: String
    /// The `--v1-query` / `--v2-query` value as given: a table name or a SELECT.
    package var query: String

    /// Creates a source.
    package init(side: String, uri: String, query: String) {
        self.side = side
        self.uri = uri
        self.query = query
    }

    // MARK: - Naming

    /// Whether `text` is a PostgreSQL URI (`postgres://` or `postgresql://`, any case) rather than a path.
    package static func isURI(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The URI with any password removed (`postgres://app:secret@db/x` → `postgres://app@db/x`, `password=…` → `password=***`).
    package var redactedURI: String { Self.redacted(uri) }

    /// `uri` without its password, for messages and reports.
    package static func redacted(_ uri: String) -> String {
        var text = uri
        if let userinfo = userinfo(of: uri), let colon = userinfo.firstIndex(of: ":"),
            let range = text.range(of: userinfo)
        {
            text.replaceSubrange(range, with: userinfo[..<colon])
        }
        // password=… in a query string (`?password=x&…`) or a key=value connection string.
        var out = ""
        var rest = Substring(text)
        while let found = rest.range(of: "password=", options: .caseInsensitive) {
            out += rest[..<found.upperBound] + "***"
            rest = rest[found.upperBound...]
            let end = rest.firstIndex { $0 == "&" || $0 == " " } ?? rest.endIndex
            rest = rest[end...]
        }
        return out + rest
    }

    /// The `user:password` part of a URI (between `://` and `@`), if any.
    static func userinfo(of uri: String) -> String? {
        guard isURI(uri), let scheme = uri.range(of: "://") else { return nil }
        let afterScheme = uri[scheme.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return String(authority[..<at])
    }

    /// Whether `query` is a table name (`asn_v1`, `archive.asn_v1`) rather than SQL.
    package var isTableName: Bool {
        let parts = query.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
                    return false
                }
                return part.unicodeScalars.allSatisfy {
                    $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
                }
            }
    }

    /// How sources of rejects and reports name this input: the table name, or `v1-query` / `v2-query`.
    package var label: String { isTableName ? query : "\(side)-query" }

    /// The SELECT to stream: `SELECT * FROM table ORDER BY 1` for a table (its first column, usually the key), else
    /// the query as given without a trailing `;`.
    package var selectStatement: String {
        if isTableName { return "SELECT * FROM \(query) ORDER BY 1" }
        var text = Substring(query)
        while let last = text.last, last == ";" || last.isWhitespace { text = text.dropLast() }
        return String(text)
    }

    /// What the summary records as this input root: the URI without its password, and what was read.
    package var describedRoot: String { "\(redactedURI) \(isTableName ? "table" : "query") \(label)" }
}
