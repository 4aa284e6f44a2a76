import Foundation

/// `migrate`'s fastest path: a V1 record's V2 JSON line written straight from its bytes, byte for byte what
/// `FastRecordMapper` and `MigrationOutput.appendJSONLine` give, without a model or a `String` per field.
///
/// The record is read as a `TapeRecordView` (texts are tokens of its bytes, dates milliseconds), and the one mapping
/// runs over it: `MappingContext`'s choices, the rules' conditions (`MappingEngine.holds`), and `V2Builder.emit` into
/// a `V2JSONSink`; the notificationUUID's canonical bytes stream into SHA-1 (`TapeCanonicalWriter.digest`). Anything
/// the view does not read exactly as the models do (what `FastRecordMapper` declines, text beyond ASCII, a type no rule
/// maps, a record no rule matches) returns nil and is left to the model paths. One migrator serves one thread.
final class TapeMigrator {
    /// The plan.
    private let plan: TapeMigration
    /// The record's tape and its slots, reused.
    private var slots: TapeSlots
    /// The reader of the record's fields, its storage reused.
    private let reader = TapeRecordReader()
    /// The subscription's transactions oldest first (`MappingContext.history`), its storage reused.
    private var history: [Int] = []
    /// The canonical writer streaming into SHA-1.
    private var canonical: TapeCanonicalWriter
    /// The notificationUUID's quoted text, its storage reused from record to record.
    private var uuidText = JSONOut()
    /// Its chunk.
    private let chunk: UnsafeMutablePointer<UInt8>
    /// The size of the chunk.
    private static let chunkSize = 16 << 10

    /// A migrator following `plan`.
    init(plan: TapeMigration) {
        self.plan = plan
        chunk = .allocate(capacity: Self.chunkSize)
        canonical = TapeCanonicalWriter(chunk: chunk, capacity: Self.chunkSize)
        slots = TapeSlots(tape: JSONTape(base: UnsafePointer(chunk), count: 0))
        history.reserveCapacity(64)
    }

    /// How many routes the plan has (`TapeMigration.routes`).
    var routeCount: Int { plan.routes.count }

    /// The token capacity the migrator holds on to between records.
    var tokenCapacity: Int { slots.tape.tokens.capacity }

    /// The most tokens, and receipt entries, a migrator keeps room for between batches: one huge record (up to
    /// `--max-record-bytes`) must not leave its tape's memory held for the rest of the run.
    static let keptTokens = 1 << 16
    /// See `keptTokens`.
    static let keptEntries = TapeRecordReader.keptEntries

    /// Lets go of buffers grown past what ordinary records need (after a huge record), so memory stays flat.
    func trim() {
        if slots.tape.tokens.capacity > Self.keptTokens {
            slots = TapeSlots(tape: JSONTape(base: UnsafePointer(chunk), count: 0))
        }
        if history.capacity > Self.keptEntries { history = [] }
        reader.trim()
    }

    /// Frees the chunk.
    deinit {
        chunk.deallocate()
    }

    /// Reads `record` and calls `body` with its context (and view), the rule that matched (its index in
    /// `TapeMigration.rules`, the table's order), its route, and the tape index of the body; nil when the record is
    /// left to the model paths.
    func withMapped<R>(
        _ record: RawRecord,
        _ body: (MappingContext<TapeRecordView>, _ rule: Int, _ route: Int, _ bodyIndex: Int) -> R
    ) -> R? {
        record.bytes.withUnsafeBufferPointer { buffer -> R? in
            guard let base = buffer.baseAddress, !buffer.isEmpty, slots.load(base: base, count: buffer.count) else {
                return nil
            }
            let tape = slots.tape
            guard !tape.hasNonASCII else { return nil }
            do {
                let found = try TapeV1Decoder(tape: tape).locate()
                var view = try reader.read(slots, body: found.bodyIndex)
                defer { reader.recycle(&view) }
                guard let type = v1Type(view.notificationType, tape) else { return nil }
                // The history's storage handed over, not shared: a shared buffer would be copied for each record.
                var storage: [Int] = []
                swap(&storage, &history)
                var context = MappingContext(
                    view, dating: type.dating, cancellation: type.isCancellation, receivedAt: found.receivedAt,
                    reusing: consume storage)
                defer { history = context.takeHistory() }
                guard
                    let match = type.candidates.first(where: { candidate in
                        plan.rules[candidate.rule].conditions.allSatisfy { plan.engine.holds($0, context) }
                    })
                else { return nil }
                return body(context, match.rule, match.route, found.bodyIndex)
            } catch {
                return nil
            }
        }
    }

    /// Appends the record's V2 JSON line (with `\n`) to `out` and returns its route in `plan.routes`; nil (with
    /// nothing appended) when the record is left to the model paths.
    func migrate(_ record: RawRecord, into out: inout [UInt8]) -> Int? {
        withMapped(record) { context, ruleIndex, route, bodyIndex in
            let rule = plan.rules[ruleIndex]
            var sink = V2JSONSink(
                view: context.view, plan: plan, rule: rule, uuid: .digest(digest(context.view.tape, bodyIndex)),
                location: record.location, into: &out)
            V2Builder.emit(context, rule: rule.shape, into: &sink)
            sink.finish(into: &out)
            return route
        }
    }

    /// The rule at `index` of the table (`TapeMigration.rules`' order).
    func rule(_ index: Int) -> MappingRule {
        plan.engine.table.rules[index]
    }

    /// What the builder reads of the rule at `index`.
    func shape(_ index: Int) -> V2Builder.RuleShape {
        plan.rules[index].shape
    }

    /// Gives `body` the notificationUUID text (36 bytes) of the body at `index` of `tape`.
    func withNotificationUUID<R>(_ tape: JSONTape, _ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        uuidText.bytes.removeAll(keepingCapacity: true)
        uuidText.uuid(digest(tape, index))
        return uuidText.bytes.withUnsafeBytes { quoted in
            body(UnsafeRawBufferPointer(rebasing: quoted.dropFirst().dropLast()))
        }
    }

    /// The first 16 bytes of the SHA-1 of the namespace and the canonical body at `index`.
    private func digest(_ tape: JSONTape, _ index: Int) -> (UInt64, UInt64, UInt32) {
        var digest: (UInt64, UInt64, UInt32) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { raw in
            guard let d = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
                canonical.digest(prefix: namespace, tape, index, into: d)
            }
        }
        return digest
    }

    /// The plan's entry for the record's type; nil when no rule names it (an unmapped record).
    private func v1Type(_ token: Int32, _ tape: JSONTape) -> TapeMigration.V1Type? {
        let t = tape.tokens[Int(token)]
        let length = t.end - t.start
        // By index, each type's bytes read in place: iterating the types would copy (retain) each one.
        for k in plan.types.indices where plan.types[k].bytes.count == length {
            let same = plan.types[k].bytes.withUnsafeBufferPointer { bytes -> Bool in
                guard let p = bytes.baseAddress else { return length == 0 }
                return ByteTables.equal(p, tape.base + t.start, length)
            }
            if same { return plan.types[k] }
        }
        return nil
    }
}
