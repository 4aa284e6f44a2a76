import Foundation
import Testing

@testable import ASNMigrateKit

/// The period rule through the built binary: rejected input never moves the default period, and pending.csv is written.
@Suite(.serialized) struct ReconcilePeriodEndToEndTests {
    private static let v1File = "Tests/Fixtures/sample/v1/01-live-feed.jsonl"

    @Test func rejectedLinesWithFarDatesDoNotMoveTheDefaultPeriod() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = tmp.path + "/v2.jsonl"
        let migrate = try BinaryRun.run(["migrate", Self.v1File, "--out", migrated])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        // Lines that carry dates years away from the data but cannot be read as records.
        let badV1 = tmp.path + "/bad-v1.jsonl"
        let badV2 = tmp.path + "/bad-v2.jsonl"
        try Data(
            #"""
            {"received_at":"2035-06-01T00:00:00Z","body":{"environment":"PROD","auto_renew_status":"true"}}
            {"received_at":"2001-01-01T00:00:00Z","body":{"notification_type":"DID_RENEW","environment":PROD}}

            """#.utf8
        ).write(to: URL(fileURLWithPath: badV1))
        try Data(
            #"""
            {"notificationType":"DID_RENEW","signedDate":2050000000000,"data":{"environment":"Production","signedTransactionInfo":"not-a-jws"}}
            {"signedPayload":"this-is-not-a-jws","signedDate":900000000000}

            """#.utf8
        ).write(to: URL(fileURLWithPath: badV2))

        let clean = try BinaryRun.run(["reconcile", "--v1", Self.v1File, "--v2", migrated, "--out", tmp.path + "/clean"]
        )
        #expect(clean.status == 0, "\(clean.stderr)")
        let dirty = try BinaryRun.run([
            "reconcile", "--v1", Self.v1File, "--v1", badV1, "--v2", migrated, "--v2", badV2, "--out",
            tmp.path + "/dirty"
        ])
        #expect(
            dirty.status == 3, "2 rejects among a handful of records fail the 1% reject-rate check: \(dirty.stderr)")
        let a = try ReportFiles.summary(tmp.path + "/clean")
        let b = try ReportFiles.summary(tmp.path + "/dirty")
        #expect(b["v1_rejected"] == "2" && b["v2_rejected"] == "2", "\(b)")
        #expect(a["period_start"] != nil && a["period_start"] == b["period_start"])
        #expect(a["period_end"] != nil && a["period_end"] == b["period_end"])
        #expect(b["matched"] == a["matched"] && b["v1_out_of_period"] == "0" && b["v2_out_of_period"] == "0")
        let pending = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/dirty/pending.csv")), as: UTF8.self)
        #expect(pending == Discrepancy.columns.joined(separator: ",") + "\n")
    }

    /// A `--from` after the end of the data judges nothing, and the console says why in terms of the options given.
    @Test func aFromAfterTheDataSaysThePeriodIsEmpty() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = tmp.path + "/m.jsonl"
        _ = try BinaryRun.run(["migrate", Self.v1File, "--out", migrated])
        let run = try BinaryRun.run([
            "reconcile", "--v1", Self.v1File, "--v2", migrated, "--from", "2030-01-01", "--out", tmp.path + "/r"
        ])
        #expect(run.stderr.contains("warning: the period 2030-01-01T00:00:00.000Z .. "), "\(run.stderr)")
        #expect(run.stderr.contains("--from/--to lie outside them), so nothing was judged"))
    }
}
