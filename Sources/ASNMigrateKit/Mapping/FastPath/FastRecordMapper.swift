import Foundation

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
    /// Canonical writers kept across records (with their sorted key orders and buffers), one per thread at a time:
    /// a writer made for each record sorted every object's keys again and allocated its cache each time.
    private let digesters = ReusePool(make: { CanonicalDigester() })

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
            let digester = digesters.take()
            let uuid = digester.uuid(tape, decoded.bodyIndex)
            digesters.give(digester)
            let outcome = reference.engine.map(
                decoded.body, receivedAt: decoded.receivedAt, uuid: uuid, location: record.location)
            return MappedRecord(
                outcome: V1RecordMapper.outcome(outcome), body: decoded.body, receivedAt: decoded.receivedAt)
        }
    }
}

/// A canonical writer with its chunk and digest, used by one thread at a time: the notificationUUID of a record's body.
final class CanonicalDigester {
    /// The bytes of the chunk through which the canonical body streams into SHA-1.
    private static let chunkSize = 4096
    /// The chunk, followed by the 20 bytes of the digest.
    private let space: UnsafeMutablePointer<UInt8>
    /// The writer, keeping its sorted key orders from record to record.
    private var writer: TapeCanonicalWriter

    /// A digester with its own chunk.
    init() {
        space = .allocate(capacity: Self.chunkSize + 20)
        writer = TapeCanonicalWriter(chunk: space, capacity: Self.chunkSize)
    }

    deinit {
        space.deallocate()
    }

    /// The UUID v5 text of the canonical bytes of the value at `index` of `tape`, in `V1RecordMapper`'s namespace.
    func uuid(_ tape: JSONTape, _ index: Int) -> String {
        let digest = space + Self.chunkSize
        V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
            writer.digest(prefix: namespace, tape, index, into: digest)
        }
        UUIDv5.markVersion5(digest)
        return ByteTables.uuidText(UnsafeBufferPointer(start: digest, count: 16))
    }
}
