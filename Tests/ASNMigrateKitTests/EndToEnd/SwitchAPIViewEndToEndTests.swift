import Foundation
import Testing

@testable import ASNMigrateKit

/// `reconcile --switch` with Apple's view on the V2 side, through the built binary (README, The day you switch): our
/// records are V1 before the switch and the V2 notifications after it, and Apple's view is compared with them.
@Suite struct SwitchAPIViewEndToEndTests {
    /// A simulated switch, with Apple's view of every subscription.
    private static func simulate(_ tmp: TemporaryDirectory, seed: Int, switchDate: String) throws -> String {
        let out = tmp.path + "/sim\(seed)"
        let run = try BinaryRun.run([
            "simulate", "--subscribers", "300", "--seed", String(seed), "--months", "6", "--switch", switchDate,
            "--out", out
        ])
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    /// The transactionId inside a V2 notification line's signed transaction, with its notification type.
    private static func transaction(ofLine line: Substring) -> (type: String, id: String)? {
        func payload(_ jws: String) -> [String: Any]? {
            let parts = jws.split(separator: ".")
            guard parts.count == 3 else { return nil }
            var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
                of: "_", with: "/")
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            guard let data = Data(base64Encoded: text) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            let signed = object["signedPayload"] as? String, let body = payload(signed),
            let data = body["data"] as? [String: Any], let info = data["signedTransactionInfo"] as? String,
            let transaction = payload(info), let id = transaction["transactionId"] as? String
        else { return nil }
        return ((body["notificationType"] as? String) ?? "", id)
    }

    /// On clean data, every auto-renewable transaction Apple made after the switch was notified in V2, and every
    /// status fetched after the switch is compared with V1 before it and V2 after it: no transaction is missing, no
    /// status differs, and none is left uncompared as "after the V1 archive's end".
    @Test(arguments: [(1, "2021-04-01"), (8, "production=2021-03-10T12:00:00Z")])
    func cleanDataMissesNoTransactionAndComparesStatusesAfterTheSwitch(seed: Int, switchDate: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = try Self.simulate(tmp, seed: seed, switchDate: switchDate)
        let run = try BinaryRun.run([
            "reconcile", "--v1", sim + "/v1", "--v2", sim + "/v2", "--v2", sim + "/v2-api", "--switch", switchDate,
            "--out", tmp.path + "/r", "--run-date", "2022-01-01"
        ])
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        let figures = try ReportFiles.summary(tmp.path + "/r")
        let kinds = Set(try ReportFiles.rows(tmp.path + "/r/differences.csv").map { $0[0] })
        #expect(!kinds.contains("transaction_missing_in_v2"), "\(kinds)")
        #expect(!kinds.contains("state_mismatch"), "\(kinds)")
        if !switchDate.contains("=") {
            // Both environments switched: no status waits for a V1 archive that ended at the switch.
            #expect(figures["statuses_after_v1_end"] == "0", "\(figures)")
        }
        #expect(Int(figures["statuses_compared"] ?? "") ?? 0 > 100, "\(figures)")
        let after = Int(figures["v2_transactions_after_switch"] ?? "") ?? 0
        let notified = Int(figures["v2_transactions_notified"] ?? "") ?? 0
        let byDesign = Int(figures["v2_transactions_not_notified_by_design"] ?? "") ?? 0
        #expect(after > 100 && notified > 100, "\(figures)")
        // Each of Apple's transactions after the switch is notified, not notified by design, or pending at the edge.
        #expect(after - notified - byDesign <= Int(figures["v2_transactions_pending"] ?? "") ?? 0, "\(figures)")
    }

    /// V2 notifications that end months before Apple's view was fetched: nothing after their reach is a difference.
    /// Apple's later transactions are pending and its statuses are counted `statuses_after_v2_end`, not compared.
    @Test func notificationsEndingBeforeTheFetchInventNothing() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = try Self.simulate(tmp, seed: 6, switchDate: "2021-03-01")
        for month in ["2021-05", "2021-06", "2021-07"] {
            try? FileManager.default.removeItem(atPath: "\(sim)/v2/\(month).jsonl")
        }
        let run = try BinaryRun.run([
            "reconcile", "--v1", sim + "/v1", "--v2", sim + "/v2", "--v2", sim + "/v2-api", "--switch", "2021-03-01",
            "--out", tmp.path + "/r", "--run-date", "2022-01-01"
        ])
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        let kinds = Set(try ReportFiles.rows(tmp.path + "/r/differences.csv").map { $0[0] })
        #expect(kinds.isDisjoint(with: ["transaction_missing_in_v2", "state_mismatch"]), "\(kinds)")
        let figures = try ReportFiles.summary(tmp.path + "/r")
        #expect(Int(figures["statuses_after_v2_end"] ?? "") ?? 0 > 100, "\(figures)")
        #expect(figures["statuses_after_v1_end"] == "0", "\(figures)")
        #expect(Int(figures["v2_transactions_pending"] ?? "") ?? 0 > 50, "\(figures)")
    }

    /// V2 notifications of renewals dropped after the switch: exactly their transactions are
    /// `transaction_missing_in_v2`, each dated by its purchase with Apple's transactionId in `v2_value`.
    @Test func droppedRenewalNotificationsAreExactlyTheTransactionsMissingInV2() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = try Self.simulate(tmp, seed: 3, switchDate: "2021-03-01")
        // Every fifth DID_RENEW of April and May dropped, well inside what the V2 notifications reach.
        var dropped: Set<String> = []
        for month in ["2021-04", "2021-05"] {
            let path = "\(sim)/v2/\(month).jsonl"
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            var kept: [Substring] = []
            var renewals = 0
            for line in lines {
                if let t = Self.transaction(ofLine: line), t.type == "DID_RENEW" {
                    renewals += 1
                    if renewals % 5 == 0 {
                        dropped.insert(t.id)
                        continue
                    }
                }
                kept.append(line)
            }
            try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        try #require(dropped.count > 5)
        // A dropped renewal whose transaction another notification carries (a refund, an expiry) is still notified.
        var carried: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sim + "/v2") {
            for line in try String(contentsOfFile: "\(sim)/v2/\(name)", encoding: .utf8).split(separator: "\n") {
                if let t = Self.transaction(ofLine: line) { carried.insert(t.id) }
            }
        }
        let run = try BinaryRun.run([
            "reconcile", "--v1", sim + "/v1", "--v2", sim + "/v2", "--v2", sim + "/v2-api", "--switch", "2021-03-01",
            "--out", tmp.path + "/r", "--run-date", "2022-01-01"
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let missing = try ReportFiles.rows(tmp.path + "/r/differences.csv").filter {
            $0[0] == "transaction_missing_in_v2"
        }
        #expect(Set(missing.map { $0[12] }) == dropped.subtracting(carried), "\(missing)")
        #expect(missing.allSatisfy { $0[10] == "transactionId" && $0[11].isEmpty && !$0[4].isEmpty })
        let figures = try ReportFiles.summary(tmp.path + "/r")
        #expect(figures["transaction_missing_in_v2"] == String(missing.count))
    }
}
