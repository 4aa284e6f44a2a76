import Foundation
import Testing
@testable import ASNMigrateKit

/// Apple's history derived from a clean simulation's V2 notifications (what Get Transaction History would return for the
/// same lifecycles), compared through the binary with the simulation's V1 archive: nothing is invented on real-shaped
/// data, and three faults made in the test (a transaction dropped from the history, a changed field, a lost V1
/// notification) are reported exactly.
@Suite(.serialized) struct APIViewOfSimulationTests {
    /// Apple's transactions per environment + originalTransactionId, merged per transactionId, from `v2` notifications.
    /// An overlapped transaction replaced by another product is upgraded, as Apple's history marks it.
    static func appleHistory(_ v2: String) throws -> [[String]: [JWSTransactionDecodedPayload]] {
        var byId: [[String]: JWSTransactionDecodedPayload] = [:]
        try V2RecordReader().read(try InputPaths.expand([v2])) { outcome in
            guard let t = outcome.record?.payload.data.transactionInfo, let id = t.transactionId else { return }
            let key = [t.environment ?? "", id]
            byId[key] = byId[key].map { TransactionReconciler.merged($0, t) } ?? t
        }
        var history: [[String]: [JWSTransactionDecodedPayload]] = [:]
        for t in byId.values { history[[t.environment ?? "", t.originalTransactionId ?? ""], default: []].append(t) }
        for key in history.keys {
            var list = (history[key] ?? []).sorted { ($0.purchaseDate ?? 0, $0.transactionId ?? "") < ($1.purchaseDate ?? 0, $1.transactionId ?? "") }
            for i in list.indices.dropLast() where list[i].productId != list[i + 1].productId
                && (list[i].expiresDate ?? 0) > (list[i + 1].purchaseDate ?? 0) && list[i].revocationDate == nil {
                list[i].isUpgraded = true
            }
            history[key] = list
        }
        return history
    }

    /// Writes one Get All Subscription Statuses response per subscription, fetched at `fetchedAt`: the latest transaction
    /// of the history, the renewal info of the subscription's latest V2 notification carrying one, and the status both
    /// imply at that instant (`V2Builder.status`).
    static func writeStatuses(_ history: [[String]: [JWSTransactionDecodedPayload]], v2: String, fetchedAt: Int64, to path: String) throws {
        var renewals: [[String]: (Int64, JWSRenewalInfoDecodedPayload)] = [:]
        try V2RecordReader().read(try InputPaths.expand([v2])) { outcome in
            guard let p = outcome.record?.payload, let r = p.data.renewalInfo, let otid = r.originalTransactionId else { return }
            let key = [p.data.environment ?? "", otid], time = p.signedDate ?? 0
            if (renewals[key]?.0 ?? Int64.min) <= time { renewals[key] = (time, r) }
        }
        var text = ""
        for key in history.keys.sorted(by: { $0.joined(separator: "|") < $1.joined(separator: "|") }) {
            guard let latest = history[key]?.last, latest.type == V2Builder.autoRenewableType, let renewal = renewals[key]?.1 else { continue }
            let status = V2Builder.status(latest, renewal: renewal, at: fetchedAt) ?? 2
            let entry = #"{"originalTransactionId":"\#(key[1])","status":\#(status),"signedTransactionInfo":"\#(V2Fixture.jws(bytes: JSONWriter.bytes(.object(latest.json))))","signedRenewalInfo":"\#(V2Fixture.jws(bytes: JSONWriter.bytes(.object(renewal.json))))"}"#
            text += #"{"fetchedAt":\#(fetchedAt),"environment":"\#(key[0])","bundleId":"com.example.app","appAppleId":1,"data":[{"subscriptionGroupIdentifier":"\#(latest.subscriptionGroupIdentifier ?? "")","lastTransactions":[\#(entry)]}]}"# + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Writes `history` as Get Transaction History pages (≤ 20 transactions, `hasMore`, `revision`), one per line.
    static func writePages(_ history: [[String]: [JWSTransactionDecodedPayload]], to path: String) throws {
        var text = ""
        for key in history.keys.sorted(by: { $0.joined(separator: "|") < $1.joined(separator: "|") }) {
            let list = history[key] ?? []
            for start in stride(from: 0, to: list.count, by: 20) {
                let page = list[start..<min(start + 20, list.count)]
                let signed = page.map { "\"" + V2Fixture.jws(bytes: JSONWriter.bytes(.object($0.json))) + "\"" }.joined(separator: ",")
                text += #"{"revision":"r\#(start)","hasMore":\#(start + 20 < list.count),"bundleId":"com.example.app","appAppleId":1,"environment":"\#(key[0])","signedTransactions":[\#(signed)]}"# + "\n"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The newest `signedDate` of the V2 notifications under `v2`.
    static func signedDates(_ v2: String) throws -> Int64 {
        var newest = Int64.min
        try V2RecordReader().read(try InputPaths.expand([v2])) { outcome in newest = max(newest, outcome.record?.payload.signedDate ?? Int64.min) }
        return newest
    }

    /// The transaction rows of a report as `kind otid field v1 v2`.
    static func rows(_ report: String) throws -> [String] {
        let csv = try CSVReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv"))), path: "differences.csv")
        return csv.records.map { "\($0.fields[0]) \($0.fields[2]) \($0.fields[10]) \($0.fields[11]) \($0.fields[12])" }.sorted()
    }

    @Test(arguments: [3, 11])
    func cleanSimulationHasNoTransactionDifferencesAndMadeFaultsAreReportedExactly(seed: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run(["simulate", "--subscribers", "100", "--seed", String(seed), "--out", data])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        var history = try Self.appleHistory(data + "/v2")
        try FileManager.default.createDirectory(atPath: tmp.path + "/api", withIntermediateDirectories: true)
        try Self.writePages(history, to: tmp.path + "/api/history.jsonl")

        let v2Times = try Self.signedDates(data + "/v2")
        try Self.writeStatuses(history, v2: data + "/v2", fetchedAt: v2Times + 60_000, to: tmp.path + "/api/statuses.jsonl")
        let clean = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/api", "--out", tmp.path + "/clean"])
        #expect(clean.status == 0, "clean data, no differences: \(clean.stderr)")
        #expect(try Self.rows(tmp.path + "/clean") == [])
        let summary = try String(contentsOfFile: tmp.path + "/clean/summary.csv", encoding: .utf8)
        let compared = summary.split(separator: "\n").first { $0.hasPrefix("statuses_compared,") }.flatMap { Int($0.dropFirst("statuses_compared,".count)) } ?? 0
        #expect(compared >= 50, "the statuses were compared, and agree: \(summary)")

        // Faults: drop one transaction from the history of a customer with several; change another's productId.
        let keys = history.keys.filter { (history[$0]?.count ?? 0) >= 4 }.sorted { $0.joined(separator: "|") < $1.joined(separator: "|") }
        try #require(keys.count >= 2)
        let dropped = try #require(history[keys[0]]?[2])
        history[keys[0]]?.remove(at: 2)
        let changedBefore = try #require(history[keys[1]]?[2])
        history[keys[1]]?[2].productId = "com.example.changed"
        try Self.writePages(history, to: tmp.path + "/api/history.jsonl")
        let faulty = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/api", "--out", tmp.path + "/faulty"])
        #expect(faulty.status == 1)
        #expect(try Self.rows(tmp.path + "/faulty") == [
            "transaction_field_mismatch \(keys[1][1]) productId \(changedBefore.productId ?? "") com.example.changed",
            "transaction_missing_in_v2 \(keys[0][1]) transactionId \(dropped.transactionId ?? "") ",
        ].sorted())
    }
}
