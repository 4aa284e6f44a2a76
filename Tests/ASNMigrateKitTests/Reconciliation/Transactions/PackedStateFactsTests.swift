import Testing

@testable import ASNMigrateKit

/// The state facts a collector keeps packed give back exactly the facts appended, per subscription, in order.
@Suite struct PackedStateFactsTests {
    @Test func randomFactsOfSeveralSubscriptionsComeBackAsAppended() {
        var rng = SplitMix64(seed: 20_261_127)
        let keys = [
            SubscriptionKey(environment: "Production", originalTransactionId: "1000000001"),
            SubscriptionKey(environment: "Sandbox", originalTransactionId: "1000000001"),
            SubscriptionKey(environment: "Production", originalTransactionId: "sub-007"),
            SubscriptionKey(environment: "", originalTransactionId: "")
        ]
        let texts: [String?] = [nil, "", "0", "007", "2000000123456789", "1234567890123456789", "pro.monthly", "Ünï ✓"]
        let dates: [Int64?] = [nil, 0, -1, Int64.min, Int64.max, 1_609_459_200_000]
        var packed = PackedStateFacts()
        var pool = StringPool()
        var expected: [SubscriptionKey: [StateFact]] = [:]
        for _ in 0..<600 {
            var shown: [StateFact.Transaction] = []
            for _ in 0..<rng.below(4) {
                shown.append(
                    StateFact.Transaction(
                        transactionId: rng.pick(texts), purchaseDate: rng.pick(dates) ?? 7,
                        expiresDate: rng.pick(dates), revocationDate: rng.pick(dates), productId: rng.pick(texts)))
            }
            let renewal =
                rng.oneIn(3)
                ? nil
                : StateFact.Renewal(
                    autoRenewStatus: rng.pick([nil, 0, 1, -5, Int.max]), autoRenewProductId: rng.pick(texts),
                    gracePeriodExpiresDate: rng.pick(dates), isInBillingRetryPeriod: rng.pick([nil, true, false]))
            let fact = StateFact(
                time: rng.pick(dates) ?? 3, transactions: shown, own: shown.isEmpty ? nil : rng.pick([nil, 0]),
                renewal: renewal, v2Only: rng.oneIn(5), moment: rng.pick(dates))
            let key = rng.pick(keys)
            packed.append(fact, of: key, pool: &pool)
            expected[key, default: []].append(fact)
        }
        #expect(expected.count == keys.count)
        for key in keys { #expect(packed.facts(of: key, pool: pool) == expected[key]) }
        #expect(
            packed.facts(of: SubscriptionKey(environment: "Production", originalTransactionId: "9"), pool: pool) == nil)
    }
}
