/// Which shard a subscription belongs to: the one stable, documented hash every `--shard`, `--shards` and `partition`
/// run uses, on every machine and release (README, "Running at scale"; `ShardHashTests` pins its values).
///
/// The key is the subscription as `reconcile` groups it: the environment as reports write it (`Production` for V1's
/// `PROD` and V2's `Production` alike, `Sandbox`; other values unchanged) and the `originalTransactionId`. The shard is
/// FNV-1a 64 over the UTF-8 bytes of environment, one 0x00 byte, originalTransactionId, modulo the shard count. A
/// record without an originalTransactionId (a TEST notification, a reject) belongs to shard 0.
public enum ShardHash {
    /// FNV-1a 64's offset basis.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// FNV-1a 64's prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a 64 of `bytes`.
    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The hash of a subscription key: FNV-1a 64 over `environment` + 0x00 + `originalTransactionId` (UTF-8), the
    /// environment normalised as reports write it.
    public static func hash(environment: String?, originalTransactionId: String) -> UInt64 {
        let name = EnvironmentName.normalized(environment) ?? ""
        return fnv1a64(Array(name.utf8) + [0] + Array(originalTransactionId.utf8))
    }

    /// `hash(environment:originalTransactionId:)` with the id given as UTF-8.
    package static func hash(environment: String?, originalTransactionId: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        var name = EnvironmentName.normalized(environment) ?? ""
        name.withUTF8 { for byte in $0 { hash = (hash ^ UInt64(byte)) &* prime } }
        hash = (hash ^ 0) &* prime
        for byte in originalTransactionId { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// The shard (0 ..< `count`) of a record with this environment and originalTransactionId; 0 without an
    /// originalTransactionId (nil or empty).
    public static func shard(environment: String?, originalTransactionId: String?, count: Int) -> Int {
        guard count > 1, let id = originalTransactionId, !id.isEmpty else { return 0 }
        return Int(hash(environment: environment, originalTransactionId: id) % UInt64(count))
    }

    /// The shard of a decoded V2 payload (a V2 record as read, or a V1 record migrated to V2 form).
    package static func shard(of payload: ResponseBodyV2DecodedPayload, count: Int) -> Int {
        shard(
            environment: payload.data.environment,
            originalTransactionId: payload.data.transactionInfo?.originalTransactionId
                ?? payload.data.renewalInfo?.originalTransactionId,
            count: count)
    }

    /// The shard of a record's packed facts (`texts` holds their texts): by its subscription, 0 without one.
    package static func shard(of facts: PackedFacts, texts: FactTexts, count: Int) -> Int {
        guard count > 1 else { return 0 }
        return texts.withBytes(facts.originalTransactionId) { id in
            guard let id, !id.isEmpty else { return 0 }
            let hash = hash(environment: texts.string(facts.environment), originalTransactionId: id)
            return Int(hash % UInt64(count))
        }
    }

    /// The shard of a V1 record's outcome: by its subscription when migrated or unmapped, 0 when rejected.
    package static func shard(of outcome: V1RecordOutcome, count: Int) -> Int {
        switch outcome {
        case .migrated(let payload): return shard(of: payload, count: count)
        case .unmapped(let unmapped):
            return shard(
                environment: unmapped.environment, originalTransactionId: unmapped.originalTransactionId, count: count)
        case .rejected: return 0
        }
    }
}
