/// A `nightly` config file: plain `key = value` lines, `#` comments, blank lines ignored, `v1`/`v2` repeatable.
///
/// Parsing only checks the shape and the key names; values are checked by `NightlySettings`, which names the file,
/// line and key of a bad one.
package struct NightlyConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    package struct Entry: Sendable, Equatable {
        /// The key, such as `window`.
        package var key: String
        /// The value, trimmed.
        package var value: String
        /// The 1-based line number.
        package var line: Int
    }

    /// The keys a config file may hold (each is also a `nightly` flag with the same name).
    package static let keys: [String] = [
        "v1", "v2", "v2-columns", "state", "reports", "window", "settle", "horizon", "environment", "mappings",
        "retention-days", "max-reject-rate", "metrics-file", "run-date",
        "min-file-age", "max-record-bytes", "require-checksums", "max-lag", "allow-future-run-date", "state-backup",
        "verify-signatures", "require-signatures", "root-certificate", "bundle-id", "app-apple-id",
        "ignore-field", "time-tolerance", "fail-on", "warn-on", "no-html", "switch",
        "v1-query", "v2-query", "v1-since-column", "v2-since-column", "since-overlap", "shard",
        "fetch", "apple-view", "key-id", "issuer-id", "private-key", "base-url", "max-requests-per-second",
        "concurrency", "max-retries", "retry-delay", "timeout"
    ]

    /// The keys that may appear more than once.
    package static let repeatableKeys: Set<String> = [
        "v1", "v2", "root-certificate", "ignore-field", "fail-on", "warn-on", "switch"
    ]

    /// The keys that are flags on the command line and `yes`/`no` (or `true`/`false`) in the file.
    package static let booleanKeys: Set<String> = [
        "verify-signatures", "require-signatures", "allow-future-run-date", "no-html", "require-checksums", "fetch"
    ]

    /// The file's path as given.
    package var path: String
    /// The entries in file order.
    package var entries: [Entry]

    /// Parses `text` read from `path`; an unknown key, a line without `=`, or a repeated single key is a usage error naming file and line.
    package init(path: String, text: String) throws(ASNError) {
        self.path = path
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let content = Self.trim(raw.hasSuffix("\r") ? raw.dropLast() : raw)
            guard !content.isEmpty, !content.hasPrefix("#") else { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw Self.error(path, line, "is not 'key = value' (found '\(content)')")
            }
            let key = Self.trim(content[..<equals])
            let value = Self.trim(content[content.index(after: equals)...])
            guard Self.keys.contains(key) else {
                var message = "unknown key '\(key)'"
                if let suggestion = Suggestion.closest(to: key, among: Self.keys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw Self.error(path, line, message + " Keys: \(Self.keys.joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw Self.error(path, line, "key '\(key)' has no value") }
            if !Self.repeatableKeys.contains(key), let first = seen[key] {
                throw Self.error(
                    path, line,
                    "key '\(key)' is given again (first on line \(first)); only v1, v2 and root-certificate may repeat")
            }
            seen[key] = seen[key] ?? line
            entries.append(Entry(key: key, value: value, line: line))
        }
        self.entries = entries
    }

    /// Every value given for `key`, in file order.
    package func entries(_ key: String) -> [Entry] {
        entries.filter { $0.key == key }
    }

    /// The usage error for line `line` of the file at `path`.
    package static func error(_ path: String, _ line: Int, _ message: String) -> ASNError {
        ASNError(
            .usage, "config file '\(ConsoleText.path(path))' line \(line): \(message)",
            at: SourceLocation(path: path, line: line))
    }

    // MARK: - Private

    private static func trim(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
