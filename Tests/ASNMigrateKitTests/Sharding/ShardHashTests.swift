import Testing

@testable import ASNMigrateKit

/// The shard hash is a published contract (README, "Running at scale"): these values must never change, and a V1
/// record always lands in its V2 partner's shard.
@Suite struct ShardHashTests {
    @Test func fnv1a64MatchesThePublishedTestVectors() {
        #expect(ShardHash.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(ShardHash.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    }

    /// Pinned: changing the hash, the separator or the normalisation moves subscriptions between shards and breaks
    /// every merge of shards written by another release.
    @Test(arguments: [
        ("Production", "1000000000000001", UInt64(0x0012_e5ef_1582_fc3c), [0, 1, 2, 4]),
        ("Sandbox", "2000000000000002", UInt64(0x7086_621e_25ec_38c8), [0, 0, 4, 0]),
        ("Production", "99999999999999999999", UInt64(0x07ce_6805_ccaa_232a), [0, 2, 5, 2]),
        ("Production", "470000000000123", UInt64(0x48ec_ccec_dbce_b11d), [1, 2, 3, 5])
    ])
    func pinnedValues(environment: String, id: String, hash: UInt64, shards: [Int]) {
        #expect(ShardHash.hash(environment: environment, originalTransactionId: id) == hash)
        for (count, expected) in zip([2, 3, 7, 8], shards) {
            #expect(
                ShardHash.shard(environment: environment, originalTransactionId: id, count: count) == expected,
                "N = \(count)")
        }
    }

    @Test func recordsWithoutAKeyBelongToShardZero() {
        for count in [1, 2, 7] {
            #expect(ShardHash.shard(environment: "Production", originalTransactionId: nil, count: count) == 0)
            #expect(ShardHash.shard(environment: "Sandbox", originalTransactionId: "", count: count) == 0)
            let reject = V1RecordOutcome.rejected(ASNError(.malformedJSON, "x"))
            #expect(ShardHash.shard(of: reject, count: count) == 0)
        }
    }

    /// Property: over random IDs and every spelling of the environment Apple uses, a V1 record (V1 `PROD`, `Sandbox`
    /// in any case) and its V2 partner (`Production`, `Sandbox`) land in the same shard, for several N; and the shards
    /// are used evenly enough that no N leaves a shard empty.
    @Test func aV1RecordAndItsV2PartnerShareTheirShard() {
        var random = SplitMix64(seed: 21)
        let spellings = [
            ("PROD", "Production"), ("prod", "Production"), ("Production", "Production"), ("Sandbox", "Sandbox"),
            ("sandbox", "Sandbox"), ("SANDBOX", "Sandbox")
        ]
        var used: [Int: Set<Int>] = [:]
        for _ in 0..<2000 {
            let digits = 1 + random.below(20)
            let id = String((0..<digits).map { _ in Character(String(random.below(10))) })
            let (v1Environment, v2Environment) = spellings[random.below(spellings.count)]
            let count = [1, 2, 3, 7, 8, 64][random.below(6)]
            let v1 = ShardHash.shard(environment: v1Environment, originalTransactionId: id, count: count)
            let v2 = ShardHash.shard(environment: v2Environment, originalTransactionId: id, count: count)
            #expect(v1 == v2, "\(v1Environment)/\(v2Environment) \(id) N=\(count)")
            #expect((0..<count).contains(v1))
            used[count, default: []].insert(v1)
        }
        for count in [1, 2, 3, 7, 8] { #expect(used[count]?.count == count, "every shard of \(count) gets records") }
    }
}
