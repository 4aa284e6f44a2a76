import Foundation

/// The records' facts (`facts`, in `RecordFactsCodec`'s form), the UUIDs seen (`pruned_uuids` beside them), the change
/// points (`change_points`, the one index of both modes), the side bounds, and each file's conflicts and rejects.
package final class FactsStore: StateStore {
    /// The shared connection.
    let state: StateDatabase
    /// Records added (+) and removed (−) per side since the counts were last kept in `meta`.
    private var countChanges: [String: Int] = [:]

    /// A store over `state`.
    init(_ state: StateDatabase) {
        self.state = state
    }

    /// A notificationUUID already stored (or pruned) on a side.
    package struct SeenUUID: Sendable, Equatable {
        /// V2: the content fingerprint of the copy stored; nil for V1.
        package var digest: Int64?
    }

    /// The record stored (or pruned) earlier under notificationUUID `uuid` on `side`, if any ("" is never seen).
    package func seen(side: String, uuid: String) throws(ASNError) -> SeenUUID? {
        let value = Self.uuidValue(uuid)
        guard value != .null else { return nil }
        var found: SeenUUID?
        for table in ["facts", "pruned_uuids"] where found == nil {
            try cached("SELECT digest FROM \(table) WHERE side = ? AND uuid = ?").forEach([
                .integer(Self.sideCode(side)), value
            ]) { s in
                found = SeenUUID(digest: s.optionalInt64(0))
            }
        }
        return found
    }

    /// Stores one record (its notificationUUID, when it has one, is then seen).
    package func insert(_ r: StoredRecord, file: Int64) throws(ASNError) {
        let facts = r.facts
        let subscription = try requiredSubscriptionId(r.key)
        let bytes = try RecordFactsCodec.encode(facts) { (text: String) throws(ASNError) -> Int64 in try textId(text) }
        countChanges[r.side, default: 0] += 1
        try cached(
            "INSERT INTO facts (file_id, subscription_id, side, inferred, event_ms, expires_ms, uuid, digest, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .run([
            .integer(file), .integer(subscription), .integer(Self.sideCode(r.side)),
            .integer(facts.eventTimeInferred ? 1 : 0),
            .integer(facts.time), .integer(facts.expiry), Self.uuidValue(facts.notificationUUID),
            .integer(r.digest), .blob(bytes)
        ])
        try insertChangePoints(of: facts, subscription: subscription)
    }

    /// Notes the instants the record's facts can change its subscription's judged state at
    /// (`SubscriptionStateRules.changePoints`: expiry, grace end, retry end, revocation).
    private func insertChangePoints(of facts: RecordFacts, subscription: Int64) throws(ASNError) {
        guard let fact = facts.stateFact else { return }
        try insertChangePoints(SubscriptionStateRules.changePoints(CollectionOfOne(fact)), subscription: subscription)
    }

    /// Notes instants at which `subscription`'s judged state can change (`change_points`; nil left out).
    func insertChangePoints(_ points: [Int64?], subscription: Int64) throws(ASNError) {
        for point in Set(points.compactMap { $0 }).sorted() {
            try cached("INSERT OR IGNORE INTO change_points (at_ms, subscription_id) VALUES (?, ?)").run([
                .integer(point), .integer(subscription)
            ])
        }
    }

    /// Adds the change points of every stored record, read back from its facts: what a state converted from a schema
    /// before `change_points` lacks (its expiry index held the later of expiry and grace end only). A record whose
    /// facts do not read back adds none: reading its subscription's records refuses it as damaged, as before.
    func addChangePointsOfStoredRecords() throws(ASNError) {
        var environments: [Int64: String] = [:]
        try database.prepare(
            "SELECT f.id, f.subscription_id, s.environment_id, s.original_transaction_id, f.facts, f.uuid, f.event_ms FROM facts f JOIN subscriptions s ON s.id = f.subscription_id"
        ).forEach { (s: SQLiteStatement) throws(ASNError) in
            let environmentId = s.int64(2)
            let environment = environments[environmentId] ?? text(id: environmentId) ?? ""
            environments[environmentId] = environment
            let uuid = Self.uuidText(s, 5)
            let bytes = s.blob(4)
            let facts = bytes.withUnsafeBytes { raw in
                RecordFactsCodec.decode(
                    raw, environment: environment, originalTransactionId: s.text(3), notificationUUID: uuid,
                    time: s.optionalInt64(6), text: { self.text(id: $0) })
            }
            guard let facts else { return }
            try insertChangePoints(of: facts, subscription: s.int64(1))
        }
    }

    /// The stored records of one subscription, in the order they were ingested.
    package func records(of key: SubscriptionKey) throws(ASNError) -> [StoredRecord] {
        guard let subscription = try subscriptionId(key, create: false) else { return [] }
        var all: [StoredRecord] = []
        var damaged: Int64?
        try cached("SELECT id, facts, uuid, digest, event_ms FROM facts WHERE subscription_id = ? ORDER BY id").forEach(
            [.integer(subscription)]) { s in
                let uuid = Self.uuidText(s, 2)
                let bytes = s.blob(1)
                let facts = bytes.withUnsafeBytes { raw in
                    RecordFactsCodec.decode(
                        raw, environment: key.environment, originalTransactionId: key.originalTransactionId,
                        notificationUUID: uuid, time: s.optionalInt64(4), text: { self.text(id: $0) })
                }
                guard let facts else {
                    damaged = damaged ?? s.int64(0)
                    return
                }
                all.append(StoredRecord(facts: facts, digest: s.optionalInt64(3)))
            }
        if let damaged {
            throw ASNError(
                .stateDatabase,
                "stored record \(damaged) of subscription \(key.environment) \(key.originalTransactionId) cannot be read back (its facts are damaged or of a newer format); restore the state from a backup (--state-backup) or start a new one",
                at: SourceLocation(path: database.path))
        }
        return all
    }

    /// The first and last known event time of a side (V1: not inferred), over stored records and `meta` bounds of pruned ones.
    package func bounds(side: String) throws(ASNError) -> (min: Int64, max: Int64)? {
        var low: Int64?
        var high: Int64?
        try cached(
            "SELECT MIN(event_ms), MAX(event_ms) FROM facts WHERE side = ? AND inferred = 0 AND event_ms IS NOT NULL"
        ).forEach([.integer(Self.sideCode(side))]) { s in
            low = s.optionalInt64(0)
            high = s.optionalInt64(1)
        }
        try cached("SELECT MIN(min_ms), MAX(max_ms) FROM other_shard_bounds WHERE side = ?").forEach([
            .integer(Self.sideCode(side))
        ]) { s in
            if let other = s.optionalInt64(0) { low = Swift.min(low ?? other, other) }
            if let other = s.optionalInt64(1) { high = Swift.max(high ?? other, other) }
        }
        if let pruned = try meta("\(side)_pruned_min") { low = Swift.min(low ?? pruned, pruned) }
        if let pruned = try meta("\(side)_pruned_max") { high = Swift.max(high ?? pruned, pruned) }
        guard let low, let high else { return nil }
        return (low, high)
    }

    /// Widens the span of event times that `file`'s records of other shards had on `side` (`nightly --shard`): their
    /// records are not kept here, but the period is the whole run's.
    package func addOtherShardBounds(file: Int64, side: String, _ span: ClosedRange<Int64>) throws(ASNError) {
        try cached(
            "INSERT INTO other_shard_bounds (file_id, side, min_ms, max_ms) VALUES (?, ?, ?, ?) ON CONFLICT(file_id, side) DO UPDATE SET min_ms = MIN(min_ms, excluded.min_ms), max_ms = MAX(max_ms, excluded.max_ms)"
        ).run([.integer(file), .integer(Self.sideCode(side)), .integer(span.lowerBound), .integer(span.upperBound)])
    }

    /// Subscriptions with a (not inferred) record whose event time lies in `range`, or (`expiresToo`) a change point.
    package func subscriptions(eventIn range: ClosedRange<Int64>, expiresToo: Bool) throws(ASNError) -> Set<
        SubscriptionKey
    > {
        var ids: Set<Int64> = []
        let bound: [SQLiteValue] = [.integer(range.lowerBound), .integer(range.upperBound)]
        for side in [1, 2] as [Int64] {
            try cached(
                "SELECT DISTINCT subscription_id FROM facts WHERE side = ? AND inferred = 0 AND event_ms BETWEEN ? AND ?"
            )
            .forEach([.integer(side)] + bound) { s in ids.insert(s.int64(0)) }
        }
        // Inferred V1 times are judged after pairing, so a moved edge can change their fate too.
        try cached(
            "SELECT DISTINCT subscription_id FROM facts WHERE side = 1 AND inferred = 1 AND event_ms BETWEEN ? AND ?"
        )
        .forEach(bound) { s in ids.insert(s.int64(0)) }
        let keys = try keys(of: ids)
        return expiresToo ? keys.union(try subscriptions(changingIn: range)) : keys
    }

    /// Subscriptions with a change point (`change_points`: an expiry, grace end, retry end, revocation, or a date of
    /// the API view) within `range`: those whose judged state can differ at the two ends of `range`.
    package func subscriptions(changingIn range: ClosedRange<Int64>) throws(ASNError) -> Set<SubscriptionKey> {
        var ids: Set<Int64> = []
        try cached("SELECT DISTINCT subscription_id FROM change_points WHERE at_ms BETWEEN ? AND ?")
            .forEach([.integer(range.lowerBound), .integer(range.upperBound)]) { s in ids.insert(s.int64(0)) }
        return try keys(of: ids)
    }

    /// Every subscription with a record of `side` (`v1` / `v2`): those `nightly --fetch` asks Apple for until answered.
    package func subscriptions(side: String) throws(ASNError) -> Set<SubscriptionKey> {
        var keys: Set<SubscriptionKey> = []
        try cached(
            "SELECT DISTINCT s.environment_id, s.original_transaction_id FROM subscriptions s WHERE EXISTS (SELECT 1 FROM facts f WHERE f.subscription_id = s.id AND f.side = ?)"
        ).forEach([.integer(Self.sideCode(side))]) { s in
            keys.insert(SubscriptionKey(environment: text(id: s.int64(0)) ?? "", originalTransactionId: s.text(1)))
        }
        return keys
    }

    /// Every subscription the state knows.
    package func allSubscriptions() throws(ASNError) -> Set<SubscriptionKey> {
        var ids: Set<Int64> = []
        try cached("SELECT id FROM subscriptions").forEach { s in ids.insert(s.int64(0)) }
        return try keys(of: ids)
    }

    /// Deletes the records of subscriptions whose every record is older than `cutoff` and that have nothing open or
    /// pending (`unsettled`, `DifferenceStore.unsettledSubscriptions`), looking only at records with event times in
    /// `window` (the stretch that newly fell out of the horizon).
    /// Their UUIDs stay in `seen_uuids`, so a late retry is still a duplicate; the side bounds are kept in `meta`.
    package func prune(
        olderThan cutoff: Int64, candidatesIn window: ClosedRange<Int64>, keeping unsettled: Set<SubscriptionKey>
    ) throws(ASNError) -> Int {
        let candidates = try subscriptions(eventIn: window, expiresToo: false)
        var removed = 0
        for key in candidates.sorted() where !unsettled.contains(key) {
            guard let subscription = try subscriptionId(key, create: false) else { continue }
            var newest: Int64?
            try cached(
                "SELECT MAX(COALESCE(event_ms, 0)) FROM facts INDEXED BY facts_subscription WHERE subscription_id = ?"
            )
            .forEach([.integer(subscription)]) { s in newest = s.optionalInt64(0) }
            guard let newest, newest < cutoff else { continue }
            for (side, b) in try storedBounds(subscription).sorted(by: { $0.key < $1.key }) {
                try setMeta("\(side)_pruned_min", Swift.min(try meta("\(side)_pruned_min") ?? b.min, b.min))
                try setMeta("\(side)_pruned_max", Swift.max(try meta("\(side)_pruned_max") ?? b.max, b.max))
            }
            try cached(
                "INSERT OR IGNORE INTO pruned_uuids (side, uuid, digest, file_id) SELECT side, uuid, digest, file_id FROM facts WHERE subscription_id = ? AND uuid IS NOT NULL"
            )
            .run([.integer(subscription)])
            try cached("SELECT side, COUNT(*) FROM facts WHERE subscription_id = ? GROUP BY side").forEach([
                .integer(subscription)
            ]) { s in
                countChanges[s.int64(0) == 1 ? "v1" : "v2", default: 0] -= Int(s.int64(1))
            }
            try cached("DELETE FROM facts WHERE subscription_id = ?").run([.integer(subscription)])
            removed += database.changes
        }
        return removed
    }

    /// Counts of stored records per side.
    package func recordCount(side: String) throws(ASNError) -> Int {
        if let kept = try meta("\(side)_records_in_state") { return Int(kept) + (countChanges[side] ?? 0) }
        return try scalar("SELECT COUNT(*) FROM facts WHERE side = ?", [.integer(Self.sideCode(side))])
    }

    /// Keeps the record counts `recordCount` gives in `meta`, inside the caller's transaction, so a night does not count
    /// a whole side's records (a state of millions) to report how many there are.
    package func saveRecordCounts() throws(ASNError) {
        for side in ["v1", "v2"] {
            try setMeta("\(side)_records_in_state", Int64(try recordCount(side: side)))
        }
        countChanges = [:]
    }

    // MARK: - Conflicts and rejects

    /// Stores a V2 notificationUUID seen again with other content.
    package func insertConflict(_ d: Discrepancy, file: Int64) throws(ASNError) {
        try cached("INSERT INTO conflicts (file_id, \(Self.cellColumns)) VALUES (?, \(Self.cellMarks))")
            .run([.integer(file)] + d.cells.map { .text($0) })
    }

    /// The conflicting duplicates stored for one subscription.
    package func conflicts(of key: SubscriptionKey) throws(ASNError) -> [Discrepancy] {
        var all: [Discrepancy] = []
        try cached(
            "SELECT \(Self.cellColumns) FROM conflicts WHERE environment = ? AND original_transaction_id = ? ORDER BY id"
        )
        .forEach([.text(key.environment), .text(key.originalTransactionId)]) { s in
            if let d = Discrepancy(cells: Self.cells(s, from: 0)) { all.append(d) }
        }
        return all
    }

    /// Stores one reject of a file.
    package func insertReject(file: Int64, _ reject: ReconciliationResult.Reject, date: String) throws(ASNError) {
        try cached(
            "INSERT INTO rejects (file_id, side, source, line, reason, cause, ingested) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        .run([
            .integer(file), .text(reject.side), .text(reject.source), .integer(reject.line.map(Int64.init)),
            .text(reject.reason), .text(reject.cause), .text(date)
        ])
    }

    /// The rejects read on `date` (rejects stored before schema 2: those of the files (re)ingested on `date`; a file
    /// that could not be read has no ledger entry, file id 0), V1 first, in input order.
    package func rejects(ingestedOn date: String) throws(ASNError) -> [ReconciliationResult.Reject] {
        var all: [ReconciliationResult.Reject] = []
        try cached(
            "SELECT r.side, r.source, r.line, r.reason, r.cause FROM rejects r LEFT JOIN files f ON f.id = r.file_id WHERE COALESCE(r.ingested, f.ingested) = ? ORDER BY r.side, r.id"
        )
        .forEach([.text(date)]) { s in
            all.append(
                .init(
                    side: s.text(0), source: s.text(1), line: s.optionalInt64(2).map { Int($0) }, reason: s.text(3),
                    cause: s.text(4)))
        }
        return all
    }

    // MARK: - A file's content

    /// Deletes everything a file contributed (records, pruned UUIDs, conflicts, rejects) before it is read again;
    /// returns the subscriptions its records belonged to and how many records were removed.
    package func removeContent(ofFile id: Int64) throws(ASNError) -> (keys: Set<SubscriptionKey>, records: Int) {
        var keys: Set<SubscriptionKey> = []
        var count = 0
        var ids: Set<Int64> = []
        try cached("SELECT subscription_id, COUNT(*) FROM facts WHERE file_id = ? GROUP BY subscription_id").forEach([
            .integer(id)
        ]) { s in
            ids.insert(s.int64(0))
            count += Int(s.int64(1))
        }
        // Apple's API view and the V1 transaction facts (`APIViewStore`) go with their file too; Apple's
        // answers are V2 records replaced (a V1 record's transaction facts are counted as its record, above).
        count += try scalar("SELECT COUNT(*) FROM api_records WHERE file_id = ?", [.integer(id)])
        for table in ["v1_transactions", "api_records"] {
            try cached("SELECT DISTINCT subscription_id FROM \(table) WHERE file_id = ?").forEach([.integer(id)]) { s in
                ids.insert(s.int64(0))
            }
        }
        keys.formUnion(try self.keys(of: ids))
        try cached("SELECT environment, original_transaction_id FROM conflicts WHERE file_id = ?").forEach([
            .integer(id)
        ]) { s in
            keys.insert(SubscriptionKey(environment: s.text(0), originalTransactionId: s.text(1)))
        }
        try cached("SELECT side, COUNT(*) FROM facts WHERE file_id = ? GROUP BY side").forEach([.integer(id)]) { s in
            countChanges[s.int64(0) == 1 ? "v1" : "v2", default: 0] -= Int(s.int64(1))
        }
        for table in [
            "facts", "pruned_uuids", "conflicts", "rejects", "source_rows", "other_shard_bounds", "v1_transactions",
            "api_records"
        ] {
            try cached("DELETE FROM \(table) WHERE file_id = ?").run([.integer(id)])
        }
        return (keys, count)
    }

    // MARK: - Private

    /// Each side's first and last (not inferred) event time among one subscription's records; the subscription index is
    /// forced, since the (side, time) index would scan a whole side per subscription.
    private func storedBounds(_ subscription: Int64) throws(ASNError) -> [String: (min: Int64, max: Int64)] {
        var found: [String: (min: Int64, max: Int64)] = [:]
        try cached(
            "SELECT side, MIN(event_ms), MAX(event_ms) FROM facts INDEXED BY facts_subscription WHERE subscription_id = ? AND inferred = 0 AND event_ms IS NOT NULL GROUP BY side"
        )
        .forEach([.integer(subscription)]) { s in
            if let low = s.optionalInt64(1), let high = s.optionalInt64(2) {
                found[s.int64(0) == 1 ? "v1" : "v2"] = (low, high)
            }
        }
        return found
    }
}

extension RecordFacts {
    /// The record's facts for the state rules, as notification pairing reads them (`ReconRecord.stateFact`): its one
    /// transaction and its renewal facts; nil without an event time.
    var stateFact: StateFact? {
        var transaction: StateFact.Transaction?
        if self[date: .purchaseDate] != nil || self[date: .expiresDate] != nil || self[text: .transactionId] != nil {
            transaction = StateFact.Transaction(
                transactionId: self[text: .transactionId], purchaseDate: self[date: .purchaseDate] ?? Int64.min,
                expiresDate: self[date: .expiresDate], revocationDate: self[date: .revocationDate],
                productId: self[text: .productId])
        }
        return StateFact.record(
            time: time, transaction: transaction,
            renewal: StateFact.Renewal(
                autoRenewStatus: self[number: .autoRenewStatus], autoRenewProductId: self[text: .autoRenewProductId],
                gracePeriodExpiresDate: self[date: .gracePeriodExpiresDate],
                isInBillingRetryPeriod: self[flag: .isInBillingRetryPeriod]))
    }
}
