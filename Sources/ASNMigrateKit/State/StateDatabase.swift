import Foundation

/// The connection every store of the nightly state shares: the SQLite database, its statement cache, the ids of
/// subscriptions and texts, and the `meta` values. The stores (`LedgerStore`, `FactsStore`, `DifferenceStore`,
/// `APIViewStore`, `SwitchStore`, `RunStore`) hold one each and keep all the state's SQL; `NightlyStore` opens it.
package final class StateDatabase {
    /// The SQLite database.
    package let database: SQLiteDatabase

    private var statements: [String: SQLiteStatement] = [:]
    private var textIds: [String: Int64] = [:]
    private var textsById: [Int64: String] = [:]
    private var textsLoaded = false
    private var subscriptionIds: [SubscriptionKey: Int64] = [:]
    private static let subscriptionCacheLimit = 1 << 20

    /// Wraps an open state database.
    init(_ database: SQLiteDatabase) {
        self.database = database
    }

    /// Finalizes the cached statements and closes the database; safe to call more than once.
    func close() {
        statements.removeAll()
        database.close()
    }

    /// Runs `body` in one transaction.
    func transaction<T>(_ body: () throws(ASNError) -> T) throws(ASNError) -> T {
        try database.transaction(body)
    }

    /// A `meta` value.
    package func meta(_ key: String) throws(ASNError) -> Int64? {
        var value: Int64?
        try cached("SELECT value FROM meta WHERE key = ?").forEach([.text(key)]) { s in value = s.int64(0) }
        return value
    }

    /// Sets (or, with nil, removes) a `meta` value.
    package func setMeta(_ key: String, _ value: Int64?) throws(ASNError) {
        if let value {
            try cached(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            ).run([.text(key), .integer(value)])
        } else {
            try cached("DELETE FROM meta WHERE key = ?").run([.text(key)])
        }
    }

    /// A single integer from a query.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(ASNError) -> Int {
        var value = 0
        try cached(sql).forEach(values) { s in value = Int(s.int64(0)) }
        return value
    }

    /// The prepared statement of `sql`, prepared once per connection.
    func cached(_ sql: String) throws(ASNError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The row id of the last row inserted.
    func lastInsertId() throws(ASNError) -> Int64 {
        Int64(try scalar("SELECT last_insert_rowid()"))
    }

    /// The id of a subscription in `subscriptions` (added when new, unless `create` is false).
    func subscriptionId(_ key: SubscriptionKey, create: Bool = true) throws(ASNError) -> Int64? {
        if let id = subscriptionIds[key] { return id }
        try loadTexts()
        guard let environment = create ? try textId(key.environment) : textIds[key.environment] else { return nil }
        var found: Int64?
        try cached("SELECT id FROM subscriptions WHERE environment_id = ? AND original_transaction_id = ?")
            .forEach([.integer(environment), .text(key.originalTransactionId)]) { s in found = s.int64(0) }
        if found == nil, create {
            try cached("INSERT INTO subscriptions (environment_id, original_transaction_id) VALUES (?, ?)").run([
                .integer(environment), .text(key.originalTransactionId)
            ])
            found = try lastInsertId()
        }
        if let found, subscriptionIds.count < Self.subscriptionCacheLimit { subscriptionIds[key] = found }
        return found
    }

    /// The id of a subscription, added when new.
    func requiredSubscriptionId(_ key: SubscriptionKey) throws(ASNError) -> Int64 {
        guard let id = try subscriptionId(key, create: true) else {
            throw ASNError(
                .stateDatabase, "cannot add subscription \(key.environment) \(key.originalTransactionId) to the state",
                at: SourceLocation(path: database.path))
        }
        return id
    }

    /// The keys of subscription ids.
    func keys(of ids: Set<Int64>) throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        for id in ids {
            try cached("SELECT environment_id, original_transaction_id FROM subscriptions WHERE id = ?").forEach([
                .integer(id)
            ]) { s in
                keys.insert(SubscriptionKey(environment: text(id: s.int64(0)) ?? "", originalTransactionId: s.text(1)))
            }
        }
        return keys
    }

    /// The id of a text in `texts` (added when new).
    func textId(_ text: String) throws(ASNError) -> Int64 {
        try loadTexts()
        if let id = textIds[text] { return id }
        try cached("INSERT INTO texts (text) VALUES (?)").run([.blob(Array(text.utf8))])
        let id = try lastInsertId()
        textIds[text] = id
        textsById[id] = text
        return id
    }

    /// The text of an id in `texts` (nil when unknown: the record is damaged).
    func text(id: Int64) -> String? {
        if let text = textsById[id] { return text }
        try? loadTexts()
        return textsById[id]
    }

    private func loadTexts() throws(ASNError) {
        guard !textsLoaded else { return }
        try cached("SELECT id, text FROM texts").forEach { s in
            let id = s.int64(0)
            let text = String(decoding: s.blob(1), as: UTF8.self)
            textIds[text] = id
            textsById[id] = text
        }
        textsLoaded = true
    }

    /// The side column's code: 1 for V1, 2 for V2.
    static func sideCode(_ side: String) -> Int64 { side == "v1" ? 1 : 2 }

    /// A notificationUUID as stored: 16 bytes when standard lowercase, else its text; NULL when absent or empty.
    static func uuidValue(_ uuid: String?) -> SQLiteValue {
        guard let uuid, !uuid.isEmpty else { return .null }
        if let bytes = PackedUUID.bytes(uuid) { return .blob(bytes) }
        return .text(uuid)
    }

    /// A stored notificationUUID back to text.
    static func uuidText(_ s: SQLiteStatement, _ index: Int32) -> String? {
        if s.isNull(index) { return nil }
        if s.isBlob(index) { return PackedUUID.text(bytes: s.blob(index)) }
        return s.text(index)
    }

    /// `path:line`, `path[index]` or `path` back to a location.
    static func location(_ source: String) -> SourceLocation {
        if source.hasSuffix("]"), let open = source.lastIndex(of: "["),
            let index = Int(source[source.index(after: open)..<source.index(before: source.endIndex)])
        {
            return SourceLocation(path: String(source[..<open]), index: index)
        }
        if let colon = source.lastIndex(of: ":"), let line = Int(source[source.index(after: colon)...]) {
            return SourceLocation(path: String(source[..<colon]), line: line)
        }
        return SourceLocation(path: source)
    }

    /// The columns of a difference's cells (`Discrepancy.columns`), as the cell tables name them.
    static let cellColumns = Discrepancy.columns.joined(separator: ", ")

    /// One `?` per cell column.
    static let cellMarks = Array(repeating: "?", count: Discrepancy.columns.count).joined(separator: ", ")

    /// The cells of a difference read from `s`, starting at column `first`.
    static func cells(_ s: SQLiteStatement, from first: Int32) -> [String] {
        (0..<Int32(Discrepancy.columns.count)).map { s.text(first + $0) }
    }
}

/// A store of the state: one concern's queries over the shared connection, which these helpers reach.
protocol StateStore {
    /// The shared connection.
    var state: StateDatabase { get }
}

extension StateStore {
    /// The SQLite database.
    var database: SQLiteDatabase { state.database }

    /// The prepared statement of `sql` (`StateDatabase.cached`).
    func cached(_ sql: String) throws(ASNError) -> SQLiteStatement { try state.cached(sql) }

    /// A single integer from a query.
    func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(ASNError) -> Int {
        try state.scalar(sql, values)
    }

    /// The row id of the last row inserted.
    func lastInsertId() throws(ASNError) -> Int64 { try state.lastInsertId() }

    /// A `meta` value.
    func meta(_ key: String) throws(ASNError) -> Int64? { try state.meta(key) }

    /// Sets (or, with nil, removes) a `meta` value.
    func setMeta(_ key: String, _ value: Int64?) throws(ASNError) { try state.setMeta(key, value) }

    /// The id of a subscription (added when new, unless `create` is false).
    func subscriptionId(_ key: SubscriptionKey, create: Bool = true) throws(ASNError) -> Int64? {
        try state.subscriptionId(key, create: create)
    }

    /// The id of a subscription, added when new.
    func requiredSubscriptionId(_ key: SubscriptionKey) throws(ASNError) -> Int64 {
        try state.requiredSubscriptionId(key)
    }

    /// The keys of subscription ids.
    func keys(of ids: Set<Int64>) throws(ASNError) -> Set<SubscriptionKey> { try state.keys(of: ids) }

    /// The id of a text in `texts` (added when new).
    func textId(_ text: String) throws(ASNError) -> Int64 { try state.textId(text) }

    /// The text of an id in `texts` (nil when unknown).
    func text(id: Int64) -> String? { state.text(id: id) }

    /// The side column's code: 1 for V1, 2 for V2.
    static func sideCode(_ side: String) -> Int64 { StateDatabase.sideCode(side) }

    /// A notificationUUID as stored (`StateDatabase.uuidValue`).
    static func uuidValue(_ uuid: String?) -> SQLiteValue { StateDatabase.uuidValue(uuid) }

    /// A stored notificationUUID back to text.
    static func uuidText(_ s: SQLiteStatement, _ index: Int32) -> String? { StateDatabase.uuidText(s, index) }

    /// `path:line`, `path[index]` or `path` back to a location.
    static func location(_ source: String) -> SourceLocation { StateDatabase.location(source) }

    /// The columns of a difference's cells.
    static var cellColumns: String { StateDatabase.cellColumns }

    /// One `?` per cell column.
    static var cellMarks: String { StateDatabase.cellMarks }

    /// The cells of a difference read from `s`, starting at column `first`.
    static func cells(_ s: SQLiteStatement, from first: Int32) -> [String] { StateDatabase.cells(s, from: first) }
}
