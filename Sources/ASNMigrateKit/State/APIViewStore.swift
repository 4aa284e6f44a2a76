import Foundation

/// What the state keeps when the V2 side is Apple's App Store Server API view (`Reports/apple-view.md`): every V1
/// record's transaction facts, Apple's transactions and statuses as read, and the dates the moving spans can reach
/// (`change_points`, the one index of both modes).
///
/// Each subscription's facts read back in `reconcile`'s input order (the file's path byte-wise, as `InputPaths`
/// lists a folder, then the order read), so `TransactionReconciler` merges copies and picks sources exactly as one
/// `reconcile` over the same files does, whatever night each file arrived.
package final class APIViewStore: StateStore {
    /// The shared connection.
    let state: StateDatabase
    /// The facts store, which keeps the change points (`change_points`, the one index of both modes).
    let facts: FactsStore
    /// The ids of receipt entries already stored (`v1_entries`), by subscription id and content digest.
    var entryIds: [[Int64]: Int64] = [:]

    /// A store over `state`, noting change points through `facts`.
    init(_ state: StateDatabase, facts: FactsStore) {
        self.state = state
        self.facts = facts
    }

    /// The `api_records.kind` of a transaction.
    static let apiTransactionKind = StateCodec.transactionKind
    /// The `api_records.kind` of a subscription status.
    static let apiStatusKind = StateCodec.statusKind

    // MARK: - Storing

    /// Stores one V1 record's transaction facts once per subscription it shows (its own, and each other
    /// subscription its receipt lists, with only that subscription's entries); returns those subscriptions.
    package func insertV1Transactions(_ facts: V1RecordFacts, file: Int64) throws(ASNError) -> Set<SubscriptionKey> {
        var entries: [String: [LatestReceiptInfo]] = [facts.subscriptionId ?? "": []]
        for entry in facts.transactions {
            entries[entry.originalTransactionId ?? facts.subscriptionId ?? "", default: []].append(entry)
        }
        var keys: Set<SubscriptionKey> = []
        var own = facts
        own.transactions = []
        let bytes = try stateBytes(own)
        for (id, shown) in entries.sorted(by: { $0.key < $1.key }) {
            let key = SubscriptionKey(environment: facts.environment, originalTransactionId: id)
            let subscription = try requiredSubscriptionId(key)
            // A subscription's receipts repeat its earlier entries record after record: each is kept once.
            var references: [UInt8] = []
            for entry in shown {
                Self.appendVarint(try entryId(entry, subscription: subscription, of: facts.source), to: &references)
            }
            try cached(
                "INSERT INTO v1_transactions (file_id, subscription_id, inferred, event_ms, facts, entries) VALUES (?, ?, ?, ?, ?, ?)"
            ).run([
                .integer(file), .integer(subscription), .integer(facts.eventTimeInferred ? 1 : 0),
                .integer(facts.eventTime), .blob(bytes), .blob(references)
            ])
            // The instants Apple's view can judge this subscription differently at, as V1 knows it then.
            var dates: [Int64?] = [facts.eventTime]
            if let fact = facts.stateFact(of: id) {
                dates += SubscriptionStateRules.changePoints(CollectionOfOne(fact), knowledge: .asOf(lag: 0))
            }
            for entry in shown { dates += [entry.purchaseDate, entry.expiresDate, entry.cancellationDate] }
            try insertChangePoints(dates, subscription: subscription)
            keys.insert(key)
        }
        return keys
    }

    /// Stores one record of Apple's API view; returns its subscription.
    package func insertAPIRecord(_ record: V2APIRecord, file: Int64) throws(ASNError) -> SubscriptionKey {
        try setMeta("api_view", 1)
        let key: SubscriptionKey
        let kind: Int64
        var purchase: Int64?
        var dates: [Int64?]
        switch record {
        case .transaction(let t):
            key = SubscriptionKey(
                environment: t.environment, originalTransactionId: t.payload.originalTransactionId ?? "")
            kind = Self.apiTransactionKind
            purchase = t.payload.purchaseDate
            dates = [t.payload.purchaseDate, t.payload.expiresDate, t.payload.revocationDate, t.payload.signedDate]
        case .status(let s):
            key = SubscriptionKey(environment: s.environment, originalTransactionId: s.originalTransactionId)
            kind = Self.apiStatusKind
            dates = [s.fetchedAt]
        }
        let subscription = try requiredSubscriptionId(key)
        try cached(
            "INSERT INTO api_records (file_id, subscription_id, kind, purchase_ms, record) VALUES (?, ?, ?, ?, ?)"
        ).run([
            .integer(file), .integer(subscription), .integer(kind), .integer(purchase),
            .blob(try stateBytes(record))
        ])
        try insertChangePoints(dates, subscription: subscription)
        return key
    }

    // MARK: - Reading

    /// Whether the V2 side has held App Store Server API records (transactions, statuses): the state compares
    /// against Apple's view, as `reconcile` does when its V2 side holds any.
    package func holdsAPIView() throws(ASNError) -> Bool {
        try meta("api_view") == 1
    }

    /// Whether the V2 side holds notifications (stored, or pruned after being stored).
    package func holdsV2Notifications() throws(ASNError) -> Bool {
        if try scalar("SELECT COUNT(*) FROM (SELECT 1 FROM facts WHERE side = 2 LIMIT 1)") > 0 { return true }
        return try meta("v2_pruned_max") != nil
    }

    /// The whole state's spans for the API view: V1 event times (not inferred) and Apple's purchase dates.
    package func apiViewSpans() throws(ASNError) -> TransactionSpans {
        var spans = TransactionSpans(v1: nil, v2: nil)
        try cached(
            "SELECT MIN(event_ms), MAX(event_ms) FROM v1_transactions WHERE inferred = 0 AND event_ms IS NOT NULL"
        ).forEach { s in
            if let low = s.optionalInt64(0), let high = s.optionalInt64(1) { spans.v1 = low...high }
        }
        try cached("SELECT MIN(purchase_ms), MAX(purchase_ms) FROM api_records WHERE purchase_ms IS NOT NULL").forEach {
            s in
            if let low = s.optionalInt64(0), let high = s.optionalInt64(1) { spans.v2 = low...high }
        }
        return spans
    }

    /// One subscription's V1 transaction facts, in `reconcile`'s input order.
    package func v1Transactions(of key: SubscriptionKey) throws(ASNError) -> [V1RecordFacts] {
        guard let subscription = try subscriptionId(key, create: false) else { return [] }
        var all: [V1RecordFacts] = []
        var damaged: Int64?
        var damagedEntry: Int64?
        var entries: [Int64: LatestReceiptInfo] = [:]
        try cached("SELECT id, entry FROM v1_entries WHERE subscription_id = ?").forEach([.integer(subscription)]) {
            s in
            guard let entry = storedEntry(s.blob(1)) else {
                damagedEntry = damagedEntry ?? s.int64(0)
                return
            }
            entries[s.int64(0)] = entry
        }
        if let damagedEntry { throw damagedRow("v1_entries", damagedEntry, key) }
        try cached(
            "SELECT v.id, v.facts, v.entries FROM v1_transactions v JOIN files f ON f.id = v.file_id WHERE v.subscription_id = ? ORDER BY f.path, v.id"
        ).forEach([.integer(subscription)]) { s in
            guard var facts = storedV1Facts(s.blob(1)),
                let shown = Self.varints(s.blob(2))?.map({ entries[$0] }), !shown.contains(where: { $0 == nil })
            else {
                damaged = damaged ?? s.int64(0)
                return
            }
            facts.transactions = shown.compactMap { $0 }
            all.append(facts)
        }
        if let damaged { throw damagedRow("v1_transactions", damaged, key) }
        return all
    }

    /// One subscription's records of Apple's API view, in `reconcile`'s input order.
    package func apiRecords(of key: SubscriptionKey) throws(ASNError) -> [V2APIRecord] {
        guard let subscription = try subscriptionId(key, create: false) else { return [] }
        var all: [V2APIRecord] = []
        var damaged: Int64?
        try cached(
            "SELECT a.id, a.kind, a.record, f.path FROM api_records a JOIN files f ON f.id = a.file_id WHERE a.subscription_id = ? ORDER BY f.path, a.id"
        ).forEach([.integer(subscription)]) { s in
            guard let record = storedAPIRecord(s.blob(2), kind: s.int64(1), at: SourceLocation(path: s.text(3))) else {
                damaged = damaged ?? s.int64(0)
                return
            }
            all.append(record)
        }
        if let damaged { throw damagedRow("api_records", damaged, key) }
        return all
    }

    /// The answers of Apple's API view that `file` holds, per subscription: each record's kind and a digest of its
    /// stored bytes, in the order read. Nil when the file holds anything else (notifications, V1 records, conflicts),
    /// so a rewritten file of answers (`fetch --update`'s parts) is told apart from one whose records changed.
    package func apiAnswers(ofFile id: Int64) throws(ASNError) -> [SubscriptionKey: [Int64]]? {
        for table in ["facts", "conflicts", "v1_transactions", "pruned_uuids"] {
            let sql = "SELECT COUNT(*) FROM (SELECT 1 FROM \(table) WHERE file_id = ? LIMIT 1)"
            if try scalar(sql, [.integer(id)]) > 0 { return nil }
        }
        var byId: [Int64: [Int64]] = [:]
        try cached("SELECT subscription_id, kind, record FROM api_records WHERE file_id = ? ORDER BY id").forEach([
            .integer(id)
        ]) { s in
            let digest = Int64(bitPattern: SHA1.prefix64(SHA1.digest(s.blob(2))))
            byId[s.int64(0), default: []] += [s.int64(1), digest]
        }
        var answers: [SubscriptionKey: [Int64]] = [:]
        for (subscription, digests) in byId {
            for key in try keys(of: [subscription]) { answers[key] = digests }
        }
        return answers
    }

    /// `reconcile`'s `not_fetched` over the whole state: the V1 transactions (merged by transaction id, as its
    /// collector merges them) of the subscriptions Apple's view holds no transaction of. Reads back only those
    /// subscriptions' facts, few once a fetch has answered (those Apple did not answer, or does not know).
    package func notFetchedTransactions() throws(ASNError) -> Int {
        var ids: Set<Int64> = []
        try cached(
            "SELECT DISTINCT subscription_id FROM v1_transactions WHERE subscription_id NOT IN (SELECT subscription_id FROM api_records WHERE kind = ?)"
        ).forEach([.integer(Self.apiTransactionKind)]) { s in ids.insert(s.int64(0)) }
        var count = 0
        for key in try keys(of: ids) {
            var collector = V1TransactionCollector()
            for facts in try v1Transactions(of: key) { collector.add(facts) }
            count += collector.transactionCount
        }
        return count
    }

    /// How many records of Apple's API view (transactions, statuses) the state holds.
    package func answerCount() throws(ASNError) -> Int {
        try scalar("SELECT COUNT(*) FROM api_records")
    }

    // MARK: - Private

    /// The `v1_entries` id of one receipt entry of a subscription, stored when new.
    private func entryId(_ entry: LatestReceiptInfo, subscription: Int64, of source: String) throws(ASNError) -> Int64 {
        let bytes = try stateBytes(entry)
        let digest = Int64(bitPattern: SHA1.prefix64(SHA1.digest(bytes)))
        if let id = entryIds[[subscription, digest]] { return id }
        try cached("INSERT OR IGNORE INTO v1_entries (subscription_id, digest, entry) VALUES (?, ?, ?)").run([
            .integer(subscription), .integer(digest), .blob(bytes)
        ])
        var found: Int64?
        try cached("SELECT id FROM v1_entries WHERE subscription_id = ? AND digest = ?").forEach([
            .integer(subscription), .integer(digest)
        ]) { s in found = s.int64(0) }
        guard let found else {
            throw ASNError(
                .stateDatabase, "cannot keep a receipt entry of \(source) in the state",
                at: SourceLocation(path: database.path))
        }
        if entryIds.count >= 1 << 20 { entryIds = [:] }
        entryIds[[subscription, digest]] = found
        return found
    }

    /// Appends `value` as an unsigned LEB128 varint.
    static func appendVarint(_ value: Int64, to bytes: inout [UInt8]) {
        var rest = UInt64(bitPattern: value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The varints of `bytes`; nil when the last one is cut short.
    static func varints(_ bytes: [UInt8]) -> [Int64]? {
        var values: [Int64] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                values.append(Int64(bitPattern: value))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return shift == 0 ? values : nil
    }

    /// Notes instants at which `subscription`'s judged state can change (`FactsStore.insertChangePoints`).
    private func insertChangePoints(_ points: [Int64?], subscription: Int64) throws(ASNError) {
        try facts.insertChangePoints(points, subscription: subscription)
    }

    /// The error for a stored row that does not read back.
    private func damagedRow(_ table: String, _ id: Int64, _ key: SubscriptionKey) -> ASNError {
        ASNError(
            .stateDatabase,
            "\(table) row \(id) of subscription \(key.environment) \(key.originalTransactionId) cannot be read back (damaged or of a newer format); restore the state from a backup (--state-backup) or start a new one",
            at: SourceLocation(path: database.path))
    }
}
