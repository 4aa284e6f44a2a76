import Testing

@testable import ASNMigrateKit

/// The one set of state rules (`Reconciliation/State`): each rule alone, then the three defects the state rules once had, through the
/// paths that had their own copies before (notification pairing, the API-view comparison), each failing on the code
/// before the change.
@Suite struct SubscriptionStateRulesTests {
    private typealias S = TransactionScenario
    private static let day: Int64 = 86_400_000

    // MARK: - SubscriptionStatus.at: Apple's status codes

    /// (instant, expires, revoked, grace, retry) → status. Apple, *status*: 1 active, 2 expired, 3 billing retry,
    /// 4 grace period, 5 revoked; `DID_FAIL_TO_RENEW`: "retry billing for 60 days".
    @Test(
        arguments: [
            (100, 200, nil, nil, nil, SubscriptionStatus.active),
            (100, 200, 50, nil, nil, .revoked),
            (100, 200, 150, nil, nil, .active),
            (300, 200, nil, 400, true, .gracePeriod),
            (300, 200, nil, 250, true, .billingRetry),
            (300, 200, nil, nil, false, .expired),
            (300, 200, nil, nil, nil, .expired),
            (200 + 60 * 86_400_000 - 1, 200, nil, nil, true, .billingRetry),
            (200 + 60 * 86_400_000, 200, nil, nil, true, .expired)
        ] as [(Int64, Int64, Int64?, Int64?, Bool?, SubscriptionStatus)])
    func statusRule(
        instant: Int64, expires: Int64, revoked: Int64?, grace: Int64?, retry: Bool?, expected: SubscriptionStatus
    ) {
        #expect(
            SubscriptionStatus.at(
                instant, expires: expires, revoked: revoked, gracePeriodExpires: grace, billingRetry: retry) == expected
        )
    }

    @Test func noExpiryIsNoSubscriptionStatus() {
        #expect(
            SubscriptionStatus.at(1, expires: nil, revoked: nil, gracePeriodExpires: nil, billingRetry: true) == nil)
        #expect(
            SubscriptionStateRules.derive(
                [
                    StateFact(
                        time: 1,
                        transactions: [
                            .init(
                                transactionId: "1", purchaseDate: 0, expiresDate: nil,
                                revocationDate: nil, productId: "coins")
                        ],
                        own: 0, renewal: nil)
                ], at: 2) == nil)
    }

    // MARK: - derive: facts only grow, the newest knowledge wins

    private static func fact(
        _ time: Int64, _ id: String, purchase: Int64, expires: Int64, revoked: Int64? = nil, autoRenew: Int? = 1,
        retry: Bool? = nil, grace: Int64? = nil, renewal: Bool = true, v2Only: Bool = false
    ) -> StateFact {
        StateFact(
            time: time,
            transactions: [
                .init(
                    transactionId: id, purchaseDate: purchase, expiresDate: expires, revocationDate: revoked,
                    productId: "p")
            ],
            own: 0,
            renewal: renewal
                ? .init(
                    autoRenewStatus: autoRenew, autoRenewProductId: "p", gracePeriodExpiresDate: grace,
                    isInBillingRetryPeriod: retry) : nil, v2Only: v2Only)
    }

    @Test func aRecoveryEndsBillingRetry() throws {
        // DID_FAIL_TO_RENEW at the expiry (retry on), then DID_RECOVER: a new transaction whose renewal info has no flag.
        let failed = Self.fact(1_000, "1", purchase: 0, expires: 1_000, retry: true)
        let recovered = Self.fact(5_000, "2", purchase: 5_000, expires: 5_000 + 30 * Self.day)
        let during = try #require(SubscriptionStateRules.derive([failed], at: 2_000))
        #expect(during.status == .billingRetry && during.isInBillingRetryPeriod == true)
        let after = try #require(SubscriptionStateRules.derive([failed, recovered], at: 6_000))
        #expect(after.status == .active && after.isInBillingRetryPeriod == false)
        // Long after the recovered period ran out: expired, never billing retry again.
        let later = try #require(SubscriptionStateRules.derive([failed, recovered], at: 200 * Self.day))
        #expect(later.status == .expired)
        // A stale retry snapshot delivered after the recovery knows less (older transaction): it changes nothing.
        let stale = Self.fact(7_000, "1", purchase: 0, expires: 1_000, retry: true)
        #expect(SubscriptionStateRules.derive([failed, recovered, stale], at: 6_000)?.status == .active)
    }

    @Test func billingRetryLastsAtMostSixtyDays() throws {
        let failed = Self.fact(1_000, "1", purchase: 0, expires: 1_000, retry: true)
        #expect(SubscriptionStateRules.derive([failed], at: 1_000 + 59 * Self.day)?.status == .billingRetry)
        let over = try #require(SubscriptionStateRules.derive([failed], at: 1_000 + 61 * Self.day))
        #expect(over.status == .expired && over.isInBillingRetryPeriod == false)
    }

    @Test func aRenewalInfoWithoutGraceEndsTheGracePeriod() {
        let grace = Self.fact(1_000, "1", purchase: 0, expires: 1_000, retry: true, grace: 9 * Self.day)
        let statusChange = Self.fact(2_000, "1", purchase: 0, expires: 1_000, autoRenew: 0)
        #expect(SubscriptionStateRules.derive([grace], at: 3_000)?.status == .gracePeriod)
        #expect(SubscriptionStateRules.derive([grace, statusChange], at: 3_000)?.status == .expired)
    }

    @Test func copiesOfOneTransactionMergeAndARevocationStands() throws {
        let a = Self.fact(1_000, "1", purchase: 0, expires: 10 * Self.day)
        let extended = Self.fact(2_000, "1", purchase: 0, expires: 17 * Self.day)
        let refunded = Self.fact(3_000, "1", purchase: 0, expires: 10 * Self.day, revoked: 3_000, autoRenew: 0)
        let state = try #require(SubscriptionStateRules.derive([a, extended, refunded, a], at: 4_000))
        #expect(state.expiresDate == 17 * Self.day)
        #expect(state.status == .revoked)
        #expect(
            state.autoRenewStatus == 0, "the record that knows of the revocation knows more than a later old snapshot")
    }

    @Test func asOfKnowledgeTakesLateRecordsTransactionsButNotTheirRenewalFacts() throws {
        let first = Self.fact(1_000, "1", purchase: 1_000, expires: 5_000)
        let lateRenewal = Self.fact(6_500, "2", purchase: 5_000, expires: 9_000, autoRenew: 0)
        let state = try #require(
            SubscriptionStateRules.derive([first, lateRenewal], at: 6_000, knowledge: .asOf(lag: 1_000)))
        #expect(state.expiresDate == 9_000 && state.status == .active)
        #expect(state.autoRenewStatus == 1, "the late record's renewal facts may describe a later moment")
        #expect(
            SubscriptionStateRules.derive([first, lateRenewal], at: 6_000, knowledge: .asOf(lag: 0))?.expiresDate
                == 5_000)
    }

    // MARK: - KnowledgeRule

    @Test func anItemFromAV2OnlyRecordIsComparedOnlyOnceV1CouldHaveHeard() {
        let all = SubscriptionState(productId: "p", expiresDate: 17, autoRenewStatus: 1, status: .active)
        let ordinary = SubscriptionState(productId: "p", expiresDate: 10, autoRenewStatus: 1, status: .active)
        let items = SubscriptionStateComparison.knowledgeItems
        #expect(items.map(\.name) == ComparedField.notificationStateFields.map(\.rawValue) + ["active"])
        #expect(
            KnowledgeRule.unknowable(items, v2All: all, v2Ordinary: ordinary, v2OnlyNewest: 5, v1Newest: 4)
                == ["expiresDate"])
        #expect(KnowledgeRule.unknowable(items, v2All: all, v2Ordinary: ordinary, v2OnlyNewest: 5, v1Newest: 6) == [])
        #expect(KnowledgeRule.unknowable(items, v2All: all, v2Ordinary: all, v2OnlyNewest: 5, v1Newest: 4) == [])
        #expect(
            KnowledgeRule.unknowable(items, v2All: all, v2Ordinary: ordinary, v2OnlyNewest: nil, v1Newest: nil) == [])
        // Without an ordinary state, every item V2's state holds differs (its absent items do not).
        let bare = SubscriptionState(productId: nil, expiresDate: 3, autoRenewStatus: nil, status: .expired)
        #expect(
            KnowledgeRule.unknowable(items, v2All: all, v2Ordinary: nil, v2OnlyNewest: 5, v1Newest: 4)
                == ["productId", "expiresDate", "autoRenewStatus", "active"])
        #expect(
            KnowledgeRule.unknowable(items, v2All: bare, v2Ordinary: nil, v2OnlyNewest: 5, v1Newest: 4)
                == ["expiresDate", "active"])
    }

    // MARK: - The state rules' old defects, through the paths that had their own copies

    /// Defect 1 (notification pairing): V2's auto-renew-off notification is lost, and V2's EXPIRED / VOLUNTARY (V2-only)
    /// carries autoRenewStatus 0. Before, V2-only records were left out of V2's state wholesale, so the stale
    /// autoRenewStatus 1 was compared with V1's 0: an invented `state_mismatch` beside the real `missing_in_v2`.
    @Test func aLostOrdinaryV2NotificationIsNotAStateDifferenceWhenV2StillKnows() throws {
        var options = ReconcileOptions()
        options.from = Side.ms("2021-01-01T00:00:00Z")
        options.to = Side.ms("2021-02-20T00:00:00Z")
        let month: (inout ResponseBodyV2DecodedPayload) -> Void = {
            $0.data.transactionInfo?.purchaseDate = Side.ms("2021-01-01T00:00:00Z")
            $0.data.transactionInfo?.expiresDate = Side.ms("2021-02-01T00:00:00Z")
        }
        let off: (inout ResponseBodyV2DecodedPayload) -> Void = {
            month(&$0)
            $0.data.renewalInfo?.autoRenewStatus = 0
        }
        let v1: [V1RecordOutcome] = [
            Side.v1(
                "SUBSCRIBED", "INITIAL_BUY", v1Type: "INITIAL_BUY", wol: "1", time: "2021-01-01T00:00:00Z", line: 1,
                edit: month),
            Side.v1(
                "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", v1Type: "DID_CHANGE_RENEWAL_STATUS", wol: "1",
                time: "2021-01-10T00:00:00Z", line: 2, edit: off)
        ]
        let v2 = [
            Side.payload(
                "SUBSCRIBED", "INITIAL_BUY", otx: "1000", wol: "1", time: "2021-01-01T00:00:02Z", uuid: "buy",
                edit: month),
            Side.payload(
                "EXPIRED", "VOLUNTARY", otx: "1000", wol: "1", time: "2021-02-01T00:00:01Z", uuid: "expired", edit: off)
        ]
        let r = try reconcile(v1, v2, options: options)
        #expect(r.differences.map(\.kind) == [.missingInV2], "\(r.differences.map(\.cells))")
        #expect(r.subscriptions.first?.v2.autoRenewStatus == 0)
    }

    /// Defect 1's other half: a V2-only renewal-date extension V1 has not heard of by the period end is not compared;
    /// once a later V1 record is in the period, it is.
    @Test func anExtensionV1CouldNotYetKnowIsNotCompared() throws {
        var options = ReconcileOptions()
        options.from = Side.ms("2021-01-01T00:00:00Z")
        options.to = Side.ms("2021-02-05T00:00:00Z")
        let month: (inout ResponseBodyV2DecodedPayload) -> Void = {
            $0.data.transactionInfo?.purchaseDate = Side.ms("2021-01-01T00:00:00Z")
            $0.data.transactionInfo?.expiresDate = Side.ms("2021-02-01T00:00:00Z")
        }
        let extended: (inout ResponseBodyV2DecodedPayload) -> Void = {
            month(&$0)
            $0.data.transactionInfo?.expiresDate = Side.ms("2021-02-08T00:00:00Z")
        }
        let v1 = [Side.v1("DID_RENEW", wol: "1", time: "2021-01-01T00:00:00Z", line: 1, edit: month)]
        let v2 = [
            Side.payload(
                "DID_RENEW", nil, otx: "1000", wol: "1", time: "2021-01-01T00:00:02Z", uuid: "renew", edit: month),
            Side.payload(
                "RENEWAL_EXTENDED", nil, otx: "1000", wol: "1", time: "2021-01-31T23:00:00Z", uuid: "ext",
                edit: extended)
        ]
        let r = try reconcile(v1, v2, options: options)
        #expect(r.differences.isEmpty, "\(r.differences.map(\.cells))")
        #expect(r.subscriptions.first?.v2.expiresDate == Side.ms("2021-02-08T00:00:00Z"), "V2 uses everything it knows")
    }

    /// Defect 2 (API view): V1's last word is a DID_RENEW after a billing failure, with auto-renew on; its renewal info
    /// no longer carries `is_in_billing_retry_period`. Before, the failure's stale flag was kept and V1's state claimed
    /// billing retry (3) months later, where Apple says expired (2).
    @Test func aRenewalAfterABillingFailureEndsRetryOnTheAPIPath() throws {
        let jan = S.tx("201", purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
        let feb = S.tx("202", purchase: "2023-02-03T00:00:00Z", expires: "2023-03-03T00:00:00Z")
        let retrying = V1Fixture.pending(extra: ["is_in_billing_retry_period": "1", "expiration_intent": "2"])
        let records = [
            try S.facts("DID_FAIL_TO_RENEW", at: "2023-02-01T00:01:00Z", line: 1, [jan], pending: [retrying]),
            try S.facts("DID_RECOVER", at: "2023-02-03T00:01:00Z", line: 2, [jan, feb], pending: [V1Fixture.pending()])
        ]
        let state = try #require(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: records, at: V1Fixture.ms("2023-06-01T00:00:00Z")))
        #expect(state.status == .expired)
        #expect(state.isInBillingRetryPeriod == false)
        // Only the failure known: retry, and no longer after Apple's 60 days.
        #expect(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: [records[0]], at: V1Fixture.ms("2023-02-10T00:00:00Z"))?.status
                == .billingRetry)
        #expect(
            SubscriptionStatusComparison.state(
                of: "1000000001", records: [records[0]], at: V1Fixture.ms("2023-06-01T00:00:00Z"))?.status == .expired)
    }

    // MARK: - One answer on every path

    /// The property: for random record sequences of one subscription, the notification path (records as `reconcile`
    /// keeps them, `ReconRecord.stateFact`) and the API path (V1 bodies, `V1RecordFacts.stateFact`) derive the same
    /// state at random instants. Nightly re-pairs through the same engine as the notification path.
    @Test func notificationAndAPIPathsGiveTheSameStateForTheSameFacts() throws {
        var random = SplitMix64(seed: 17)
        for round in 0..<300 {
            var bodies: [V1RecordFacts] = []
            var records: [StateFact] = []
            var pool = StringPool()
            var purchase = V1Fixture.ms("2023-01-01T00:00:00Z")
            var shown: [String] = []
            var time = purchase
            for n in 0..<(1 + Int(random.next() % 6)) {
                let renew = n == 0 || random.next() % 2 == 0
                if renew {
                    purchase += Int64(1 + random.next() % 40) * Self.day
                    shown.append(
                        S.tx(
                            String(300 + n), purchase: Timestamp.iso8601(ms: purchase),
                            expires: Timestamp.iso8601(ms: purchase + 30 * Self.day)))
                }
                time = max(time, purchase) + Int64(random.next() % 3) * Self.day
                var extra: [String: String] = [:]
                if random.next() % 4 == 0 { extra["is_in_billing_retry_period"] = "1" }
                if random.next() % 5 == 0 { extra["grace_period_expires_date_ms"] = String(purchase + 35 * Self.day) }
                let autoRenew = random.next() % 3 == 0 ? "0" : "1"
                let facts = try S.facts(
                    renew ? "DID_RENEW" : "DID_CHANGE_RENEWAL_STATUS", at: Timestamp.iso8601(ms: time), line: n + 1,
                    shown,
                    pending: [V1Fixture.pending(status: autoRenew, extra: extra)])
                bodies.append(facts)
                // The notification path keeps one transaction per record: the one the record is about.
                let own = try #require(facts.transactions.first { $0.transactionId == facts.relevantTransactionId })
                var recordFacts = RecordFacts(kind: .migrated, location: SourceLocation(path: ""))
                recordFacts[text: .transactionId] = own.transactionId
                recordFacts[text: .productId] = own.productId
                recordFacts[date: .purchaseDate] = own.purchaseDate
                recordFacts[date: .expiresDate] = own.expiresDate
                recordFacts[number: .autoRenewStatus] = facts.autoRenewStatus.map { $0 ? 1 : 0 }
                recordFacts[text: .autoRenewProductId] = facts.autoRenewProductId
                recordFacts[date: .gracePeriodExpiresDate] = facts.gracePeriodExpiresDate
                recordFacts[flag: .isInBillingRetryPeriod] = facts.isInBillingRetryPeriod
                var record = ReconRecord(fields: FieldValues(recordFacts, pool: &pool))
                record.time = time
                records.append(try #require(record.stateFact(pool, v2Only: false)))
            }
            let instant = time + Int64(random.next() % 90) * Self.day
            let api = SubscriptionStatusComparison.state(of: "1000000001", records: bodies, at: instant)
            let notification = SubscriptionStateRules.derive(records, at: instant)
            #expect(api?.status == notification?.status, "round \(round)")
            #expect(api?.expiresDate == notification?.expiresDate, "round \(round)")
            #expect(api?.autoRenewStatus == notification?.autoRenewStatus, "round \(round)")
            #expect(api?.isInBillingRetryPeriod == notification?.isInBillingRetryPeriod, "round \(round)")
            #expect(api?.gracePeriodExpiresDate == notification?.gracePeriodExpiresDate, "round \(round)")
            #expect(api?.productId == notification?.productId, "round \(round)")
        }
    }
}
