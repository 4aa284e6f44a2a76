import Foundation
import Testing

@testable import ASNMigrateKit

/// What `APIViewStore` keeps of Apple's API view and the V1 transaction facts reads back as `reconcile` compares it.
@Suite struct APIViewStoreTests {
    /// The one comparison both modes run, per subscription: `reconcile`'s engine over every record gives, for each
    /// subscription, exactly the rows the same engine gives over that subscription's facts and answers alone as the
    /// state keeps and reads them back, judged by the whole run's spans (which the state's spans equal).
    @Test func eachSubscriptionComparedAloneFromTheStateGetsTheRowsOfTheWholeRun() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, _) = try NightlyAPIViewTests.workspace(tmp)
        let store = try NightlyStore(path: tmp.path + "/state.sqlite")
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        var v1: [V1RecordFacts] = []
        var v2: [V2APIRecord] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sim + "/v1").sorted() {
            let path = sim + "/v1/" + name
            let file = try store.ledger.beginFile(
                path: path, side: "v1", size: 0, mtimeMs: 0, sha1: name, date: "2021-04-03", run: 1)
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            for (n, line) in lines.enumerated() {
                let raw = RawRecord(location: SourceLocation(path: path, line: n + 1), bytes: Array(line.utf8))
                guard let facts = V1TransactionCollector.facts(of: raw, parser: parser) else { continue }
                v1.append(facts)
                _ = try store.apiView.insertV1Transactions(facts, file: file)
            }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: sim + "/v2-api").sorted() {
            let path = sim + "/v2-api/" + name
            let file = try store.ledger.beginFile(
                path: path, side: "v2", size: 0, mtimeMs: 0, sha1: name, date: "2021-04-03", run: 1)
            try V2RecordReader().read(InputFile(path: path)) { outcome in
                guard case .api(let record) = outcome else { return }
                v2.append(record)
                _ = try store.apiView.insertAPIRecord(record, file: file)
            }
        }
        let whole = TransactionScenario.compare(v1, v2)
        let spans = try store.apiView.apiViewSpans()
        let purchases = v2.compactMap { record -> Int64? in
            guard case .transaction(let t) = record else { return nil }
            return t.payload.purchaseDate
        }
        #expect(spans.v2 == purchases.min().flatMap { low in purchases.max().map { low...$0 } })
        var collector = V1TransactionCollector()
        for facts in v1 { collector.add(facts) }
        #expect(spans.v1 == collector.eventRange)
        var compared = 0
        for key in try store.facts.allSubscriptions().sorted() {
            var engine = TransactionReconciler(rules: .builtIn, options: ReconcileOptions())
            for record in try store.apiView.apiRecords(of: key) { engine.add(record) }
            var own = V1TransactionCollector(statusSubscriptions: engine.statusSubscriptions)
            for facts in try store.apiView.v1Transactions(of: key) { own.add(facts) }
            let alone = TransactionScenario.rows(engine.finish(v1: own, spans: spans))
            let among = TransactionScenario.rows(
                TransactionComparison(
                    differences: whole.differences.filter {
                        $0.environment == key.environment && $0.originalTransactionId == key.originalTransactionId
                    }, summary: whole.summary))
            #expect(alone == among, "\(key)")
            compared += alone.count
        }
        #expect(compared == whole.differences.count && compared > 0, "every row is some subscription's")
    }
}
