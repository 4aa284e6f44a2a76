/// Where in the input something happened: file, line or array index, and the JSON key.
package struct SourceLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// How standard input is named in sources: `stdin` (not `-`, which the CSV formula guard would quote and joins
    /// would miss).
    package static let standardInputName = "stdin"

    /// The input path as given (or `stdin` for standard input).
    package var path: String
    /// 1-based line where the record starts, when known.
    package var line: Int?
    /// 0-based index of the record in a top-level JSON array, when it came from one.
    package var index: Int?
    /// The JSON key (dotted path) concerned, when one is.
    package var key: String?

    /// Creates a location.
    package init(path: String, line: Int? = nil, index: Int? = nil, key: String? = nil) {
        self.path = path
        self.line = line
        self.index = index
        self.key = key
    }

    /// `path:line`, `path[index]` or `path`, as reports print a source (the path through `ConsoleText.path`).
    package var source: String {
        let path = ConsoleText.path(path)
        if let line { return "\(path):\(line)" }
        if let index { return "\(path)[\(index)]" }
        return path
    }

    /// The source followed by the key, if any.
    package var description: String {
        if let key { return "\(source) (key \(key))" }
        return source
    }

    /// This location with a key set.
    package func with(key: String) -> SourceLocation {
        var copy = self
        copy.key = key
        return copy
    }
}

/// The one error type of asn-migrate: a code, a message saying what went wrong and what to do, the location and the cause.
package struct ASNError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the raw value is stable and appears in reject reasons.
    package enum Code: String, Sendable, Equatable, CaseIterable {
        /// The command line was wrong (exit 64).
        case usage
        /// An input path could not be opened or read.
        case unreadableInput = "unreadable_input"
        /// A record longer than `--max-record-bytes`, read past without being kept.
        case recordTooLarge = "record_too_large"
        /// The nightly state database cannot be opened, read or written, or is from a newer version.
        case stateDatabase = "state_database"
        /// A mapping or configuration file is invalid.
        case badMapping = "bad_mapping"
        /// Bytes that are not valid JSON.
        case malformedJSON = "malformed_json"
        /// A record that is JSON but not an object.
        case notAnObject = "not_an_object"
        /// A record with no `notification_type` (V1) or `notificationType` (V2).
        case missingNotificationType = "missing_notification_type"
        /// A field the mapping needs has the wrong JSON type or an unreadable value.
        case wrongFieldType = "wrong_field_type"
        /// An ID Apple documents as a numeric string (originalTransactionId, transactionId, webOrderLineItemId) that is not 1 to 20 digits.
        case badId = "bad_id"
        /// A signed payload (JWS) that cannot be decoded.
        case malformedJWS = "malformed_jws"
        /// A CSV input that cannot be read.
        case malformedCSV = "malformed_csv"
        /// Writing output failed.
        case outputFailed = "output_failed"
        /// Another run holds the lock on the same output (exit 75).
        case locked
        /// App Store Server API gave no usable answer (`fetch`): no connection, a timeout, or still failing after the retries.
        case fetchFailed = "fetch_failed"
        /// App Store Server API refused the token (`fetch`, HTTP 401, exit 77).
        case unauthorized
        /// A signed payload that fails a signature check (`reconcile --verify-signatures`); the message starts with the check's name.
        case signature
        /// `merge`: the shard folders given are not one whole sharded run (missing, repeated, of another N, run date or judgement).
        case badShards = "bad_shards"
        /// A database source (`--v1 postgres://…`) cannot be reached now: connection refused or dropped, the server
        /// starting up or shutting down (exit 75, temporary: run again later).
        case databaseUnavailable = "database_unavailable"
        /// A database source is set up wrong: a bad URI, a failed login, no such database, table or column, a query
        /// the server refuses (exit 78, configuration: fix the setting, a retry gives the same answer).
        case databaseConfiguration = "database_configuration"
    }

    /// The kind of failure.
    package var code: Code
    /// What went wrong and, where useful, what to do about it.
    package var message: String
    /// Where it happened, when it is about an input.
    package var location: SourceLocation?
    /// The underlying cause, described.
    package var cause: String?
    /// The message without this record's particular values (`column 'x' is not a whole number`), so that rejects can
    /// be counted by cause; nil when the message itself is that.
    package var group: String?

    /// Creates an error.
    package init(
        _ code: Code, _ message: String, at location: SourceLocation? = nil, cause: String? = nil, group: String? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause
        self.group = group
    }

    /// This error, located in the file at `path` when it has no location of its own.
    package func located(in path: String) -> ASNError {
        guard location == nil else { return self }
        var copy = self
        copy.location = SourceLocation(path: path)
        return copy
    }

    /// The key rejects are counted under: the code and the group (or the message).
    package var causeKey: String {
        "\(code.rawValue): \(group ?? message)"
    }

    /// The `reason` cell of rejects reports: `code: message [key K] (cause)`, without the location (it has its own columns).
    package var reportReason: String {
        var text = "\(code.rawValue): \(message)"
        if let key = location?.key { text += " [key \(key)]" }
        if let cause { text += " (\(cause))" }
        return text
    }

    /// `location: message (cause)`, one line.
    package var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += message
        if let cause { text += " (\(cause))" }
        return text
    }
}

extension ASNError {
    /// A one-line description of any error, for standard error: an `ASNError`'s own description, else the error as
    /// Swift describes it.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? ASNError { return error.description }
        return String(describing: error)
    }
}
