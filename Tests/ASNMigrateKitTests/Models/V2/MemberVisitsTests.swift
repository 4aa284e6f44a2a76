import Testing

@testable import ASNMigrateKit

/// The member visits that stand for a line per member (`MemberVisits.swift`): a member is found by its key at its place,
/// set by its place, and two copies of a model merge member by member; the V2 builder's members follow the table.
@Suite struct MemberVisitsTests {
    /// Sets every member it visits at random: absent, or one of a few values, so two models often share some.
    struct Scrambler: V2MemberVisitor {
        var rng: SplitMix64

        mutating func visit(_ key: String, _ value: inout String?) {
            value = rng.oneIn(3) ? nil : rng.pick(["", "1000000123", "com.example.pro", "Ünïcode ✓"])
        }
        mutating func visit(_ key: String, _ value: inout Int64?) {
            value = rng.oneIn(3) ? nil : rng.pick([0, -1, Int64.max, 1_609_459_200_000])
        }
        mutating func visit(_ key: String, _ value: inout Int?) {
            value = rng.oneIn(3) ? nil : rng.pick([0, 1, 3, Int.min])
        }
        mutating func visit(_ key: String, _ value: inout Bool?) {
            value = rng.oneIn(3) ? nil : rng.oneIn(2)
        }
    }

    /// The keys a model visits, in order.
    struct Keys: V2MemberVisitor {
        var keys: [String] = []
        mutating func visit(_ key: String, _ value: inout String?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int64?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Bool?) { keys.append(key) }
    }

    /// The keys `Model` visits.
    static func keys<Model: V2ScalarModel>(_: Model.Type) -> [String] {
        var keys = Keys()
        var model = Model()
        model.visitMembers(&keys)
        return keys.keys
    }

    /// `fillGaps` over random pairs and masks is the member-by-member `a ?? b` where the mask says, and `a` elsewhere.
    func fillsExactlyTheGapsAsked<Model: V2ScalarModel & Equatable>(_: Model.Type, seed: UInt64) {
        var scrambler = Scrambler(rng: SplitMix64(seed: seed))
        let count = Self.keys(Model.self).count
        #expect(count <= MemberValue.capacity, "\(Model.self) has more members than setMembers holds")
        var filled = 0
        for _ in 0..<500 {
            var a = Model()
            var b = Model()
            a.visitMembers(&scrambler)
            b.visitMembers(&scrambler)
            let mask = scrambler.rng.next()
            var merged = a
            merged.fillGaps(mask, from: b)
            for at in 0..<count {
                let got = Self.value(merged, at)
                let expected =
                    mask & (1 << UInt64(at)) != 0 ? (Self.value(a, at) ?? Self.value(b, at)) : Self.value(a, at)
                #expect(got == expected, "member \(at) of \(Model.self)")
                if got != Self.value(a, at) { filled += 1 }
            }
        }
        #expect(filled > 0, "no gap was ever filled: the test saw nothing")
    }

    /// Reads the value of the member at `at`.
    struct At: V2MemberVisitor {
        let at: Int
        var member = 0
        var value: MemberValue?

        init(at: Int) { self.at = at }

        mutating func visit(_ key: String, _ v: inout String?) { note(v.map(MemberValue.text)) }
        mutating func visit(_ key: String, _ v: inout Int64?) { note(v.map(MemberValue.integer)) }
        mutating func visit(_ key: String, _ v: inout Int?) { note(v.map { .integer(Int64($0)) }) }
        mutating func visit(_ key: String, _ v: inout Bool?) { note(v.map(MemberValue.flag)) }

        mutating func note(_ v: MemberValue?) {
            if member == at { value = v }
            member += 1
        }
    }

    /// Member `at`'s value in `model`, read by a visit of the test's own.
    static func value<Model: V2ScalarModel>(_ model: Model, _ at: Int) -> MemberValue? {
        var reader = At(at: at)
        var copy = model
        copy.visitMembers(&reader)
        return reader.value
    }

    @Test func transactionGapsAreFilledByTheVisit() {
        fillsExactlyTheGapsAsked(JWSTransactionDecodedPayload.self, seed: 38)
    }

    @Test func renewalGapsAreFilledByTheVisit() {
        fillsExactlyTheGapsAsked(JWSRenewalInfoDecodedPayload.self, seed: 39)
    }

    @Test func aMemberIsFoundByItsKeyAtItsPlace() {
        for (at, key) in Self.keys(JWSTransactionDecodedPayload.self).enumerated() {
            #expect(JWSTransactionDecodedPayload.memberPosition(key) == at)
        }
        for (at, key) in Self.keys(JWSRenewalInfoDecodedPayload.self).enumerated() {
            #expect(JWSRenewalInfoDecodedPayload.memberPosition(key) == at)
        }
        #expect(JWSTransactionDecodedPayload.memberPosition("noSuchMember") == nil)
    }

    @Test func setMembersSetsByPlaceAndKeepsTheRest() throws {
        var model = JWSTransactionDecodedPayload()
        model.productId = "kept"
        var values = InlineArray<32, MemberValue?>(repeating: nil)
        let date = try #require(JWSTransactionDecodedPayload.memberPosition("purchaseDate"))
        let quantity = try #require(JWSTransactionDecodedPayload.memberPosition("quantity"))
        let upgraded = try #require(JWSTransactionDecodedPayload.memberPosition("isUpgraded"))
        values[date] = .integer(42)
        values[quantity] = .integer(3)
        values[upgraded] = .flag(true)
        model.setMembers(values)
        var expected = JWSTransactionDecodedPayload()
        expected.productId = "kept"
        expected.purchaseDate = 42
        expected.quantity = 3
        expected.isUpgraded = true
        #expect(model == expected)
    }

    @Test func theBuildersMembersAreTheTablesWrittenKeys() {
        var keys: [String] = []
        for field in V2FieldTable.migrated {
            let parts = field.path.split(separator: ".")
            guard parts.first == "data", parts.count <= 3 else { continue }
            if parts.count == 3, parts[1] != "transactionInfo", parts[1] != "renewalInfo" { continue }
            if !keys.contains(field.key) { keys.append(field.key) }
        }
        #expect(V2Member.allCases.map(\.key) == keys)
        let named: [V2Member] = [
            .bundleId, .bundleVersion, .status, .environment, .transactionId, .originalTransactionId, .productId,
            .type, .revocationReason, .revocationDate, .isUpgraded, .offerType, .offerIdentifier, .offerDiscountType,
            .transactionReason, .autoRenewProductId, .autoRenewStatus, .expirationIntent, .isInBillingRetryPeriod,
            .renewalDate, .recentSubscriptionStartDate
        ]
        for member in named { #expect(V2Member.allCases.contains(member), "\(member.rawValue) is no table member") }
        #expect(V2Member.keyBytes.map { Array($0) } == keys.map { Array($0.utf8) })
    }
}
