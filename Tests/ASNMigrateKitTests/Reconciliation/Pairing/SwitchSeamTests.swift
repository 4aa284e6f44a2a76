import Testing

@testable import ASNMigrateKit

/// The seam checks of `--switch`, one case each, on hand-made timelines around a switch instant S.
@Suite struct SwitchSeamTests {
    static let day: Int64 = 86_400_000
    static let s: Int64 = 1_672_531_200_000 // 2023-01-01
    static let window: Int64 = 48 * 3_600_000

    /// A record of `type` at `time` showing one transaction purchased at `purchase` that expires at `expires`.
    static func record(
        _ type: String, _ subtype: String = "", at time: Int64, purchase: Int64, expires: Int64, id: String = "1",
        product: String = "monthly", autoRenew: Int? = 1, autoRenewProduct: String? = "monthly",
        grace: Int64? = nil, retry: Bool? = nil
    ) -> SwitchSeam.Record {
        let transaction = StateFact.Transaction(
            transactionId: id, purchaseDate: purchase, expiresDate: expires, revocationDate: nil, productId: product)
        let renewal = StateFact.Renewal(
            autoRenewStatus: autoRenew, autoRenewProductId: autoRenewProduct, gracePeriodExpiresDate: grace,
            isInBillingRetryPeriod: retry)
        let fact = StateFact.record(time: time, transaction: transaction, renewal: renewal)!
        return SwitchSeam.Record(
            time: time, type: type, subtype: subtype, fact: fact, transactionID: TransactionID(id), productId: product,
            uuid: "uuid-\(time)")
    }

    static func seam(reach: Int64?) -> SwitchSeam {
        SwitchSeam(instant: s, window: window, v2Reach: reach)
    }

    static let renewal = record("DID_RENEW", at: s - 10 * day, purchase: s - 10 * day, expires: s + 20 * day)

    @Test func liveSubscriptionWithoutV2NotificationsIsSilentOnceV2ReachesPastItsExpiry() {
        let outcome = Self.seam(reach: Self.s + 60 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [])
        #expect(outcome.live && !outcome.continued)
        #expect(outcome.differences.map(\.kind) == [.silentInV2])
        #expect(outcome.differences.first?.eventDate == Self.s + 20 * Self.day)
        #expect(outcome.differences.first?.productId == "monthly")
        #expect(outcome.pending.isEmpty)
    }

    @Test func silenceNotYetJudgedIsPendingAwaitingV2() {
        // V2 reaches past the expiry, but not past the expiry plus the window.
        let outcome = Self.seam(reach: Self.s + 21 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [])
        #expect(outcome.differences.isEmpty)
        #expect(outcome.pending.map(\.kind) == [.awaitingV2])
        #expect(outcome.pending.first?.eventDate == Self.s + 20 * Self.day)
    }

    @Test func gracePeriodAndBillingRetryMakeTheirEndsDue() {
        let grace = Self.record(
            "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: Self.s - 2 * Self.day, purchase: Self.s - 32 * Self.day,
            expires: Self.s - 2 * Self.day, grace: Self.s + 14 * Self.day, retry: true)
        let silentGrace = Self.seam(reach: Self.s + 100 * Self.day).judge(
            environment: "Sandbox", originalTransactionId: "1", v1: [grace], v2: [])
        #expect(silentGrace.differences.first?.eventDate == Self.s + 14 * Self.day)
        let retry = Self.record(
            "DID_FAIL_TO_RENEW", at: Self.s - 2 * Self.day, purchase: Self.s - 32 * Self.day,
            expires: Self.s - 2 * Self.day, retry: true)
        let silentRetry = Self.seam(reach: Self.s + 100 * Self.day).judge(
            environment: "Sandbox", originalTransactionId: "1", v1: [retry], v2: [])
        #expect(
            silentRetry.differences.first?.eventDate == Self.s - 2 * Self.day + SubscriptionStatus.billingRetryLimit)
    }

    @Test func aV2NotificationAfterTheSwitchIsNotSilent() {
        let next = Self.record(
            "DID_RENEW", at: Self.s + 20 * Self.day, purchase: Self.s + 20 * Self.day, expires: Self.s + 50 * Self.day,
            id: "2")
        let outcome = Self.seam(reach: Self.s + 300 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [next])
        #expect(outcome.live && outcome.continued)
        // Its own notification lies in [S, D + window]: neither silent nor pending.
        #expect(outcome.differences.isEmpty)
        #expect(outcome.pending.isEmpty)
    }

    @Test func aRenewalAfterAWholeUnannouncedPeriodIsAGap() throws {
        // The renewal of S+20d was lost: the next one, S+50d, comes a whole period after the expiry V1 knew.
        let later = Self.record(
            "DID_RENEW", at: Self.s + 50 * Self.day, purchase: Self.s + 50 * Self.day, expires: Self.s + 80 * Self.day,
            id: "3")
        let outcome = Self.seam(reach: Self.s + 50 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [later])
        #expect(outcome.differences.map(\.kind) == [.renewalGap])
        let gap = try #require(outcome.differences.first)
        #expect(gap.eventDate == Self.s + 50 * Self.day)
        #expect(gap.v1Value == Timestamp.iso8601(ms: Self.s + 20 * Self.day))
        #expect(gap.v2NotificationType == "DID_RENEW")
        // An expiry between the two explains the gap; so does a shorter gap.
        let expired = Self.record(
            "EXPIRED", "VOLUNTARY", at: Self.s + 20 * Self.day, purchase: Self.s - 10 * Self.day,
            expires: Self.s + 20 * Self.day, autoRenew: 0)
        let explained = Self.seam(reach: Self.s + 50 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [expired, later])
        #expect(!explained.differences.contains { $0.kind == .renewalGap })
        let recovery = Self.record(
            "DID_RENEW", "BILLING_RECOVERY", at: Self.s + 50 * Self.day, purchase: Self.s + 50 * Self.day,
            expires: Self.s + 80 * Self.day, id: "3")
        let recovered = Self.seam(reach: Self.s + 50 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [recovery])
        #expect(recovered.differences.isEmpty)
        let short = Self.record(
            "DID_RENEW", at: Self.s + 30 * Self.day, purchase: Self.s + 30 * Self.day, expires: Self.s + 60 * Self.day,
            id: "3")
        let shortGap = Self.seam(reach: Self.s + 50 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [short])
        #expect(shortGap.differences.isEmpty)
    }

    @Test func theFirstV2NotificationContradictingV1sLastRecordIsASeamStateMismatch() {
        let off = Self.record(
            "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: Self.s - 5 * Self.day,
            purchase: Self.s - 10 * Self.day, expires: Self.s + 20 * Self.day, autoRenew: 0, autoRenewProduct: "yearly")
        let renewed = Self.record(
            "DID_RENEW", at: Self.s + 20 * Self.day, purchase: Self.s + 20 * Self.day, expires: Self.s + 50 * Self.day,
            id: "2")
        let outcome = Self.seam(reach: Self.s + 20 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal, off], v2: [renewed])
        let rows = outcome.differences.filter { $0.kind == .seamStateMismatch }
        #expect(rows.map(\.field) == ["autoRenewStatus", "autoRenewProductId"])
        #expect(rows.map(\.v1Value) == ["0", "yearly"])
        #expect(rows.map(\.v2Value) == ["1", "monthly"])
        #expect(rows.allSatisfy { $0.eventDate == Self.s + 20 * Self.day && $0.v2SignedDate == Self.s + 20 * Self.day })
        // A voluntary expiry while V1 last said auto-renew on.
        let expired = Self.record(
            "EXPIRED", "VOLUNTARY", at: Self.s + 20 * Self.day, purchase: Self.s - 10 * Self.day,
            expires: Self.s + 20 * Self.day, autoRenew: 0)
        let disabled = Self.seam(reach: Self.s + 20 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [expired])
        #expect(disabled.differences.map(\.field) == ["autoRenewStatus"])
        #expect(disabled.differences.map(\.v1Value) == ["1"])
        // Consistent sides: nothing.
        let consistent = Self.seam(reach: Self.s + 20 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [Self.renewal], v2: [renewed])
        #expect(consistent.differences.isEmpty)
    }

    @Test func anEventInFlightDeliveredInBothIsCountedOnce() {
        let v1 = Self.record(
            "DID_RENEW", at: Self.s - 3_600_000, purchase: Self.s - 3_600_000, expires: Self.s + 30 * Self.day, id: "7")
        var v2 = v1
        v2.time = Self.s + 3_600_000
        let outcome = Self.seam(reach: Self.s + 2 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [v1], v2: [v2, v2])
        #expect(outcome.deliveredInBoth == 1)
        #expect(outcome.differences.isEmpty)
        var other = v2
        other.subtype = "BILLING_RECOVERY"
        let notSame = Self.seam(reach: Self.s + 2 * Self.day).judge(
            environment: "Production", originalTransactionId: "1", v1: [v1], v2: [other])
        #expect(notSame.deliveredInBoth == 0)
    }

    @Test func switchDatesParseBareAndPerEnvironmentDates() throws {
        let both = try SwitchDates.parse(["2023-01-01"], option: "--switch")
        #expect(both.production == Self.s && both.sandbox == Self.s)
        let apart = try SwitchDates.parse(["production=2023-01-01", "SANDBOX=2023-01-02T00:00:00Z"], option: "--switch")
        #expect(apart.production == Self.s && apart.sandbox == Self.s + Self.day)
        #expect(SwitchDates().isEmpty && !apart.isEmpty)
        for bad in [["2023-13-01"], ["mars=2023-01-01"], ["2023-01-01", "sandbox=2023-01-02"], ["production="]] {
            #expect(throws: ASNError.self) { try SwitchDates.parse(bad, option: "--switch") }
        }
    }
}
