import Foundation
import Testing

@testable import ASNMigrateKit

/// `reconcile` through the built binary with Apple's API view on the V2 side: history pages as JSON Lines and a
/// statuses response, against a V1 archive of envelopes.
@Suite(.serialized) struct ReconcileAPIViewEndToEndTests {
    typealias S = TransactionScenario

    /// Writes the scenario of `TransactionReconcilerTests` as files: V1 envelopes, history pages (two pages, the second
    /// with a placeholder JWS), and a statuses response.
    static func writeScenario(_ tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let a = S.tx("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let b = S.tx("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z")
        let c = S.tx("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        let x = S.tx("104", purchase: "2023-03-20T00:00:00Z", expires: "2023-04-20T00:00:00Z")
        let d = S.tx("105", purchase: "2023-04-01T00:00:00Z", expires: "2023-05-01T00:00:00Z")
        let y = S.tx("201", original: "2000000002", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        let records: [(String, String, [String], String)] = [
            ("INITIAL_BUY", "2023-01-01T00:01:00Z", [a], "true"),
            ("DID_RENEW", "2023-02-01T00:01:00Z", [a, b], "true"),
            ("INITIAL_BUY", "2023-03-01T00:01:00Z", [y], "true"),
            ("INTERACTIVE_RENEWAL", "2023-03-20T00:01:00Z", [a, b, c, x], "true"),
            ("DID_RENEW", "2023-04-01T00:01:00Z", [a, b, c, x, d], "true"),
            ("DID_CHANGE_RENEWAL_STATUS", "2023-06-01T00:00:00Z", [a, b, c, x, d], "false")
        ]
        let v1 =
            records.map { type, at, transactions, autoRenew in
                #"{"received_at":\#(V1Fixture.ms(at)),"body":\#(V1Fixture.body(type: type, transactions: transactions, autoRenewStatus: autoRenew))}"#
            }.joined(separator: "\n") + "\n"
        let jws = { (records: [V2APIRecord]) in
            records.compactMap { record -> String? in
                guard case .transaction(let t) = record else { return nil }
                return "\"" + V2Fixture.jws(bytes: JSONWriter.bytes(.object(t.payload.json))) + "\""
            }
        }
        let history = TransactionReconcilerTests.history()
        let page1 =
            #"{"revision":"r1","hasMore":true,"bundleId":"com.example.app","appAppleId":1,"environment":"Production","signedTransactions":[\#(jws(Array(history.prefix(5))).joined(separator: ","))]}"#
        let page2 =
            #"{"revision":"r2","hasMore":false,"bundleId":"com.example.app","appAppleId":1,"environment":"Production","signedTransactions":[\#(jws(Array(history.dropFirst(5))).joined(separator: ",")),"signed_transaction_value"]}"#
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = "1000000001"
        renewal.autoRenewStatus = 1
        renewal.isInBillingRetryPeriod = false
        let last = S.apple("105", purchase: "2023-04-01T00:00:00Z", expires: "2023-05-01T00:00:00Z")
        let statuses =
            #"{"fetchedAt":"2023-06-01T01:00:00Z","environment":"Production","bundleId":"com.example.app","appAppleId":1,"data":[{"subscriptionGroupIdentifier":"20000001","lastTransactions":[{"originalTransactionId":"1000000001","status":2,"signedTransactionInfo":"\#(V2Fixture.jws(bytes: JSONWriter.bytes(.object(last.json))))","signedRenewalInfo":"\#(V2Fixture.jws(bytes: JSONWriter.bytes(.object(renewal.json))))"}]}]}"#
        let v1Path = try tmp.write("v1/archive.jsonl", v1)
        _ = try tmp.write("api/history.jsonl", page1 + "\n" + page2 + "\n")
        _ = try tmp.write("api/statuses.json", statuses)
        return (v1Path, tmp.path + "/api")
    }

    private func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    @Test func reportsExactlyTheScenarioAndSaysTransactionsWereCompared() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.writeScenario(tmp)
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", report, "--max-reject-rate", "20%"])
        #expect(run.status == 1, "differences found: \(run.stderr)")
        #expect(
            run.stderr.contains(
                "transactions compared with Apple's App Store Server API view (no V2 notifications: notifications not compared)"
            ))
        let rows = try read(report + "/differences.csv").split(separator: "\n").dropFirst().map { line -> String in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return [cells[0], cells[2], cells[10], cells[11], cells[12]].joined(separator: " ")
        }
        #expect(
            rows.sorted() == [
                "state_mismatch 1000000001 autoRenewStatus 0 1",
                "transaction_field_mismatch 1000000001 productId pro.monthly pro.yearly",
                "transaction_missing_in_v1 1000000001 transactionId  106",
                "transaction_missing_in_v2 1000000001 transactionId 104 ",
                "unannounced_in_v1 1000000001 transactionId 103 "
            ])
        let summary = try read(report + "/summary.csv")
        for row in [
            "notifications_compared,no", "transactions_compared,yes", "v1_transactions,6", "v2_transactions,8",
            "v2_transactions_read,8",
            "matched_transactions,3", "not_fetched,1", "statuses_compared,1", "v1_records_read,6", "v2_rejected,1",
            "missing_in_v2,0", "v1_notifications_not_compared,6"
        ] {
            #expect(summary.contains(row + "\n"), "summary has \(row)")
        }
        #expect(try read(report + "/rejected.csv").contains("signedTransactions[3]"))

        // Same input, same bytes.
        let again = tmp.path + "/again"
        _ = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", again])
        for name in ReconciliationReport.fileNames {
            #expect(try read(report + "/" + name) == read(again + "/" + name), "\(name) is deterministic")
        }
    }

    @Test func sidesThatDoNotOverlapGetAWarningNotASilentlyEmptyPeriod() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (_, v2) = try Self.writeScenario(tmp)
        // An archive whose only event lies years before Apple's first purchase (2022-06-01 in the scenario): the default transaction period ends
        // before it starts.
        let old = S.tx("90", original: "2000000009", purchase: "2019-01-01T00:00:00Z", expires: "2019-02-01T00:00:00Z")
        let v1 = try tmp.write(
            "old/archive.jsonl",
            #"{"received_at":\#(V1Fixture.ms("2019-01-01T00:01:00Z")),"body":\#(V1Fixture.body(type: "INITIAL_BUY", transactions: [old], autoRenewStatus: "true"))}"#
                + "\n")
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/report", "--max-reject-rate", "20%"
        ])
        #expect(
            run.stderr.contains(
                "warning: the transaction period 2022-06-01T00:00:00.000Z .. 2019-01-01T00:01:00.000Z is empty"),
            "\(run.stderr)")
    }

    @Test func aV2SideHoldingNotificationsAndAPIResponsesGetsBothComparisons() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.writeScenario(tmp)
        // V2 notifications for the same archive: its own migration, so the notification comparison finds nothing.
        let migrate = try BinaryRun.run(["migrate", v1, "--out", v2 + "/notifications.jsonl"])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", report, "--max-reject-rate", "20%"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("transactions compared with Apple's App Store Server API view: period"))
        let summary = try read(report + "/summary.csv")
        for row in [
            "notifications_compared,yes", "transactions_compared,yes", "matched,6", "missing_in_v2,0",
            "missing_in_v1,0",
            "matched_transactions,3", "transaction_missing_in_v2,1", "unannounced_in_v1,1"
        ] {
            #expect(summary.contains(row + "\n"), "summary has \(row)")
        }
        #expect(!summary.contains("v1_notifications_not_compared"))
        let kinds = try read(report + "/differences.csv").split(separator: "\n").dropFirst().map {
            String($0.prefix { $0 != "," })
        }
        #expect(
            kinds.sorted() == [
                "state_mismatch", "transaction_field_mismatch", "transaction_missing_in_v1",
                "transaction_missing_in_v2", "unannounced_in_v1"
            ])
    }

    @Test func notificationRunsKeepTheirSummaryRows() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sample = "Tests/Fixtures/sample/v1/01-live-feed.jsonl"
        let migrated = tmp.path + "/m.jsonl"
        _ = try BinaryRun.run(["migrate", sample, "--out", migrated])
        let report = tmp.path + "/report"
        _ = try BinaryRun.run(["reconcile", "--v1", sample, "--v2", migrated, "--out", report])
        let summary = try read(report + "/summary.csv")
        #expect(!summary.contains("transactions_compared"))
        #expect(
            summary.contains("\nwindow_ms,172800000\ntime_tolerance_ms,0\ntime_precision_rows,0\nrun_date,"),
            "notification-only runs keep their rows, then the run's facts")
    }
}
