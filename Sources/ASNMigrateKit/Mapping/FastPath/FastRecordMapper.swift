/// The fast per-record path: gives exactly the outcome of `V1RecordMapper` (the reference), several times faster.
///
/// One strict scan builds a token tape of the record; the body fields the mapping reads are decoded straight from the
/// raw bytes and the notificationUUID is taken over canonical bytes written from the tape, both without building a
/// `JSONValue` tree. Anything the fast path does not handle exactly as the reference does (invalid JSON, wrong field
/// types, escaped keys, string-held bodies, unusual spellings) goes to the reference path, so rejects keep their
/// exact codes and messages. Differential tests hold the two paths equal.
package struct FastRecordMapper: RecordMapping {
    /// The reference path, for records the fast path declines.
    package let reference: V1RecordMapper
    /// The bytes of the chunk through which the canonical body streams into SHA-1.
    private static let chunkSize = 4096

    /// Creates a fast mapper over a mapping table.
    package init(table: MappingTable) {
        reference = V1RecordMapper(table: table)
    }

    /// Maps one record, falling back to the reference path when the fast path declines.
    package func map(_ record: RawRecord) -> V1RecordOutcome {
        fastMap(record)?.outcome ?? reference.map(record)
    }

    /// Maps one record keeping its body, falling back to the reference path when the fast path declines.
    package func mapKeepingBody(_ record: RawRecord) -> MappedRecord {
        fastMap(record) ?? reference.mapKeepingBody(record)
    }

    /// The fast path's outcome and body, or nil when it declines the record.
    package func fastMap(_ record: RawRecord) -> MappedRecord? {
        record.bytes.withUnsafeBufferPointer { buffer -> MappedRecord? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            var tape = JSONTape(base: base, count: buffer.count)
            guard tape.build() else { return nil }
            let decoder = TapeV1Decoder(tape: tape)
            guard let decoded = try? decoder.decode() else { return nil }
            // UUID v5: SHA-1 over the namespace followed by the canonical body, streamed through a small chunk.
            let uuid = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.chunkSize + 20) { space -> String in
                guard let start = space.baseAddress else { return "" }
                var writer = TapeCanonicalWriter(chunk: start, capacity: Self.chunkSize)
                let digest = start + Self.chunkSize
                V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
                    writer.digest(prefix: namespace, tape, decoded.bodyIndex, into: digest)
                }
                UUIDv5.markVersion5(digest)
                return ByteTables.uuidText(UnsafeBufferPointer(start: digest, count: 16))
            }
            let outcome = reference.engine.map(
                decoded.body, receivedAt: decoded.receivedAt, uuid: uuid, location: record.location)
            return MappedRecord(
                outcome: V1RecordMapper.outcome(outcome), body: decoded.body, receivedAt: decoded.receivedAt)
        }
    }
}
