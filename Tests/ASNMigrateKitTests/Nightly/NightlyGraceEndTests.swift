import Foundation
import Testing

@testable import ASNMigrateKit

/// A grace period that ends between two nights, with no record of its subscription that night: the period's end (the
/// instant states are judged at) moves past it with other subscriptions' records, and `nightly` must then say what one
/// `reconcile` over the same files says at that run date. Through the built binary.
@Suite(.serialized) struct NightlyGraceEndTests {
    /// The V1 line of `body` (an envelope received at `at`) and its V2 twin as `migrate` writes it, changed by `edit`.
    static func pair(_ body: String, at: String, edit: (inout ResponseBodyV2DecodedPayload) -> Void = { _ in }) throws
        -> (v1: String, v2: String)
    {
        let v1 = #"{"received_at":"\#(at)","source":"test","body":\#(body)}"#
        var p = try #require(try V1Fixture.map(v1).payload, "the V1 line maps")
        p.migration = nil
        edit(&p)
        return (v1, JSONWriter.string(.object(p.json)))
    }

    /// An INITIAL_BUY of subscription `id` at `at`, renewing a month later.
    static func bought(_ id: String, at: String, expires: String) throws -> (v1: String, v2: String) {
        try pair(
            V1Fixture.body(
                type: "INITIAL_BUY",
                transactions: [V1Fixture.tx(id: id, original: id, purchase: at, expires: expires)],
                pending: [V1Fixture.pending(original: id)]), at: at)
    }

    /// The rows of a report (nightly's or reconcile's), cut to `differences.csv`'s columns, sorted.
    static func rows(_ path: String) throws -> [String] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        return records.map { Array($0.fields.prefix(DifferenceRow.pricedColumns)).joined(separator: "|") }.sorted()
    }

    @Test func aGracePeriodEndingBetweenTwoNightsWithNoRecordThatNightIsJudgedAsReconcileJudgesIt() throws {
        let w = try NightlyWorkspace()
        defer { w.remove() }
        let graceEnd = "2021-02-15T00:00:00Z"
        // Subscription 1000000001 bought on 1 January, its renewal failed on 1 February: V1 says a grace period runs to
        // 15 February, V2's twin of the failure carries no grace period (billing retry only).
        let buy = try Self.bought("1000000001", at: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z")
        let failed = try Self.pair(
            V1Fixture.body(
                type: "DID_FAIL_TO_RENEW",
                transactions: [
                    V1Fixture.tx(
                        id: "1000000001", original: "1000000001", purchase: "2021-01-01T00:00:00Z",
                        expires: "2021-02-01T00:00:00Z")
                ],
                pending: [
                    V1Fixture.pending(
                        original: "1000000001",
                        extra: [
                            "is_in_billing_retry_period": "1",
                            "grace_period_expires_date_ms": String(V1Fixture.ms(graceEnd))
                        ])
                ]), at: "2021-02-01T00:00:05Z"
        ) { p in p.data.renewalInfo?.gracePeriodExpiresDate = nil }
        // Other subscriptions set where the data ends: 10 February on night 1, 20 February on night 2.
        let other1 = try Self.bought("2000000001", at: "2021-02-10T00:00:00Z", expires: "2021-03-10T00:00:00Z")
        let other2 = try Self.bought("3000000001", at: "2021-02-20T00:00:00Z", expires: "2021-03-20T00:00:00Z")
        try w.arrive("v1/a.jsonl", [buy.v1, failed.v1, other1.v1])
        try w.arrive("v2/a.jsonl", [buy.v2, failed.v2, other1.v2])

        let night1 = try w.run("2021-06-01")
        #expect([0, 1].contains(night1.status), "\(night1.stderr)")
        let open1 = try Self.rows(w.reports + "/2021-06-01/open.csv")
        let inGrace = open1.filter { $0.hasPrefix("state_mismatch|") && $0.contains("|1000000001|") }
        #expect(
            inGrace.count == 1 && inGrace.first?.contains("|active|true|false|") == true,
            "on 10 February V1 is in its grace period (service), V2 in billing retry: \(open1)")

        // Night 2: only the other subscription's records arrive; the period now ends after the grace period did.
        try w.arrive("v1/b.jsonl", [other2.v1])
        try w.arrive("v2/b.jsonl", [other2.v2])
        let night2 = try w.run("2021-06-02")
        #expect([0, 1].contains(night2.status), "\(night2.stderr)")
        #expect(
            try w.query("SELECT COUNT(*) FROM change_points WHERE at_ms = \(V1Fixture.ms(graceEnd))") == "1",
            "the grace period's end is a change point of its subscription")

        let reconcile = try BinaryRun.run([
            "reconcile", "--v1", w.v1, "--v2", w.v2, "--out", w.tmp.path + "/reconcile", "--run-date", "2021-06-02"
        ])
        #expect([0, 1].contains(reconcile.status), "\(reconcile.stderr)")
        let differences = try Self.rows(w.tmp.path + "/reconcile/differences.csv")
        #expect(
            !differences.contains { $0.hasPrefix("state_mismatch|") && $0.contains("|1000000001|") },
            "after the grace period both sides say billing retry: \(differences)")
        let open2 = try Self.rows(w.reports + "/2021-06-02/open.csv")
        #expect(
            open2 == differences,
            "only nightly: \(Set(open2).subtracting(differences)); only reconcile: \(Set(differences).subtracting(open2))"
        )
        #expect(
            try Self.rows(w.reports + "/2021-06-02/pending.csv") == Self.rows(w.tmp.path + "/reconcile/pending.csv"))
        let resolved = try Self.rows(w.reports + "/2021-06-02/resolved.csv")
        #expect(resolved == inGrace, "the grace period's row is resolved that night: \(resolved)")
    }
}
