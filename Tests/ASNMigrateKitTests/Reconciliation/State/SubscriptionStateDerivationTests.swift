import Testing

@testable import ASNMigrateKit

/// How each side's state at the period end is derived ("late deliveries roll back state"): facts about one
/// transaction only grow, whatever order the records arrive in.
@Suite struct SubscriptionStateDerivationTests {
    private static let period: ReconcileOptions = {
        var o = ReconcileOptions()
        o.from = Side.ms("2021-01-01T00:00:00Z")
        o.to = Side.ms("2021-02-20T00:00:00Z")
        return o
    }()

    /// A record of the February transaction (bought Feb 1, expiring Mar 1 unless `expires` says otherwise).
    private static func february(
        _ p: inout ResponseBodyV2DecodedPayload, expires: String = "2021-03-01T00:00:00Z", revoked: String? = nil,
        autoRenew: Int = 1
    ) {
        p.data.transactionInfo?.purchaseDate = Side.ms("2021-02-01T00:00:00Z")
        p.data.transactionInfo?.expiresDate = Side.ms(expires)
        p.data.transactionInfo?.revocationDate = revoked.map(Side.ms)
        p.data.transactionInfo?.revocationReason = revoked == nil ? nil : 0
        p.data.renewalInfo?.autoRenewStatus = autoRenew
    }

    @Test func aCompanionDeliveredAfterTheRefundWithTheOldReceiptDoesNotUndoTheRevocation() throws {
        // The case: V1's DID_CHANGE_RENEWAL_STATUS beside a CANCEL arrives seconds after the refund, carrying
        // the receipt as it stood before it (no cancellation); as the latest record it used to decide V1's state.
        let v1: [V1RecordOutcome] = [
            Side.v1("DID_RENEW", wol: "2", time: "2021-02-01T00:00:00Z", line: 1) { Self.february(&$0) },
            Side.v1("REFUND", v1Type: "CANCEL", wol: "2", time: "2021-02-10T00:00:00Z", line: 2) {
                Self.february(&$0, revoked: "2021-02-10T00:00:00Z", autoRenew: 0)
            },
            Side.v1(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", v1Type: "DID_CHANGE_RENEWAL_STATUS", wol: "2",
                time: "2021-02-10T00:00:15Z", line: 3
            ) { Self.february(&$0, autoRenew: 0) }
        ]
        let v2 = [
            Side.payload("DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-02-01T00:00:02Z", uuid: "renew") {
                Self.february(&$0)
            },
            Side.payload("REFUND", nil, otx: "1000", wol: "2", time: "2021-02-10T00:00:03Z", uuid: "refund") {
                Self.february(&$0, revoked: "2021-02-10T00:00:00Z", autoRenew: 0)
            }
        ]
        let r = try reconcile(v1, v2, options: Self.period)
        #expect(r.count("v1_companion") == 1)
        #expect(r.differences.isEmpty, "\(r.differences.map(\.cells))")
        let row = try #require(r.subscriptions.first)
        #expect(row.v1 == row.v2)
        #expect(row.v1.active == false, "a revocation, once any record shows it, stands")
        #expect(row.v1.autoRenewStatus == 0)
    }

    @Test func aLateOldSnapshotChangesNoFact() throws {
        // The renewal date was extended to Mar 8; a status change delivered later still carries the Mar 1 expiry and
        // an older renewal status. The later expiry wins, and the renewal facts come from the newer knowledge.
        let extended: (inout ResponseBodyV2DecodedPayload) -> Void = {
            Self.february(&$0, expires: "2021-03-08T00:00:00Z", autoRenew: 1)
        }
        let stale: (inout ResponseBodyV2DecodedPayload) -> Void = { Self.february(&$0, autoRenew: 0) }
        let v1: [V1RecordOutcome] = [
            Side.v1("DID_RENEW", wol: "2", time: "2021-02-15T00:00:00Z", line: 1, edit: extended),
            Side.v1(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", v1Type: "DID_CHANGE_RENEWAL_STATUS", wol: "2",
                time: "2021-02-16T00:00:00Z", line: 2, edit: stale)
        ]
        let v2 = [
            Side.payload(
                "DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-02-15T00:00:02Z", uuid: "a", edit: extended),
            Side.payload(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", otx: "1000", wol: "2", time: "2021-02-16T00:00:02Z",
                uuid: "b", edit: stale)
        ]
        let r = try reconcile(v1, v2, options: Self.period)
        let row = try #require(r.subscriptions.first)
        #expect(row.v1.expiresDate == Side.ms("2021-03-08T00:00:00Z"))
        #expect(row.v1.autoRenewStatus == 1)
        #expect(row.v1 == row.v2)
    }

    @Test func theNewestTransactionDecidesEvenWhenAnOlderSnapshotArrivesLater() throws {
        // An upgrade on Feb 10 starts a new transaction; a status change about the old one is delivered after it.
        let v1: [V1RecordOutcome] = [
            Side.v1(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", v1Type: "INTERACTIVE_RENEWAL", wol: "3",
                time: "2021-02-10T00:00:00Z", line: 1,
                product: "pro.yearly"
            ) {
                $0.data.transactionInfo?.purchaseDate = Side.ms("2021-02-10T00:00:00Z")
                $0.data.transactionInfo?.expiresDate = Side.ms("2021-03-10T00:00:00Z")
            },
            Side.v1("DID_RENEW", wol: "2", time: "2021-02-11T00:00:00Z", line: 2) { Self.february(&$0, autoRenew: 0) }
        ]
        let v2 = [
            Side.payload(
                "DID_CHANGE_RENEWAL_PREF", "UPGRADE", otx: "1000", wol: "3", time: "2021-02-10T00:00:01Z", uuid: "u",
                product: "pro.yearly"
            ) {
                $0.data.transactionInfo?.purchaseDate = Side.ms("2021-02-10T00:00:00Z")
                $0.data.transactionInfo?.expiresDate = Side.ms("2021-03-10T00:00:00Z")
            },
            Side.payload("DID_RENEW", nil, otx: "1000", wol: "2", time: "2021-02-11T00:00:01Z", uuid: "r") {
                Self.february(&$0, autoRenew: 0)
            }
        ]
        let r = try reconcile(v1, v2, options: Self.period)
        let row = try #require(r.subscriptions.first)
        #expect(row.v1.productId == "pro.yearly")
        #expect(row.v1.expiresDate == Side.ms("2021-03-10T00:00:00Z"))
        #expect(row.v1.autoRenewStatus == 1, "renewal facts from the record that knows the newest transaction")
        #expect(row.v1 == row.v2)
    }
}
