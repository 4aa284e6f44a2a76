import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// The simulator tells its own truth: Apple's V2 fields, `status` and API view come from the simulated lifecycle
/// (`LifecycleV2`), never from the tool's mapping, status rules or merge.
@Suite struct LifecycleV2Tests {
    // MARK: - Independence

    /// The tool's types that judge: the mapping, the status rules, the transaction merge. The simulator must not
    /// name them, or a test of `simulate` against `reconcile` could not catch their bugs. Shared and allowed: the
    /// models as containers, the JSON writer and parser, Base64, the field table (`ComparedField`, which names the
    /// fields faults change), and the reading of V1 lines as `reconcile` reads them (`SimulatedV1Archive` through
    /// `V1TransactionCollector` and `SubscriptionStatusComparison`, `APIFaultInjector` through `V1Transaction.v2Shape`),
    /// used only to place API faults where their effect is certain: a fault is placed only where that reading equals
    /// the lifecycle's value, so the reading cannot hide its own error.
    static let engineJudgement = [
        "V1RecordMapper", "MappingEngine", "MappingContext", "MappingTable", "MappingFacts", "V2Builder", "V2Sink",
        "V2ModelSink", "V2JSONSink", "V2FactsSink", "TapeMigrator", "FastRecordMapper", "TransactionReconciler",
        "SubscriptionStateRules", "StateFact", "SubscriptionStatus.", "KnowledgeRule", "ResponseBodyV1"
    ]

    /// The code of a Swift file without its comments (line comments and doc comments).
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            guard let range = line.range(of: "//") else { return line }
            return line[..<range.lowerBound]
        }.joined(separator: "\n")
    }

    @Test func theSimulatorNamesNoneOfTheToolsJudgement() throws {
        let files = try PackagePaths.swiftFiles(under: "Sources/ASNSimulation")
        #expect(files.count > 10, "Sources/ASNSimulation not found")
        var found: [String] = []
        for (name, source) in files {
            let text = Self.code(source)
            for type in Self.engineJudgement where text.contains(type) {
                found.append("\(name): \(type)")
            }
        }
        #expect(found.isEmpty, "the simulator calls the tool's judgement: \(found)")
    }

    @Test func theScanSeesACallInCodeAndNotInAComment() {
        #expect(Self.code("let s = V2Builder.status(t, renewal: r, at: 0) // V1RecordMapper").contains("V2Builder"))
        #expect(!Self.code("/// Unlike `V2Builder.status`, …").contains("V2Builder"))
    }

    // MARK: - Status from hand-built lifecycles

    private static let day = SimulationCalendar.day
    private static let t0: Int64 = 1_620_000_000_000
    private static let monthly = SimulatedProduct.monthly[0]

    /// A subscription bought at `t0`, renewed monthly `renewals` times.
    private static func subscription(renewals: Int = 0, family: Bool = false) -> SimulatedSubscriptionState {
        var state = SimulatedSubscriptionState(
            environment: .production, originalTransactionId: "2000000000000001", isSubscription: true,
            productId: monthly.id)
        for n in 0...renewals {
            let purchase = SimulationCalendar.adding(months: n, to: t0)
            var t = SimulatedTransaction(
                transactionId: String(2_000_000_000_000_001 + n), originalTransactionId: "2000000000000001",
                webOrderLineItemId: String(5_000_000_000_000_001 + n), product: monthly, purchaseDate: purchase,
                carried: [.originalPurchaseDate: .integer(t0)],
                expiresDate: SimulationCalendar.adding(months: 1, to: purchase),
                ownership: family ? "FAMILY_SHARED" : "PURCHASED", appAccountToken: nil)
            t.isRenewal = n > 0
            state.append(t)
        }
        return state
    }

    @Test func activeThenExpiredAtTheExpiry() throws {
        let state = Self.subscription()
        let expires = try #require(state.current?.expiresDate)
        #expect(LifecycleV2.status(of: state, at: Self.t0 + 1) == .active)
        #expect(LifecycleV2.status(of: state, at: expires - 1) == .active)
        #expect(LifecycleV2.status(of: state, at: expires) == .expired)
        var off = state
        off.autoRenewOn = false
        #expect(LifecycleV2.status(of: off, at: expires - 1) == .active, "auto-renew off still serves its period")
    }

    @Test func gracePeriodThenBillingRetryThenExpiredAfterSixtyDays() throws {
        var state = Self.subscription()
        let expires = try #require(state.current?.expiresDate)
        state.billingRetry = true
        state.expirationIntent = "2"
        state.gracePeriodExpires = expires + 6 * Self.day
        #expect(LifecycleV2.status(of: state, at: expires + 1) == .gracePeriod)
        #expect(LifecycleV2.status(of: state, at: expires + 6 * Self.day) == .billingRetry)
        state.gracePeriodExpires = nil
        #expect(LifecycleV2.status(of: state, at: expires + 1) == .billingRetry)
        #expect(LifecycleV2.status(of: state, at: expires + 60 * Self.day - 1) == .billingRetry)
        #expect(LifecycleV2.status(of: state, at: expires + 60 * Self.day) == .expired)
        let renewal = try #require(LifecycleV2.renewal(state))
        #expect(renewal.isInBillingRetryPeriod == true && renewal.expirationIntent == 2)
    }

    @Test func refundedOrRevokedIsRevokedButAnUpgradeIsNot() throws {
        var refunded = Self.subscription(renewals: 1)
        let at = Self.t0 + 40 * Self.day
        refunded.updateCurrent {
            $0.cancellationDate = at
            $0.cancellationReason = "1"
        }
        #expect(LifecycleV2.status(of: refunded, at: at - 1) == .active)
        #expect(LifecycleV2.status(of: refunded, at: at) == .revoked)
        let t = LifecycleV2.transaction(try #require(refunded.current), environment: .production)
        #expect(t.revocationDate == at && t.revocationReason == 1 && t.isUpgraded == nil)

        var upgraded = Self.subscription()
        upgraded.updateCurrent {
            $0.isUpgraded = true
            $0.cancellationDate = at - 20 * Self.day
        }
        let old = LifecycleV2.transaction(try #require(upgraded.current), environment: .production)
        #expect(old.isUpgraded == true && old.revocationDate == nil && old.revocationReason == nil)
        #expect(LifecycleV2.status(of: upgraded, at: at - 20 * Self.day) == .active)
    }

    @Test func aConsumableHasNoStatusAndNoRenewalInfo() {
        var state = SimulatedSubscriptionState(
            environment: .sandbox, originalTransactionId: "1000000000005000", isSubscription: false,
            productId: SimulatedProduct.coins.id)
        state.append(
            SimulatedTransaction(
                transactionId: "1000000000005000", originalTransactionId: "1000000000005000", webOrderLineItemId: nil,
                product: .coins, purchaseDate: Self.t0, carried: [.originalPurchaseDate: .integer(Self.t0)],
                expiresDate: nil,
                ownership: "PURCHASED", appAccountToken: nil))
        #expect(LifecycleV2.status(of: state, at: Self.t0 + 1) == nil)
        #expect(LifecycleV2.renewal(state) == nil)
        let t = LifecycleV2.transaction(state.transactions[0], environment: .sandbox)
        #expect(t.type == LifecycleV2.consumableType && t.expiresDate == nil && t.environment == "Sandbox")
    }

    // MARK: - The renewal chain

    @Test func theRenewalChainGivesReasonsRenewalDateAndTheSeriesStart() throws {
        let state = Self.subscription(renewals: 3)
        let reasons = state.transactions.map { LifecycleV2.transaction($0, environment: .production).transactionReason }
        #expect(reasons == ["PURCHASE", "RENEWAL", "RENEWAL", "RENEWAL"])
        let renewal = try #require(LifecycleV2.renewal(state))
        #expect(renewal.renewalDate == state.current?.expiresDate)
        #expect(renewal.recentSubscriptionStartDate == Self.t0)
        #expect(renewal.autoRenewStatus == 1 && renewal.autoRenewProductId == Self.monthly.id)
        #expect(renewal.productId == Self.monthly.id && renewal.originalTransactionId == "2000000000000001")
    }

    @Test func aLapseOfSixtyDaysStartsANewSeriesCountedFromARefund() throws {
        var state = Self.subscription()
        let expires = try #require(state.current?.expiresDate)
        func resubscribed(_ state: SimulatedSubscriptionState, at purchase: Int64) -> SimulatedSubscriptionState {
            var copy = state
            copy.append(
                SimulatedTransaction(
                    transactionId: "2000000000000009", originalTransactionId: "2000000000000001",
                    webOrderLineItemId: "5000000000000009", product: Self.monthly, purchaseDate: purchase,
                    carried: [.originalPurchaseDate: .integer(Self.t0)],
                    expiresDate: SimulationCalendar.adding(months: 1, to: purchase),
                    ownership: "PURCHASED", appAccountToken: nil))
            return copy
        }
        let near = resubscribed(state, at: expires + 59 * Self.day)
        #expect(LifecycleV2.renewal(near)?.recentSubscriptionStartDate == Self.t0)
        let far = resubscribed(state, at: expires + 60 * Self.day)
        #expect(LifecycleV2.renewal(far)?.recentSubscriptionStartDate == expires + 60 * Self.day)
        // Refunded 10 days in: the paid service ended then, so 55 days after the expiry is 75 days of lapse.
        state.updateCurrent { $0.cancellationDate = Self.t0 + 10 * Self.day }
        let afterRefund = resubscribed(state, at: expires + 55 * Self.day)
        #expect(LifecycleV2.renewal(afterRefund)?.recentSubscriptionStartDate == expires + 55 * Self.day)
    }

    @Test func theOffersAndTrialAreWrittenAsAppleWritesThem() {
        var t = Self.subscription().transactions[0]
        t.isTrialPeriod = true
        var v = LifecycleV2.transaction(t, environment: .production)
        #expect(v.offerType == 1 && v.offerIdentifier == nil && v.offerDiscountType == "FREE_TRIAL" && v.price == 0)
        t.isTrialPeriod = false
        t.promotionalOfferId = "WINBACK1"
        v = LifecycleV2.transaction(t, environment: .production)
        #expect(v.offerType == 2 && v.offerIdentifier == "WINBACK1" && v.price == Self.monthly.price)
        t.offerCodeRefName = "WELCOME1"
        v = LifecycleV2.transaction(t, environment: .production)
        #expect(v.offerType == 3 && v.offerIdentifier == "WELCOME1")
    }

    // MARK: - What the lifecycle's truth found in the tool

    /// `migrate` measures a lapse of paid service from the expiry even when a refund ended the service earlier, so a
    /// resubscription 60 days or more after a refund (but sooner after the expiry) keeps the old series'
    /// `recentSubscriptionStartDate`, where Apple's starts a new one. Marked a known issue until the mapping is fixed;
    /// the test fails once it is, to be turned into a plain expectation.
    @Test func migrateCountsALapseFromTheExpiryNotTheRefund() throws {
        var state = Self.subscription()
        let refund = Self.t0 + 2 * Self.day
        state.updateCurrent {
            $0.cancellationDate = refund
            $0.cancellationReason = "0"
        }
        state.autoRenewOn = false
        let back = refund + 62 * Self.day
        #expect(try #require(state.current?.expiresDate) + 60 * Self.day > back, "the expiry is less than 60 days back")
        var resubscribed = SimulatedTransaction(
            transactionId: "2000000000000002", originalTransactionId: "2000000000000001",
            webOrderLineItemId: "5000000000000002", product: Self.monthly, purchaseDate: back,
            carried: [.originalPurchaseDate: .integer(Self.t0)],
            expiresDate: SimulationCalendar.adding(months: 1, to: back),
            ownership: "PURCHASED", appAccountToken: nil)
        resubscribed.isRenewal = false
        state.append(resubscribed)
        state.autoRenewOn = true
        state.autoRenewChangeDate = back
        let apple = try #require(LifecycleV2.renewal(state)?.recentSubscriptionStartDate)
        #expect(apple == back)
        let body = state.body(
            type: "INTERACTIVE_RENEWAL", cancellation: nil, bundleVersion: "400", receipt: "", cap: 50,
            password: LifecycleGenerator.password)
        let outcome = try SimulationFixture.mapper().map(
            RawRecord(location: SourceLocation(path: "t", line: 1), bytes: JSONWriter.bytes(.object(body))))
        guard case .migrated(let payload) = outcome else {
            Issue.record("the V1 body did not migrate: \(outcome)")
            return
        }
        let migrated = payload.data.renewalInfo?.recentSubscriptionStartDate
        withKnownIssue("migrate measures the lapse from expires_date, not from the refund's cancellation_date") {
            #expect(migrated == apple)
        }
    }

    // MARK: - Generated lifecycles

    /// What Apple's docs say each kind's `status` is as it is signed (nil: any).
    static let statusOfKind: [String: LifecycleV2.Status] = [
        "SUBSCRIBED/INITIAL_BUY": .active, "OFFER_REDEEMED/INITIAL_BUY": .active, "DID_RENEW": .active,
        "DID_RENEW/BILLING_RECOVERY": .active, "DID_CHANGE_RENEWAL_PREF/UPGRADE": .active,
        "OFFER_REDEEMED/UPGRADE": .active, "SUBSCRIBED/RESUBSCRIBE": .active, "OFFER_REDEEMED/RESUBSCRIBE": .active,
        "DID_FAIL_TO_RENEW": .billingRetry, "DID_FAIL_TO_RENEW/GRACE_PERIOD": .gracePeriod,
        "GRACE_PERIOD_EXPIRED": .billingRetry, "EXPIRED/VOLUNTARY": .expired, "EXPIRED/BILLING_RETRY": .expired,
        "EXPIRED/PRICE_INCREASE": .expired, "REFUND": .revoked, "REVOKE": .revoked, "RENEWAL_EXTENDED": .active,
        "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED": .active,
        "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED": .active,
        "DID_CHANGE_RENEWAL_PREF/DOWNGRADE": .active, "DID_CHANGE_RENEWAL_PREF": .active,
        "PRICE_INCREASE/PENDING": .active, "PRICE_INCREASE/ACCEPTED": .active
    ]

    @Test func everySimulatedSubscriptionNotificationHasTheStatusItsKindImplies() throws {
        let options = SimulationOptions(subscribers: 250, seed: 12, months: 8)
        var seen: Set<String> = []
        for index in 0..<options.subscribers {
            var generator = LifecycleGenerator(options: options, index: index)
            for record in try generator.generate() {
                guard let v2 = record.v2, v2.transaction?.type == LifecycleV2.autoRenewableType else {
                    #expect(record.v2?.status == nil, "\(record.label): a status without a subscription")
                    continue
                }
                let kind = NotificationKind(v2.notificationType, v2.subtype).description
                let expected = try #require(Self.statusOfKind[kind], "\(kind) has no expected status")
                #expect(v2.status == expected.rawValue, "\(record.label) (\(kind)): status \(v2.status ?? 0)")
                #expect(v2.renewal?.signedDate == v2.signedDate && v2.transaction?.signedDate == v2.signedDate)
                seen.insert(kind)
            }
        }
        #expect(seen.count >= 18, "only \(seen.sorted()) seen")
    }
}
