import Testing

@testable import ASNMigrateKit

/// `SubscriptionStateRules.changePoints`: between two consecutive points the state `derive` gives does not change, for
/// random facts and both kinds of knowledge; the end of a grace period is one of them.
@Suite struct ChangePointsTests {
    private static let day: Int64 = 86_400_000

    /// Random facts of one subscription: up to four records, each showing one or two of three transactions, with
    /// renewal info that may carry a grace period or the billing-retry flag, dates over about 150 days.
    private static func randomFacts(_ random: inout SplitMix64) -> [StateFact] {
        func date(_ random: inout SplitMix64) -> Int64 { Int64(random.next() % UInt64(150 * day)) }
        var facts: [StateFact] = []
        for _ in 0...(random.next() % 4) {
            var transactions: [StateFact.Transaction] = []
            for _ in 0...(random.next() % 2) {
                let id = random.next() % 3
                let purchase = Int64(id) * 30 * day + Int64(random.next() % UInt64(day))
                transactions.append(
                    StateFact.Transaction(
                        transactionId: "t\(id)", purchaseDate: purchase,
                        expiresDate: random.next() % 8 == 0 ? nil : purchase + date(&random) / 3,
                        revocationDate: random.next() % 5 == 0 ? date(&random) : nil, productId: "p\(random.next() % 2)"
                    ))
            }
            let renewal = StateFact.Renewal(
                autoRenewStatus: Int(random.next() % 2), autoRenewProductId: nil,
                gracePeriodExpiresDate: random.next() % 3 == 0 ? date(&random) : nil,
                isInBillingRetryPeriod: random.next() % 3 == 0 ? true : nil)
            let time = date(&random)
            facts.append(
                StateFact(
                    time: time, transactions: transactions, own: random.next() % 2 == 0 ? 0 : nil,
                    renewal: random.next() % 4 == 0 ? nil : renewal,
                    moment: random.next() % 4 == 0 ? time - Int64(random.next() % UInt64(day)) : nil))
        }
        return facts
    }

    @Test func theStateIsTheSameBetweenTwoConsecutiveChangePoints() {
        var random = SplitMix64(seed: 40)
        var compared = 0
        var changed = 0
        for _ in 0..<400 {
            let facts = Self.randomFacts(&random)
            let knowledge: SubscriptionStateRules.Knowledge =
                random.next() % 2 == 0 ? .all : .asOf(lag: Int64(random.next() % UInt64(3 * Self.day)))
            let points = SubscriptionStateRules.changePoints(facts, knowledge: knowledge)
            #expect(points == points.sorted() && Set(points).count == points.count, "sorted, each once")
            for _ in 0..<20 {
                let a = Int64(random.next() % UInt64(260 * Self.day)) - 10 * Self.day
                // The next point after `a`: no point lies in (a, b] for any b before it.
                let next = points.first { $0 > a } ?? (a + 400 * Self.day)
                guard next > a + 1 else { continue }
                let b = a + 1 + Int64(random.next() % UInt64(next - a - 1))
                let before = SubscriptionStateRules.derive(facts, at: a, knowledge: knowledge)
                let after = SubscriptionStateRules.derive(facts, at: b, knowledge: knowledge)
                #expect(before == after, "no change point in (\(a), \(b)]: \(facts), \(knowledge)")
                compared += 1
                // Just before and at the next point, the state may differ: some do, or the points say too much.
                if next < a + 400 * Self.day,
                    SubscriptionStateRules.derive(facts, at: next - 1, knowledge: knowledge)
                        != SubscriptionStateRules.derive(facts, at: next, knowledge: knowledge)
                {
                    changed += 1
                }
            }
        }
        #expect(compared > 4000 && changed > 100, "the property was exercised: \(compared) pairs, \(changed) changes")
    }

    @Test func aGracePeriodsEndIsAChangePointAndTheStateChangesThere() {
        let expires = 30 * Self.day
        let grace = 46 * Self.day
        let failed = StateFact(
            time: expires + 5,
            transactions: [
                .init(transactionId: "1", purchaseDate: 0, expiresDate: expires, revocationDate: nil, productId: "p")
            ], own: 0,
            renewal: .init(
                autoRenewStatus: 1, autoRenewProductId: "p", gracePeriodExpiresDate: grace,
                isInBillingRetryPeriod: true))
        let points = SubscriptionStateRules.changePoints([failed])
        #expect(points == [expires, grace, expires + SubscriptionStatus.billingRetryLimit])
        #expect(SubscriptionStateRules.derive([failed], at: grace - 1)?.status == .gracePeriod)
        #expect(SubscriptionStateRules.derive([failed], at: grace)?.status == .billingRetry)
        // Without the retry flag, no retry end; with `.asOf`, the record's time and purchase too.
        var plain = failed
        plain.renewal?.isInBillingRetryPeriod = nil
        #expect(SubscriptionStateRules.changePoints([plain]) == [expires, grace])
        #expect(
            SubscriptionStateRules.changePoints([plain], knowledge: .asOf(lag: 0)) == [0, expires, expires + 5, grace])
    }
}
