import Testing

@testable import ASNMigrateKit

/// The state rules' compact ids (`TransactionID`), the inline transaction list (`StateFact.Transactions`) and the
/// tables `derive` reuses: each gives exactly what the text, the array and a fresh derivation gave.
@Suite struct TransactionIDTests {
    private static let texts = [
        "", "0", "7", "10", "01", "007", "2000000123456789", "999999999999999999", "1000000000000000000",
        "18446744073709551616", "12a", "a", "b", "abc", "-1", "1.5", " 1", "é"
    ]

    @Test func anIdKeepsItsTextAndOnlyCanonicalNumbersArePacked() {
        for text in Self.texts {
            let id = TransactionID(text)
            #expect(id.text == text, "\(text)")
            let canonical =
                !text.isEmpty && text.count <= 18 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
                && (text.count == 1 || !text.hasPrefix("0"))
            if case .number = id { #expect(canonical, "\(text)") } else { #expect(!canonical, "\(text)") }
        }
    }

    @Test func idsAreEqualAndOrderedExactlyAsTheirTexts() {
        let ids: [String?] = [nil] + Self.texts
        for a in ids {
            for b in ids {
                let (x, y) = (a.map(TransactionID.init), b.map(TransactionID.init))
                #expect((x == y) == (a == b), "\(a ?? "nil") \(b ?? "nil")")
                #expect(
                    TransactionID.less(x, y) == IdentifierOrder.less(a ?? "", b ?? ""), "\(a ?? "nil") < \(b ?? "nil")")
            }
        }
    }

    @Test func thePoolsNumbersBecomeIdsWithoutText() {
        var pool = StringPool()
        for text in Self.texts where !text.isEmpty {
            let token = pool.token(text)
            #expect(pool.transactionID(token) == TransactionID(text), "\(text)")
        }
        #expect(pool.transactionID(pool.token("2000000123456789")) == .number(2_000_000_123_456_789))
        #expect(pool.transactionID(0) == nil)
    }

    @Test func inlineTransactionsAreTheArrayTheyWereMadeFrom() {
        let t = { (id: String) in
            StateFact.Transaction(
                transactionId: id, purchaseDate: 1, expiresDate: 2, revocationDate: nil, productId: "p")
        }
        for list in [[], [t("1")], [t("1"), t("2")], [t("1"), t("2"), t("3")]] {
            var held = StateFact.Transactions(list)
            #expect(Array(held) == list)
            #expect(held == StateFact.Transactions(list))
            if !list.isEmpty {
                held[held.count - 1].transactionId = "9"
                #expect(held.last?.transactionId == "9" && held.count == list.count)
            }
        }
        #expect(StateFact.Transactions(t("1")) == StateFact.Transactions([t("1")]))
        #expect(StateFact.Transactions(nil as StateFact.Transaction?).isEmpty)
    }

    /// Random subscriptions' facts, derived one after another through one reused `Scratch`, give the states a fresh
    /// derivation gives (a table left filled by one subscription would leak into the next); and the copies of one
    /// transaction, merged without the table, give the state they give merged in it (a fact first that shows an older
    /// transaction, and nothing else, moves them into the table).
    @Test func derivingWithReusedTablesGivesTheFreshState() {
        var random = SplitMix64(seed: 31)
        var scratch = SubscriptionStateRules.Scratch()
        var states = 0
        for round in 0..<400 {
            var facts: [StateFact] = []
            for _ in 0..<Int(random.next() % 12) {
                let purchase = Int64(random.next() % 8) * 1_000
                let shown = (0..<Int(random.next() % 3)).map { _ in
                    StateFact.Transaction(
                        transactionId: ["1", "2", "3", "0300", nil][Int(random.next() % 5)],
                        purchaseDate: purchase + Int64(random.next() % 2) * 1_000,
                        expiresDate: random.next() % 4 == 0 ? nil : purchase + Int64(random.next() % 5) * 1_000,
                        revocationDate: random.next() % 5 == 0 ? purchase + 500 : nil,
                        productId: ["a", "b", nil][Int(random.next() % 3)])
                }
                let renewal = StateFact.Renewal(
                    autoRenewStatus: random.next() % 3 == 0 ? nil : Int(random.next() % 2), autoRenewProductId: "a",
                    gracePeriodExpiresDate: nil, isInBillingRetryPeriod: random.next() % 4 == 0 ? true : nil)
                facts.append(
                    StateFact(
                        time: Int64(random.next() % 10) * 1_000, transactions: shown,
                        own: shown.isEmpty ? nil : Int(random.next() % UInt64(shown.count)),
                        renewal: random.next() % 3 == 0 ? nil : renewal))
            }
            let instant = Int64(random.next() % 10) * 1_000
            for knowledge in [SubscriptionStateRules.Knowledge.all, .asOf(lag: 2_000)] {
                let fresh = SubscriptionStateRules.derive(facts, at: instant, knowledge: knowledge)
                let reused = SubscriptionStateRules.derive(facts, at: instant, knowledge: knowledge, reusing: &scratch)
                #expect(fresh == reused && fresh?.newestRecordTime == reused?.newestRecordTime, "round \(round)")
                let older = StateFact(
                    time: Int64.min,
                    transactions: [
                        .init(
                            transactionId: nil, purchaseDate: Int64.min, expiresDate: nil, revocationDate: nil,
                            productId: nil)
                    ], own: 0, renewal: nil)
                #expect(
                    SubscriptionStateRules.derive([older] + facts, at: instant, knowledge: knowledge) == fresh,
                    "round \(round)")
                if fresh != nil { states += 1 }
            }
        }
        #expect(states > 200, "most rounds derive a state")
    }
}
