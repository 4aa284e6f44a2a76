/// Moving a state written before schema 3 (each record's payload as JSON in `records`, UUIDs in `seen_uuids`) to
/// compact facts, in one transaction, so an existing state keeps its history and gives the same answers.
extension FactsStore {
    /// The columns of the `records` view that replaces the old table (for queries; `README.md`, "Querying the state").
    static let recordsView = """
        CREATE VIEW IF NOT EXISTS records AS
        SELECT f.id, f.file_id, CASE f.side WHEN 1 THEN 'v1' ELSE 'v2' END AS side, CAST(e.text AS TEXT) AS environment, s.original_transaction_id,
               CASE WHEN typeof(f.uuid) = 'blob' THEN lower(substr(hex(f.uuid), 1, 8) || '-' || substr(hex(f.uuid), 9, 4) || '-' ||
                    substr(hex(f.uuid), 13, 4) || '-' || substr(hex(f.uuid), 17, 4) || '-' || substr(hex(f.uuid), 21)) ELSE f.uuid END AS notification_uuid,
               f.event_ms, f.inferred, f.expires_ms, fl.path AS file_path
        FROM facts f JOIN subscriptions s ON s.id = f.subscription_id JOIN texts e ON e.id = s.environment_id
        LEFT JOIN files fl ON fl.id = f.file_id
        """

    /// Moves format-2 records and seen UUIDs into `facts` / `pruned_uuids` and replaces the old tables by the view;
    /// does nothing on a state already moved.
    func moveFormatTwoRecords() throws(ASNError) {
        var legacy = false
        try cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").forEach { _ in legacy = true
        }
        guard legacy else { return }
        try state.transaction { () throws(ASNError) in
            var digests: [String: Int64] = [:]
            try database.prepare("SELECT notification_uuid, digest FROM seen_uuids WHERE side = 'v2'").forEach { s in
                if let digest = Self.fingerprint(hex: s.text(1)) { digests[s.text(0)] = digest }
            }
            let decoder = V2RecordDecoder()
            try database.prepare("SELECT id, file_id, form, source, payload FROM records ORDER BY id").forEach {
                (s: SQLiteStatement) throws(ASNError) in
                let location = Self.location(s.text(3))
                guard let facts = Self.facts(form: s.text(2), payload: s.text(4), location: location, decoder: decoder)
                else {
                    throw ASNError(
                        .stateDatabase,
                        "stored record \(s.int64(0)) (\(s.text(2)), from \(location.source)) cannot be read back to move it to the compact form of this version; restore the state from a backup or start a new one",
                        at: SourceLocation(path: database.path))
                }
                try insert(
                    StoredRecord(facts: facts, digest: facts.kind == .v2 ? digests[facts.notificationUUID ?? ""] : nil),
                    file: s.int64(1))
            }
            // UUIDs whose records were pruned stay seen.
            try database.prepare("SELECT side, notification_uuid, digest, file_id FROM seen_uuids").forEach {
                (s: SQLiteStatement) throws(ASNError) in
                let side = Self.sideCode(s.text(0))
                let uuid = Self.uuidValue(s.text(1))
                guard uuid != .null else { return }
                try cached(
                    "INSERT OR IGNORE INTO pruned_uuids (side, uuid, digest, file_id) SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM facts WHERE side = ? AND uuid = ?)"
                )
                .run([
                    .integer(side), uuid, .integer(side == 2 ? Self.fingerprint(hex: s.text(2)) : nil),
                    .integer(s.int64(3)), .integer(side), uuid
                ])
            }
            try database.execute("DROP TABLE records; DROP TABLE seen_uuids; \(Self.recordsView)")
            try saveRecordCounts()
        }
    }

    /// The facts of a format-2 stored payload.
    private static func facts(form: String, payload: String, location: SourceLocation, decoder: V2RecordDecoder)
        -> RecordFacts?
    {
        guard let value = try? decoder.parser.parse(payload) else { return nil }
        if form == "unmapped" {
            guard case .object(let object) = value else { return nil }
            let r = V2FieldReader(object)
            let place = SourceLocation(path: r.string("path") ?? "", line: r.int("line"), index: r.int("index"))
            return RecordFacts(
                unmapped: UnmappedNotification(
                    v1NotificationType: r.string("v1NotificationType") ?? "", reason: r.string("reason") ?? "",
                    location: place,
                    notificationUUID: r.string("notificationUUID") ?? "", environment: r.string("environment"),
                    originalTransactionId: r.string("originalTransactionId"),
                    webOrderLineItemId: r.string("webOrderLineItemId"),
                    eventTime: r.int64("eventTime")))
        }
        let outcomes = decoder.decode(value, at: location)
        guard outcomes.count == 1, let record = outcomes[0].record else { return nil }
        return RecordFacts(record.payload, kind: form == "migrated" ? .migrated : .v2, location: location)
    }

    /// The first 8 bytes of a hex SHA-1 as a fingerprint (nil for V1's empty digest).
    private static func fingerprint(hex: String) -> Int64? {
        let digits = Array(hex.utf8.prefix(16)).compactMap(ByteTables.hexValue)
        guard digits.count == 16 else { return nil }
        return Int64(bitPattern: digits.reduce(UInt64(0)) { $0 << 4 | UInt64($1) })
    }
}
