/// The state's blobs of the API-view tables in `StateCodec`'s one form, with the state's `texts`; and the conversion
/// of a state of schema 8 to 11, which kept them as JSON.
extension APIViewStore {
    /// The stored bytes of a V1 record's transaction facts (without its receipt entries).
    func stateBytes(_ facts: V1RecordFacts) throws(ASNError) -> [UInt8] {
        try StateCodec.encode(facts) { (text: String) throws(ASNError) -> Int64 in try textId(text) }
    }

    /// The stored bytes of a receipt entry.
    func stateBytes(_ entry: LatestReceiptInfo) throws(ASNError) -> [UInt8] {
        try StateCodec.encode(entry) { (text: String) throws(ASNError) -> Int64 in try textId(text) }
    }

    /// The stored bytes of an answer of Apple's API view.
    func stateBytes(_ record: V2APIRecord) throws(ASNError) -> [UInt8] {
        try StateCodec.encode(record) { (text: String) throws(ASNError) -> Int64 in try textId(text) }
    }

    /// Stored transaction facts read back; nil when damaged or of a newer format.
    func storedV1Facts(_ bytes: [UInt8]) -> V1RecordFacts? {
        StateCodec.v1Facts(bytes) { text(id: $0) }
    }

    /// A stored receipt entry read back; nil when damaged or of a newer format.
    func storedEntry(_ bytes: [UInt8]) -> LatestReceiptInfo? {
        StateCodec.receiptEntry(bytes) { text(id: $0) }
    }

    /// A stored answer read back; nil when damaged or of a newer format.
    func storedAPIRecord(_ bytes: [UInt8], kind: Int64, at location: SourceLocation) -> V2APIRecord? {
        StateCodec.apiRecord(bytes, kind: kind, at: location) { text(id: $0) }
    }

    // MARK: - Conversion

    /// Rewrites every JSON blob of `v1_entries`, `v1_transactions` and `api_records` (schemas 8 to 11) in
    /// `StateCodec`'s form, inside the conversion's transaction. A receipt entry's digest is of its stored bytes, so
    /// it is computed again; two entries of a subscription whose new bytes are equal become one, and the
    /// transactions listing the other are pointed at it. A blob that does not read as JSON is left as it is: reading
    /// its subscription refuses it as damaged, as before.
    func convertJSONBlobs() throws(ASNError) {
        var subscriptions: [Int64] = []
        try database.prepare(
            "SELECT DISTINCT subscription_id FROM v1_entries WHERE substr(entry, 1, 1) = X'7B' ORDER BY subscription_id"
        ).forEach { s in subscriptions.append(s.int64(0)) }
        for subscription in subscriptions { try convertEntries(of: subscription) }
        entryIds = [:]

        try convertRows(table: "v1_transactions", column: "facts") {
            (bytes: [UInt8], _: Int64) throws(ASNError) -> [UInt8]? in
            guard let facts = LegacyStateJSON.v1Facts(bytes) else { return nil }
            return try stateBytes(facts)
        }
        try convertRows(table: "api_records", column: "record") {
            (bytes: [UInt8], kind: Int64) throws(ASNError) -> [UInt8]? in
            guard let record = LegacyStateJSON.apiRecord(bytes, kind: kind, at: SourceLocation(path: "")) else {
                return nil
            }
            return try stateBytes(record)
        }
    }

    /// Converts one subscription's receipt entries, merging those whose new bytes are equal.
    private func convertEntries(of subscription: Int64) throws(ASNError) {
        var rows: [(id: Int64, bytes: [UInt8])] = []
        try database.prepare("SELECT id, entry FROM v1_entries WHERE subscription_id = ? ORDER BY id").forEach([
            .integer(subscription)
        ]) { s in rows.append((s.int64(0), s.blob(1))) }
        var converted: [(id: Int64, bytes: [UInt8])] = []
        for row in rows {
            guard LegacyStateJSON.isJSON(row.bytes), let entry = LegacyStateJSON.receiptEntry(row.bytes) else {
                converted.append(row)
                continue
            }
            converted.append((row.id, try stateBytes(entry)))
        }
        try database.prepare("DELETE FROM v1_entries WHERE subscription_id = ?").run([.integer(subscription)])
        var kept: [Int64: Int64] = [:]
        var merged: [Int64: Int64] = [:]
        let insert = try database.prepare(
            "INSERT INTO v1_entries (id, subscription_id, digest, entry) VALUES (?, ?, ?, ?)")
        for row in converted {
            let digest = Int64(bitPattern: SHA1.prefix64(SHA1.digest(row.bytes)))
            if let other = kept[digest] {
                merged[row.id] = other
                continue
            }
            kept[digest] = row.id
            try insert.run([.integer(row.id), .integer(subscription), .integer(digest), .blob(row.bytes)])
        }
        guard !merged.isEmpty else { return }
        var lists: [(id: Int64, entries: [Int64])] = []
        try database.prepare("SELECT id, entries FROM v1_transactions WHERE subscription_id = ?").forEach([
            .integer(subscription)
        ]) { s in
            if let entries = Self.varints(s.blob(1)) { lists.append((s.int64(0), entries)) }
        }
        let update = try database.prepare("UPDATE v1_transactions SET entries = ? WHERE id = ?")
        for list in lists where list.entries.contains(where: { merged[$0] != nil }) {
            var bytes: [UInt8] = []
            for id in list.entries { Self.appendVarint(merged[id] ?? id, to: &bytes) }
            try update.run([.blob(bytes), .integer(list.id)])
        }
    }

    /// Converts the JSON blobs of `column` in `table`, a thousand rows at a time, by `convert` (given the blob and
    /// the row's `kind`, 0 where the table has none); a blob it cannot read is left as it is.
    private func convertRows(
        table: String, column: String, _ convert: ([UInt8], Int64) throws(ASNError) -> [UInt8]?
    ) throws(ASNError) {
        let kind = table == "api_records" ? "kind" : "0"
        let select = try database.prepare(
            "SELECT id, \(column), \(kind) FROM \(table) WHERE id > ? AND substr(\(column), 1, 1) = X'7B' ORDER BY id LIMIT 1000"
        )
        let update = try database.prepare("UPDATE \(table) SET \(column) = ? WHERE id = ?")
        var after: Int64 = 0
        while true {
            var rows: [(id: Int64, bytes: [UInt8], kind: Int64)] = []
            try select.forEach([.integer(after)]) { s in rows.append((s.int64(0), s.blob(1), s.int64(2))) }
            guard let last = rows.last else { return }
            for row in rows {
                if let bytes = try convert(row.bytes, row.kind) { try update.run([.blob(bytes), .integer(row.id)]) }
            }
            after = last.id
        }
    }
}
