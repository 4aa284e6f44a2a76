import Foundation
import Testing

@testable import ASNMigrateKit

/// Apple's subscription statuses against V1's state at the fetch time.
@Suite struct SubscriptionStatusComparisonTests {
    typealias S = TransactionScenario

    /// A status of subscription 1000000001 fetched at `fetched`.
    static func status(
        _ code: Int, autoRenew: Int, expires: String, fetched: String?, grace: String? = nil, retry: Bool = false
    ) -> V2APIRecord {
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = "1000000001"
        renewal.autoRenewStatus = autoRenew
        renewal.autoRenewProductId = "pro.monthly"
        renewal.isInBillingRetryPeriod = retry
        renewal.gracePeriodExpiresDate = grace.map(V1Fixture.ms)
        let transaction = S.apple("105", purchase: "2023-04-01T00:00:00Z", expires: expires)
        return .status(
            V2SubscriptionStatus(
                environment: "Production", originalTransactionId: "1000000001", subscriptionGroupIdentifier: "20000001",
                status: code, transaction: transaction, renewal: renewal, fetchedAt: fetched.map(V1Fixture.ms),
                location: SourceLocation(path: "statuses.json", line: 1, index: 0)))
    }

    @Test func agreeingStatusGivesNoRows() throws {
        // At 06-01T01:00 V1 knows: auto-renew turned off, last transaction D expired 05-01: expired (2).
        let result = S.compare(
            try TransactionReconcilerTests.archive(),
            TransactionReconcilerTests.history() + [
                Self.status(2, autoRenew: 0, expires: "2023-05-01T00:00:00Z", fetched: "2023-06-01T01:00:00Z")
            ])
        #expect(!result.differences.contains { $0.kind == .stateMismatch })
        #expect(result.count("statuses_compared") == 1)
        #expect(result.count("status_state_mismatch") == 0)
    }

    @Test func eachDifferingItemIsOneStateMismatchRow() throws {
        let result = S.compare(
            try TransactionReconcilerTests.archive(),
            [
                Self.status(
                    4, autoRenew: 1, expires: "2023-06-01T00:00:00Z", fetched: "2023-06-01T01:00:00Z",
                    grace: "2023-06-10T00:00:00Z")
            ])
        let rows = result.differences.filter { $0.kind == .stateMismatch }.map {
            "\($0.field) \($0.v1Value) \($0.v2Value)"
        }.sorted()
        #expect(
            rows == [
                "autoRenewStatus 0 1",
                "expiresDate 2023-05-01T00:00:00.000Z 2023-06-01T00:00:00.000Z",
                "gracePeriodExpiresDate  2023-06-10T00:00:00.000Z",
                "status 2 4"
            ])
        #expect(result.differences.allSatisfy { $0.eventDate == V1Fixture.ms("2023-06-01T01:00:00Z") })
        #expect(result.count("status_state_mismatch") == 1)
    }

    @Test func aStatusesResponseSavedTwiceIsComparedOnce() throws {
        // Found while building `fetch`: one statuses file copied twice gave two state_mismatch rows per difference.
        let status = Self.status(
            4, autoRenew: 1, expires: "2023-06-01T00:00:00Z", fetched: "2023-06-01T01:00:00Z",
            grace: "2023-06-10T00:00:00Z")
        let once = S.compare(try TransactionReconcilerTests.archive(), [status])
        let twice = S.compare(try TransactionReconcilerTests.archive(), [status, status])
        #expect(S.rows(twice) == S.rows(once) && !S.rows(once).isEmpty)
        #expect(
            twice.count("statuses_read") == 2 && twice.count("statuses_duplicates") == 1
                && twice.count("statuses_compared") == 1)
        #expect(twice.count("status_state_mismatch") == 1)
        // Fetched again later: another answer, compared too.
        let later = Self.status(
            4, autoRenew: 1, expires: "2023-06-01T00:00:00Z", fetched: "2023-06-02T01:00:00Z",
            grace: "2023-06-10T00:00:00Z")
        #expect(S.compare(try TransactionReconcilerTests.archive(), [status, later]).count("statuses_compared") == 2)
    }

    @Test func stateIsBuiltFromRecordsUpToTheFetchTimeOnly() throws {
        // Fetched on 04-15: the auto-renew change of 06-01 is not yet known, D is active until 05-01.
        let result = S.compare(
            try TransactionReconcilerTests.archive(),
            [Self.status(1, autoRenew: 1, expires: "2023-05-01T00:00:00Z", fetched: "2023-04-15T00:00:00Z")])
        #expect(result.differences.filter { $0.kind == .stateMismatch }.isEmpty)
        #expect(result.count("statuses_after_v1_end") == 0)
    }

    @Test func renewalJustBeforeTheFetchCountsThoughItsNotificationArrivedJustAfter() throws {
        // D (105) renews at 04-01T00:00:00, its DID_RENEW reaches the archive at 00:01:00; Apple's status is fetched
        // in between, at 00:00:30, and already shows D: V1 agrees once it counts D.
        let between = S.compare(
            try TransactionReconcilerTests.archive(),
            [Self.status(1, autoRenew: 1, expires: "2023-05-01T00:00:00Z", fetched: "2023-04-01T00:00:30Z")])
        #expect(between.count("statuses_compared") == 1)
        #expect(
            between.differences.filter { $0.kind == .stateMismatch }.isEmpty,
            "\(between.differences.map { "\($0.field) \($0.v1Value) \($0.v2Value)" })")
        // Fetched a minute before D's purchase: D is not yet Apple's, and the late record does not add it to V1's state.
        let before = S.compare(
            try TransactionReconcilerTests.archive(),
            [Self.status(1, autoRenew: 1, expires: "2023-04-20T00:00:00Z", fetched: "2023-03-31T23:59:00Z")])
        #expect(
            before.differences.filter { $0.kind == .stateMismatch }.isEmpty,
            "\(before.differences.map { "\($0.field) \($0.v1Value) \($0.v2Value)" })")
    }

    @Test func statusFetchedLongAfterTheArchiveEndsIsCountedNotCompared() throws {
        // The archive ends 06-01; Apple's status of 2024-01-01 shows a renewal V1 never saw (active, auto-renew on):
        // not a difference, V1 cannot know the state then.
        let result = S.compare(
            try TransactionReconcilerTests.archive(),
            [Self.status(1, autoRenew: 1, expires: "2024-02-01T00:00:00Z", fetched: "2024-01-01T00:00:00Z")])
        #expect(result.count("statuses_after_v1_end") == 1)
        #expect(result.count("statuses_compared") == 0)
        #expect(result.metrics.first { $0.0 == "v1_archive_end" }?.1 == "2023-06-01T00:00:00.000Z")
        #expect(result.differences.filter { $0.kind == .stateMismatch }.isEmpty)
        // Within the window of the archive's end it is still compared.
        let near = S.compare(
            try TransactionReconcilerTests.archive(),
            [Self.status(1, autoRenew: 1, expires: "2024-02-01T00:00:00Z", fetched: "2023-06-02T00:00:00Z")])
        #expect(near.count("statuses_compared") == 1)
        #expect(near.count("statuses_after_v1_end") == 0)
        #expect(!near.differences.filter { $0.kind == .stateMismatch }.isEmpty)
    }

    @Test func statusWithoutV1RecordsOrFetchTimeIsCountedNotCompared() throws {
        let result = S.compare(
            [],
            [
                Self.status(1, autoRenew: 1, expires: "2023-05-01T00:00:00Z", fetched: "2023-04-15T00:00:00Z"),
                Self.status(1, autoRenew: 1, expires: "2023-05-01T00:00:00Z", fetched: nil)
            ])
        #expect(result.count("statuses_read") == 2)
        #expect(result.count("statuses_without_v1") == 1)
        #expect(result.count("statuses_without_fetch_time") == 1)
        #expect(result.count("statuses_compared") == 0)
    }

    @Test func revokedLatestTransactionIsStatusFive() throws {
        let refunded = V1Fixture.tx(
            id: "301", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z",
            extra: ["cancellation_date_ms": String(V1Fixture.ms("2023-01-10T00:00:00Z")), "cancellation_reason": "1"])
        let records = [try S.facts("CANCEL", at: "2023-01-10T00:01:00Z", line: 1, [refunded])]
        let state = SubscriptionStatusComparison.state(
            of: "1000000001", records: records, at: V1Fixture.ms("2023-01-11T00:00:00Z"))
        #expect(state?.status == .revoked)
        #expect(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: records, at: V1Fixture.ms("2023-01-10T00:00:00Z")) == nil,
            "a record after the instant is not yet known")
    }

    @Test func aStaleSnapshotDeliveredAfterAnUpgradeDoesNotOverrideTheUpgradesRenewalFacts() throws {
        // Found by the simulator's truth test (seed 12): V1's companion DID_CHANGE_RENEWAL_STATUS, received 5 s after the
        // upgrade's INTERACTIVE_RENEWAL, still shows the old transaction and the old product as the next renewal.
        let basic = S.tx(
            "104", product: "basic.monthly", purchase: "2023-06-19T18:58:00Z", expires: "2023-07-19T18:58:00Z")
        let pro = S.tx("105", product: "pro.monthly", purchase: "2023-06-22T15:21:14Z", expires: "2023-07-22T15:21:14Z")
        let records = [
            try S.facts(
                "DID_RENEW", at: "2023-06-19T18:58:05Z", line: 1, [basic],
                pending: [V1Fixture.pending(product: "basic.monthly", autoRenewProduct: "basic.monthly")]),
            try S.facts(
                "INTERACTIVE_RENEWAL", at: "2023-06-22T15:21:14Z", line: 2, [basic, pro],
                pending: [V1Fixture.pending(product: "pro.monthly", autoRenewProduct: "pro.monthly")]),
            try S.facts(
                "DID_CHANGE_RENEWAL_STATUS", at: "2023-06-22T15:21:19Z", line: 3, [basic],
                pending: [V1Fixture.pending(product: "basic.monthly", autoRenewProduct: "basic.monthly")])
        ]
        let state = try #require(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: records, at: V1Fixture.ms("2023-07-01T00:00:00Z")))
        #expect(state.autoRenewProductId == "pro.monthly")
        #expect(state.expiresDate == V1Fixture.ms("2023-07-22T15:21:14Z"))
        #expect(state.status == .active)
        // A newer record about the same transaction still wins by time: auto-renew turned off after the upgrade.
        let off = try S.facts(
            "DID_CHANGE_RENEWAL_STATUS", at: "2023-06-25T00:00:00Z", line: 4, [basic, pro], autoRenewStatus: "false")
        let later = try #require(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: records + [off], at: V1Fixture.ms("2023-07-01T00:00:00Z")))
        #expect(later.autoRenewStatus == 0)
    }
}
