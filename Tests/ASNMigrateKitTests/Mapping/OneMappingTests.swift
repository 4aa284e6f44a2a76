import Foundation
import Testing

@testable import ASNMigrateKit

/// The mapping is written once (`MappingContext`, `V2Builder.emit`) over two views of a record (the models, the tape)
/// into three sinks (the models, `migrate`'s JSON bytes, `reconcile`'s packed facts): for random, shaped and damaged V1 bodies, every pair of view
/// and sink gives the reference's record (byte for byte once written; the facts `RecordFacts` reads of it), and the tape view answers every ordinary body.
@Suite struct OneMappingTests {
    /// The built-in mapping table.
    static let table: MappingTable = FastRecordMapperTests.table
    /// The plan of the table.
    static let plan = TapeMigration(table: table)
    /// The reference.
    static let reference = V1RecordMapper(table: table)

    /// The four outputs of `record` (model view or tape view, into the model sink or the JSON sink) against the
    /// reference's line; returns whether the tape view answered.
    @discardableResult
    static func check(_ record: RawRecord, _ migrator: TapeMigrator, _ label: @autoclosure () -> String) -> Bool {
        let mapped = reference.mapKeepingBody(record)
        guard case .migrated(let payload) = mapped.outcome, let body = mapped.body else {
            let answered = migrator.withMapped(record) { _, _, _, _ in true } ?? false
            #expect(!answered, "the tape view maps what the reference does not: \(label())")
            return false
        }
        var expected: [UInt8] = []
        MigrationOutput.appendJSONLine(payload, to: &expected)
        let location = record.location
        let uuid = payload.notificationUUID ?? ""

        // The model view, into both sinks.
        let context = ModelContext(body: body, receivedAt: mapped.receivedAt)
        guard let rule = reference.engine.firstMatch(context),
            let ruleIndex = table.rules.firstIndex(where: { $0.id == rule.id })
        else {
            Issue.record("no rule for a migrated record: \(label())")
            return false
        }
        var models = V2ModelSink(view: body, rule: rule, uuid: uuid, location: location)
        V2Builder.emit(context, rule: V2Builder.RuleShape(rule), into: &models)
        expectLine(models.payload, expected, "model view, model sink: \(label())")
        var bytes: [UInt8] = []
        var json = V2JSONSink(
            view: body, plan: plan, rule: plan.rules[ruleIndex], uuid: .text(uuid), location: location, into: &bytes)
        V2Builder.emit(context, rule: V2Builder.RuleShape(rule), into: &json)
        json.finish(into: &bytes)
        expectBytes(bytes, expected, "model view, JSON sink: \(label())")
        let expectedFacts = RecordFacts(payload, kind: .migrated, location: SourceLocation(path: ""))
        expectFacts(body, context, rule, uuid, location, expectedFacts, "model view, facts sink: \(label())")

        // The tape view, into both sinks.
        let answered =
            migrator.withMapped(record) { context, index, _, _ -> Bool in
                #expect(index == ruleIndex, "another rule: \(label())")
                var models = V2ModelSink(view: context.view, rule: rule, uuid: uuid, location: location)
                V2Builder.emit(context, rule: plan.rules[index].shape, into: &models)
                expectLine(models.payload, expected, "tape view, model sink: \(label())")
                var bytes: [UInt8] = []
                var json = V2JSONSink(
                    view: context.view, plan: plan, rule: plan.rules[index], uuid: .text(uuid), location: location,
                    into: &bytes)
                V2Builder.emit(context, rule: plan.rules[index].shape, into: &json)
                json.finish(into: &bytes)
                expectBytes(bytes, expected, "tape view, JSON sink: \(label())")
                expectFacts(
                    context.view, context, rule, uuid, location, expectedFacts, "tape view, facts sink: \(label())")
                return true
            } ?? false
        var direct: [UInt8] = []
        if migrator.migrate(record, into: &direct) != nil {
            expectBytes(direct, expected, "tape view, migrate: \(label())")
        }
        return answered
    }

    /// The facts sink's facts of the record are `expected`.
    static func expectFacts<View: V1RecordView>(
        _ view: View, _ context: MappingContext<View>, _ rule: MappingRule, _ uuid: String,
        _ location: ASNMigrateKit.SourceLocation, _ expected: RecordFacts, _ label: String
    ) {
        var texts = FactTexts()
        var ranks: [UInt8] = []
        var text = uuid
        let packed = text.withUTF8 { uuid in
            var sink = V2FactsSink(
                view: view, rule: rule, uuid: UnsafeRawBufferPointer(uuid), location: location, texts: &texts,
                ranks: &ranks)
            V2Builder.emit(context, rule: V2Builder.RuleShape(rule), into: &sink)
            return sink.finish(texts: &texts, ranks: &ranks)
        }
        let facts = packed.facts(in: texts)
        #expect(facts == expected, "\(label)")
    }

    /// The payload, written, is `expected`.
    static func expectLine(_ payload: ResponseBodyV2DecodedPayload, _ expected: [UInt8], _ label: String) {
        var line: [UInt8] = []
        MigrationOutput.appendJSONLine(payload, to: &line)
        expectBytes(line, expected, label)
    }

    /// The bytes are `expected`.
    static func expectBytes(_ bytes: [UInt8], _ expected: [UInt8], _ label: String) {
        guard bytes != expected else { return }
        Issue.record(
            "\(label)\ngot:       \(String(decoding: bytes, as: UTF8.self))reference: \(String(decoding: expected, as: UTF8.self))"
        )
    }

    /// A record at a fixed location.
    static func record(_ text: String, line: Int) -> RawRecord {
        RawRecord(location: SourceLocation(path: "in \"dir\"/a.jsonl", line: line), bytes: Array(text.utf8))
    }

    @Test func randomBodiesOfEveryShapeTheMappingReads() {
        var random = SplitMix64(seed: 43)
        let migrator = TapeMigrator(plan: Self.plan)
        var answered = 0
        let rounds = 2000
        for round in 0..<rounds {
            let text = TapeMigratorSamples.body(using: &random)
            if Self.check(Self.record(text, line: round + 1), migrator, "round \(round): \(text)") { answered += 1 }
        }
        // Most generated bodies are ordinary: the tape view must answer them, or this proves little.
        #expect(answered > rounds / 2)
    }

    @Test func fastPathVariants() {
        let migrator = TapeMigrator(plan: Self.plan)
        var answered = 0
        for (n, text) in FastV1Samples.variants.enumerated()
        where Self.check(Self.record(text, line: n + 1), migrator, "variant \(n): \(text)") {
            answered += 1
        }
        #expect(answered >= FastV1Samples.variants.count / 3)
    }

    @Test func damagedBodies() {
        var random = SplitMix64(seed: 91)
        let migrator = TapeMigrator(plan: Self.plan)
        for round in 0..<1500 {
            var bytes = Array(TapeMigratorSamples.body(using: &random).utf8)
            let at = random.below(bytes.count)
            switch round % 3 {
            case 0: bytes = Array(bytes[..<at])
            case 1: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(6)))
            }
            let record = RawRecord(location: SourceLocation(path: "m.jsonl", line: round + 1), bytes: bytes)
            Self.check(record, migrator, "mutation \(round): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    /// A sink that drops a member the builder gives is caught: the check compares whole lines.
    @Test func aSinkDroppingAMemberIsCaught() {
        var random = SplitMix64(seed: 7)
        var caught = 0
        for round in 0..<200 {
            let record = Self.record(TapeMigratorSamples.body(using: &random), line: round + 1)
            let mapped = Self.reference.mapKeepingBody(record)
            guard case .migrated(let payload) = mapped.outcome, let body = mapped.body,
                let product = payload.data.transactionInfo?.productId
            else { continue }
            let context = ModelContext(body: body, receivedAt: mapped.receivedAt)
            guard let rule = Self.reference.engine.firstMatch(context) else { continue }
            var sink = DroppingSink(
                inner: V2ModelSink(
                    view: body, rule: rule, uuid: payload.notificationUUID ?? "", location: record.location))
            V2Builder.emit(context, rule: V2Builder.RuleShape(rule), into: &sink)
            #expect(sink.inner.payload.data.transactionInfo?.productId == nil)
            if sink.inner.payload != payload { caught += 1 }
            #expect(!product.isEmpty)
        }
        #expect(caught > 0)
    }
}

/// A model sink that loses `productId`: what a sink forgetting a member looks like.
private struct DroppingSink: V2Sink {
    typealias View = ResponseBodyV1
    /// The sink it wraps.
    var inner: V2ModelSink<ResponseBodyV1>
    mutating func begin(signedDate: Int64?) { inner.begin(signedDate: signedDate) }
    mutating func open(_ object: V2Object) { inner.open(object) }
    mutating func close(_ object: V2Object) { inner.close(object) }
    mutating func text(_ member: V2Member, _ value: String?) {
        if member != .productId { inner.text(member, value) }
    }
    mutating func int(_ member: V2Member, _ value: Int64?) { inner.int(member, value) }
    mutating func flag(_ member: V2Member, _ value: Bool?) { inner.flag(member, value) }
    mutating func constant(_ member: V2Member, _ value: V2Constant) { inner.constant(member, value) }
    mutating func environment(_ value: V2Environment<String>?) { inner.environment(value) }
    mutating func end(v1Type: String, eventTimeInferred: Bool) {
        inner.end(v1Type: v1Type, eventTimeInferred: eventTimeInferred)
    }
}
