import Testing

@testable import ASNMigrateKit

/// Packed models (V2 transactions and renewal infos, V1 receipt entries) give back exactly what was packed.
@Suite struct PackedMembersTests {
    /// Sets every member it visits at random: absent, or a value of an awkward kind.
    private struct RandomFiller: V2MemberVisitor {
        var rng: SplitMix64
        static let texts = [
            "", "0", "007", "2000000123456789", "123456789012345678", "1234567890123456789", "-5", "Production",
            "com.example.app.premium.monthly", "Auto-Renewable Subscription", "Ünïcode ✓", "6F9619FF-8B86-D011-B42D"
        ]

        mutating func visit(_ key: String, _ value: inout String?) {
            value = rng.oneIn(4) ? nil : rng.pick(Self.texts) + (rng.oneIn(3) ? String(rng.below(1000)) : "")
        }
        mutating func visit(_ key: String, _ value: inout Int64?) {
            value =
                rng.oneIn(4) ? nil : rng.pick([0, -1, Int64.min, Int64.max, 1_609_459_200_000, Int64(rng.below(99))])
        }
        mutating func visit(_ key: String, _ value: inout Int?) {
            value = rng.oneIn(4) ? nil : rng.pick([0, -3, Int.max, Int.min, rng.below(10)])
        }
        mutating func visit(_ key: String, _ value: inout Bool?) {
            value = rng.oneIn(3) ? nil : rng.oneIn(2)
        }
    }

    /// 2,000 random models of each kind, packed into one pool, all unpack to themselves.
    private func roundTrips<Model: PackableModel & Equatable>(_: Model.Type, seed: UInt64) {
        var filler = RandomFiller(rng: SplitMix64(seed: seed))
        var pool = StringPool()
        var models: [Model] = []
        var packed: [PackedMembers<Model>] = []
        for _ in 0..<2_000 {
            var model = Model()
            model.visitMembers(&filler)
            models.append(model)
            packed.append(PackedMembers(model, pool: &pool))
        }
        #expect(models.contains { $0 != Model() })
        for (model, p) in zip(models, packed) {
            #expect(p.unpacked(pool) == model)
            #expect(PackedMembers<Model>.presence(of: model) == p.presence)
        }
        #expect(PackedMembers(Model(), pool: &pool).unpacked(pool) == Model())
    }

    @Test func transactionsRoundTrip() {
        roundTrips(JWSTransactionDecodedPayload.self, seed: 11)
    }

    @Test func renewalInfosRoundTrip() {
        roundTrips(JWSRenewalInfoDecodedPayload.self, seed: 12)
    }

    @Test func v1ReceiptEntriesRoundTrip() {
        roundTrips(LatestReceiptInfo.self, seed: 13)
    }

    /// A V1 receipt entry visits every member it stores: one added to the model but not to its visit would be lost
    /// from every packed V1 transaction.
    @Test func v1ReceiptEntriesVisitEveryMember() {
        #expect(PackedMembers<LatestReceiptInfo>.memberCount == Mirror(reflecting: LatestReceiptInfo()).children.count)
        #expect(PackedMembers<LatestReceiptInfo>.memberCount <= PackedMembers<LatestReceiptInfo>.capacity)
    }

    /// One member read packed (`word`, at the position `member` names) is the unpacked model's value, absent or not.
    @Test func oneMemberReadsAsTheModelHoldsIt() {
        var filler = RandomFiller(rng: SplitMix64(seed: 14))
        var pool = StringPool()
        let purchase = PackedMembers<JWSTransactionDecodedPayload>.member { $0.purchaseDate = 0 }
        let original = PackedMembers<JWSTransactionDecodedPayload>.member { $0.originalTransactionId = "" }
        #expect(purchase != original)
        var present = 0
        for _ in 0..<500 {
            var model = JWSTransactionDecodedPayload()
            model.visitMembers(&filler)
            let packed = PackedMembers(model, pool: &pool)
            #expect(packed.word(purchase).map { Int64(bitPattern: $0) } == model.purchaseDate)
            #expect(packed.word(original).flatMap { pool.text($0) } == model.originalTransactionId)
            if model.purchaseDate != nil { present += 1 }
        }
        #expect(present > 100 && present < 500)
    }

    /// Each member needs a bit of the mask: a model that grows past it must be packed another way.
    @Test func modelsFitTheMask() {
        #expect(PackedMembers<JWSTransactionDecodedPayload>.memberCount > 20)
        #expect(
            PackedMembers<JWSTransactionDecodedPayload>.memberCount
                <= PackedMembers<JWSTransactionDecodedPayload>.capacity)
        #expect(PackedMembers<JWSRenewalInfoDecodedPayload>.memberCount > 5)
        #expect(
            PackedMembers<JWSRenewalInfoDecodedPayload>.memberCount
                <= PackedMembers<JWSRenewalInfoDecodedPayload>.capacity)
    }
}
