import Foundation
import Testing

@testable import ASNMigrateKit

/// `reconcile --ignore-field` on the transaction comparison (Apple's API view on the V2 side), run in process.
@Suite struct ReconcileIgnoreFieldTests {
    typealias S = TransactionScenario

    /// Three V1 notifications of one subscription, and Apple's history of it where transaction 102 says quantity 2.
    static func write(_ tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let a = S.tx("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let b = S.tx("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z")
        let c = S.tx("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        let v1 =
            [
                ("INITIAL_BUY", "2023-01-01T00:01:00Z", [a]), ("DID_RENEW", "2023-02-01T00:01:00Z", [a, b]),
                ("DID_RENEW", "2023-03-01T00:01:00Z", [a, b, c])
            ]
            .map { type, at, transactions in
                #"{"received_at":\#(V1Fixture.ms(at)),"body":\#(V1Fixture.body(type: type, transactions: transactions))}"#
            }.joined(separator: "\n") + "\n"
        var apple = [
            S.apple("101", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z"),
            S.apple("102", purchase: "2023-02-01T00:00:00Z", expires: "2023-03-01T00:00:00Z"),
            S.apple("103", purchase: "2023-03-01T00:00:00Z", expires: "2023-04-01T00:00:00Z")
        ]
        apple[1].quantity = 2
        let signed = apple.map { "\"" + V2Fixture.jws(bytes: JSONWriter.bytes(.object($0.json))) + "\"" }.joined(
            separator: ",")
        let page =
            #"{"revision":"r1","hasMore":false,"bundleId":"com.example.app","appAppleId":1,"environment":"Production","signedTransactions":[\#(signed)]}"#
        return (try tmp.write("v1/archive.jsonl", v1), try tmp.write("api/history.jsonl", page + "\n"))
    }

    /// The data rows of a report's differences.csv as `kind field v1 v2`.
    static func rows(_ report: String) throws -> [String] {
        let csv = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv"))), path: "differences.csv")
        return csv.records.map { "\($0.fields[0]) \($0.fields[10]) \($0.fields[11]) \($0.fields[12])" }
    }

    @Test func quantityIsReportedUnlessIgnored() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.write(tmp)
        let compared = CapturedConsole()
        #expect(
            ASNMigrateCLI.run(
                ["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/compared"], console: compared.console)
                == .findings,
            "\(compared.stderr)")
        #expect(try Self.rows(tmp.path + "/compared") == ["transaction_field_mismatch quantity 1 2"])

        let ignored = CapturedConsole()
        #expect(
            ASNMigrateCLI.run(
                ["reconcile", "--v1", v1, "--v2", v2, "--ignore-field", "quantity", "--out", tmp.path + "/ignored"],
                console: ignored.console) == .success, "\(ignored.stderr)")
        #expect(try Self.rows(tmp.path + "/ignored") == [])
    }
}
