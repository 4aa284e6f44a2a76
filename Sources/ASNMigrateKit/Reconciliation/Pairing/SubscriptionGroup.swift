/// The records of one subscription (environment + originalTransactionId): positions in the V1 and V2 record lists,
/// each in input order. Records pair only within their group; records without an originalTransactionId form one group
/// per environment (they can still pair by type).
struct SubscriptionGroup: Sendable {
    /// What identifies a group: environment and originalTransactionId, interned.
    struct Key: Hashable, Sendable {
        /// Environment (token).
        var environment: StringPool.Token
        /// originalTransactionId (token; 0 when absent).
        var originalTransactionId: StringPool.Token
    }

    /// Positions in the V1 records.
    var v1: [Int32] = []
    /// Positions in the V2 records.
    var v2: [Int32] = []

    /// Every group of the records; unmapped V1 records take no part.
    static func all(v1: ChunkedArray<ReconRecord>, v2: ChunkedArray<ReconRecord>) -> [Key: SubscriptionGroup] {
        var groups: [Key: SubscriptionGroup] = [:]
        for i in v1.indices where !v1[i].unmapped {
            groups[Key(environment: v1[i].environment, originalTransactionId: v1[i].key), default: SubscriptionGroup()]
                .v1.append(Int32(i))
        }
        for j in v2.indices {
            groups[Key(environment: v2[j].environment, originalTransactionId: v2[j].key), default: SubscriptionGroup()]
                .v2.append(Int32(j))
        }
        return groups
    }
}
