import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// `simulate`'s API view (`DIR/v2-api/`, Apple's history and statuses for the same lifecycles) against the simulation's
/// V1 archive through the binary: nothing is invented on real-shaped data, and two faults made in the test on a history
/// derived the same way (a transaction dropped, a changed field) are reported exactly.
@Suite(.serialized) struct APIViewOfSimulationTests {
    /// Apple's transactions per environment + originalTransactionId, from the `v2` notifications (`SimulatedAPIView`).
    static func appleHistory(_ v2: String) throws -> [[String]: [JWSTransactionDecodedPayload]] {
        var payloads: [ResponseBodyV2DecodedPayload] = []
        try V2RecordReader().read(try InputPaths.expand([v2])) { outcome in
            if let p = outcome.record?.payload { payloads.append(p) }
        }
        return SimulatedAPIView.derive(payloads).history
    }

    /// Writes `history` as Get Transaction History pages (≤ 20 transactions, `hasMore`, `revision`), one per line.
    static func writePages(_ history: [[String]: [JWSTransactionDecodedPayload]], to path: String) throws {
        var text = ""
        for key in history.keys.sorted(by: { $0.joined(separator: "|") < $1.joined(separator: "|") }) {
            let list = history[key] ?? []
            for start in stride(from: 0, to: list.count, by: 20) {
                let page = list[start..<min(start + 20, list.count)]
                let signed = page.map { "\"" + V2Fixture.jws(bytes: JSONWriter.bytes(.object($0.json))) + "\"" }.joined(
                    separator: ",")
                text +=
                    #"{"revision":"r\#(start)","hasMore":\#(start + 20 < list.count),"bundleId":"com.example.app","appAppleId":1,"environment":"\#(key[0])","signedTransactions":[\#(signed)]}"#
                    + "\n"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The transaction rows of a report as `kind otid field v1 v2`.
    static func rows(_ report: String) throws -> [String] {
        let csv = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv"))), path: "differences.csv")
        return csv.records.map { "\($0.fields[0]) \($0.fields[2]) \($0.fields[10]) \($0.fields[11]) \($0.fields[12])" }
            .sorted()
    }

    @Test(arguments: [3, 11])
    func cleanSimulationHasNoTransactionDifferencesAndMadeFaultsAreReportedExactly(seed: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run(["simulate", "--subscribers", "100", "--seed", String(seed), "--out", data])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        // simulate's own API view (history pages and statuses, environments apart) agrees with the V1 archive.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: data + "/v2-api").sorted()
                == [
                    "history-Production.jsonl", "history-Sandbox.jsonl", "statuses-Production.jsonl",
                    "statuses-Sandbox.jsonl"
                ])
        let clean = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--out", tmp.path + "/clean"
        ])
        #expect(clean.status == 0, "clean data, no differences: \(clean.stderr)")
        #expect(try Self.rows(tmp.path + "/clean") == [])
        let summary = try String(contentsOfFile: tmp.path + "/clean/summary.csv", encoding: .utf8)
        let compared =
            summary.split(separator: "\n").first { $0.hasPrefix("statuses_compared,") }.flatMap {
                Int($0.dropFirst("statuses_compared,".count))
            } ?? 0
        #expect(compared >= 50, "the statuses were compared, and agree: \(summary)")

        // A status changed on Apple's side: exactly one state_mismatch row, on the item changed.
        let statusesPath = data + "/v2-api/statuses-Production.jsonl"
        var statusLines = try String(contentsOfFile: statusesPath, encoding: .utf8).split(separator: "\n").map(
            String.init)
        let target = try #require(statusLines.firstIndex { $0.contains(#""status":1,"#) }, "an active subscription")
        statusLines[target] = statusLines[target].replacingOccurrences(of: #""status":1,"#, with: #""status":3,"#)
        try Data((statusLines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: statusesPath))
        let changed = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--out", tmp.path + "/changed"
        ])
        #expect(changed.status == 1)
        let changedRows = try Self.rows(tmp.path + "/changed")
        #expect(
            changedRows.count == 1 && changedRows.first?.hasPrefix("state_mismatch ") == true
                && changedRows.first?.hasSuffix(" status 1 3") == true,
            "\(changedRows)")

        var history = try Self.appleHistory(data + "/v2")
        try FileManager.default.createDirectory(atPath: tmp.path + "/api", withIntermediateDirectories: true)
        // Faults: drop one transaction from the history of a customer with several; change another's productId.
        let keys = history.keys.filter { (history[$0]?.count ?? 0) >= 4 }.sorted {
            $0.joined(separator: "|") < $1.joined(separator: "|")
        }
        try #require(keys.count >= 2)
        let dropped = try #require(history[keys[0]]?[2])
        history[keys[0]]?.remove(at: 2)
        let changedBefore = try #require(history[keys[1]]?[2])
        history[keys[1]]?[2].productId = "com.example.changed"
        try Self.writePages(history, to: tmp.path + "/api/history.jsonl")
        let faulty = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/api", "--out", tmp.path + "/faulty"
        ])
        #expect(faulty.status == 1)
        #expect(
            try Self.rows(tmp.path + "/faulty")
                == [
                    "transaction_field_mismatch \(keys[1][1]) productId \(changedBefore.productId ?? "") com.example.changed",
                    "transaction_missing_in_v2 \(keys[0][1]) transactionId \(dropped.transactionId ?? "") "
                ].sorted())
    }
}
