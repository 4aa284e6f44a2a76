/// The pure per-record stage of `migrate`: raw record bytes → parse → unwrap → decode → map.
package struct V1RecordMapper: Sendable {
    /// The namespace of the deterministic notificationUUIDs (UUID version 5 over the canonical body).
    package static let uuidNamespace: [UInt8] = [
        0x6a, 0x5f, 0x3c, 0x1e, 0x0b, 0x7d, 0x4e, 0x52, 0x9a, 0x61, 0x2f, 0xd8, 0x43, 0x15, 0xc7, 0x90
    ]

    /// The mapping engine.
    package let engine: MappingEngine
    /// The JSON parser; it never materializes `password` or receipt blobs.
    package let parser: JSONParser

    /// Creates a mapper over a mapping table.
    package init(table: MappingTable) {
        engine = MappingEngine(table: table)
        parser = JSONParser(skippingKeys: Envelope.secretKeys)
    }

    /// Maps one record.
    package func map(_ record: RawRecord) -> V1RecordOutcome {
        mapKeepingBody(record).outcome
    }

    /// Maps one record, keeping the body it was decoded into.
    package func mapKeepingBody(_ record: RawRecord) -> MappedRecord {
        let value: JSONValue
        do {
            value = try parser.parse(record.bytes)
        } catch {
            let reject = ASNError(.malformedJSON, error.message, at: record.location, cause: error.cause)
            return MappedRecord(outcome: .rejected(reject))
        }
        return map(value, location: record.location)
    }

    /// Maps one parsed record, keeping the body it was decoded into.
    package func map(_ value: JSONValue, location: SourceLocation) -> MappedRecord {
        do {
            let unwrapped = try Envelope.unwrap(value, parser: parser, location: location)
            let body = try ResponseBodyV1(unwrapped.body, location: location)
            let uuid = Self.notificationUUID(unwrapped.body)
            return MappedRecord(
                outcome: Self.outcome(
                    engine.map(body, receivedAt: unwrapped.receivedAt, uuid: uuid, location: location)),
                body: body, receivedAt: unwrapped.receivedAt)
        } catch {
            return MappedRecord(outcome: .rejected(error))
        }
    }

    /// The engine's outcome as a record outcome.
    static func outcome(_ mapped: MappingEngine.Outcome) -> V1RecordOutcome {
        switch mapped {
        case .migrated(let payload): return .migrated(payload)
        case .unmapped(let unmapped): return .unmapped(unmapped)
        }
    }

    /// The deterministic notificationUUID of a V1 body: UUID v5 in `uuidNamespace` over its canonical JSON
    /// (keys sorted, no whitespace). `body` must come from `parser`, which already left out `password`,
    /// `latest_receipt` and `latest_expired_receipt` at every depth, so the hash never sees them.
    static func notificationUUID(_ body: JSONObject) -> String {
        UUIDv5.make(namespace: uuidNamespace, name: JSONWriter.canonical(.object(body)))
    }
}
