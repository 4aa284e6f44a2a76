import Foundation
import Testing

@testable import ASNMigrateKit

/// The V2 fast path (`V2RecordDecoder.tapeDecode`) gives exactly the reference path's outcomes wherever it answers, on
/// the sample, a simulation with injected faults, the shared corpus (when present), random signed records, and damaged
/// copies of all of them; and it does answer for the common form.
@Suite struct V2TapeDecoderTests {
    /// Compares both paths on `record`; returns whether the fast path answered. With `scratch`, the record is also
    /// decoded through buffers the records before it used.
    @discardableResult
    static func check(_ record: RawRecord, _ what: String, scratch: V2DecodeScratch? = nil) -> Bool {
        let decoder = V2RecordDecoder()
        let reference = decoder.referenceDecode(record)
        if let scratch {
            var outcomes: [V2ReadOutcome] = []
            decoder.decode(record, scratch: scratch, into: &outcomes)
            #expect(outcomes == reference, "\(what): reused buffers changed the outcome")
        }
        let fast = decoder.tapeDecode(record)
        checkPacked(record, what, decoder: decoder, reference: reference, fastRecord: fast?.first?.record != nil)
        guard let fast else { return false }
        #expect(fast == reference, "\(what): the fast path and the reference differ")
        #expect(decoder.decode(record) == reference, "\(what)")
        // Keeping only what `reconcile` reads: the same outcomes, digests and readings.
        var selective = decoder
        selective.members = ReconcilePass.v2Members
        let kept = selective.tapeDecode(record)
        #expect(kept?.count == reference.count, "\(what): the selective fast path declined or split the record")
        for (a, b) in zip(kept ?? [], reference) {
            #expect(Self.sameReadings(a, b), "\(what): keeping reconcile's members changed what reconcile reads")
        }
        return true
    }

    /// The facts `reconcile` packs from `record` straight from its bytes (`V2FactsPacker`) are those of the
    /// reference's record, with its fingerprint, price and currency; the packer answers wherever the fast path reads a
    /// record, and never packs what the reference rejects.
    static func checkPacked(
        _ record: RawRecord, _ what: String, decoder: V2RecordDecoder, reference: [V2ReadOutcome], fastRecord: Bool
    ) {
        let packer = V2FactsPacker()
        packer.texts.removeAll()
        _ = packer.texts.add("a text before the record's")
        guard packer.pack(record, decoder: decoder, scratch: V2DecodeScratch()) else {
            #expect(!fastRecord, "\(what): the packer declined a record the fast path reads")
            return
        }
        guard reference.count == 1, let expected = reference[0].record else {
            Issue.record("\(what): packed a record the reference does not read as one record: \(reference)")
            return
        }
        var texts = FactTexts()
        let facts = PackedFacts(expected, texts: &texts)
        #expect(packer.facts.facts(in: packer.texts) == facts.facts(in: texts), "\(what): packed facts differ")
        #expect(packer.facts.fingerprint == facts.fingerprint, "\(what): fingerprint")
        #expect(packer.facts.price == facts.price, "\(what): price")
        #expect(packer.texts.string(packer.facts.currency) == texts.string(facts.currency), "\(what): currency")
    }

    /// Whether two outcomes agree on everything `reconcile` reads: rejects equal, records at the same place with the
    /// same content digest and the same readings (`ReconcilePass.readings`).
    static func sameReadings(_ a: V2ReadOutcome, _ b: V2ReadOutcome) -> Bool {
        guard let x = a.record, let y = b.record else { return a == b }
        return x.location == y.location && x.contentDigest == y.contentDigest
            && x.signatureVerified == y.signatureVerified
            && ReconcilePass.readings(of: x.payload) == ReconcilePass.readings(of: y.payload)
    }

    /// `record` with a damage chosen by `r`: a flipped byte, a cut, or a byte repeated.
    static func damaged(_ record: RawRecord, _ r: inout SplitMix64) -> RawRecord {
        var bytes = record.bytes
        guard !bytes.isEmpty else { return record }
        let at = r.below(bytes.count)
        switch r.below(3) {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: r.next())
        case 1: bytes.removeSubrange(at...)
        default: bytes.insert(bytes[at], at: at)
        }
        return RawRecord(location: record.location, bytes: bytes)
    }

    /// A compact JWS whose payload is `object`, with a made-up header and signature.
    static func jws(_ object: JSONObject) -> String {
        "eyJhbGciOiJFUzI1NiJ9." + Base64.encodeURL(JSONWriter.bytes(.object(object))) + ".c2ln"
    }

    static func records(in directory: String) throws -> [RawRecord] {
        var records: [RawRecord] = []
        try RecordReader.forEach(in: try InputPaths.expand([directory])) { item in
            if case .record(let record) = item { records.append(record) }
        }
        return records
    }

    @Test func realRecordsAndTheirDamagedCopiesMatchTheReference() throws {
        var folders = [PackagePaths.sample.appendingPathComponent("v2").path]
        if let corpus = PackagePaths.corpusV1?.deletingLastPathComponent().appendingPathComponent("v2") {
            folders.append(corpus.path)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let simulated = try SimulationFixture.run(subscribers: 60, seed: 5, months: 4, inject: 0.05, into: directory)
        folders.append(simulated.out + "/v2")
        var r = SplitMix64(seed: 43)
        var simulatedAnswered = 0
        var simulatedTotal = 0
        for folder in folders {
            for record in try Self.records(in: folder) {
                let answered = Self.check(record, record.location.source)
                if folder.hasPrefix(simulated.out) {
                    simulatedTotal += 1
                    if answered { simulatedAnswered += 1 }
                }
                for n in 0..<3 { Self.check(Self.damaged(record, &r), "\(record.location.source) damage \(n)") }
            }
        }
        // The simulator writes the form archives hold ({"signedPayload": …}); the corpus and the sample mix every
        // form the reference reads, which the fast path leaves to it.
        #expect(
            simulatedTotal > 150 && simulatedAnswered == simulatedTotal,
            "the fast path answered \(simulatedAnswered) of \(simulatedTotal) simulated records")
    }

    @Test func randomSignedRecordsMatchTheReference() throws {
        var r = SplitMix64(seed: 47)
        let top = JSONByteSinkTests.keys(of: ResponseBodyV2DecodedPayload(notificationType: "X"))
        let data = JSONByteSinkTests.keys(of: NotificationData())
        let transaction = JSONByteSinkTests.keys(of: JWSTransactionDecodedPayload(JSONObject()))
        let renewal = JSONByteSinkTests.keys(of: JWSRenewalInfoDecodedPayload(JSONObject()))
        var answered = 0
        let scratch = V2DecodeScratch()
        for n in 0..<2_000 {
            var payload = JSONByteSinkTests.randomObject(top, &r)
            if r.below(10) != 0 { payload.members.append(.init(key: "notificationType", value: .string("DID_RENEW"))) }
            var dataObject = JSONByteSinkTests.randomObject(data, &r)
            for (keys, fields) in [
                (NotificationData.transactionKeys, transaction), (NotificationData.renewalKeys, renewal)
            ] {
                let info = JSONByteSinkTests.randomObject(fields, &r)
                switch r.below(5) {
                case 0: break
                case 1: dataObject.members.append(.init(key: keys.decoded, value: .object(info)))
                case 2: dataObject.members.append(.init(key: keys.signed, value: .string("eyJ9.bnVsbA.c2ln")))
                default: dataObject.members.append(.init(key: keys.signed, value: .string(Self.jws(info))))
                }
            }
            switch r.below(10) {
            case 0: payload.members.append(.init(key: "data", value: .string("not an object")))
            case 1: break
            default: payload.members.append(.init(key: "data", value: .object(dataObject)))
            }
            // The forms archives hold: signed, decoded, and decoded as `migrate` writes it (with `migration`).
            var body = JSONObject([.init(key: "signedPayload", value: .string(Self.jws(payload)))])
            switch r.below(4) {
            case 0: body = payload
            case 1:
                body = payload
                let migration: JSONValue =
                    r.below(5) == 0
                    ? .string("not an object")
                    : .object(
                        JSONObject([
                            .init(key: "source", value: .string("v1/2024-01.jsonl")),
                            .init(key: "line", value: .number(String(r.below(1000)))),
                            .init(key: "v1NotificationType", value: .string("DID_RENEW")),
                            .init(key: "rule", value: .string(r.below(8) == 0 ? "" : "renewal"))
                        ]))
                body.members.append(.init(key: "migration", value: migration))
            default: break
            }
            let record = RawRecord(
                location: SourceLocation(path: "random", line: n + 1), bytes: JSONWriter.bytes(.object(body)))
            if Self.check(record, "random record \(n) (seed 47)", scratch: scratch) { answered += 1 }
            Self.check(Self.damaged(record, &r), "random record \(n), damaged", scratch: scratch)
        }
        #expect(answered > 1_200, "the fast path answered only \(answered) of 2,000 random records")
    }
}
