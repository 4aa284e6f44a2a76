/// The records of every subscription (environment + originalTransactionId): positions in the V1 and V2 record lists,
/// each group's in input order. Records pair only within their group; records without an originalTransactionId form
/// one group per environment (they can still pair by type). Unmapped V1 records take no part.
///
/// Held flat: each side's positions in one array, group after group, so grouping a run's records allocates a few
/// arrays, not two per subscription. Groups are numbered in the order their first record was read (V1 first).
struct SubscriptionGroups: Sendable {
    /// What identifies a group: environment and originalTransactionId, interned.
    struct Key: Hashable, Sendable {
        /// Environment (token).
        var environment: StringPool.Token
        /// originalTransactionId (token; 0 when absent).
        var originalTransactionId: StringPool.Token
    }

    /// Each group's key, by group number.
    private(set) var keys: [Key] = []
    /// The V1 positions, group after group.
    private var v1Positions: [Int32] = []
    /// Where each group's V1 positions start in `v1Positions` (one more entry than groups: the last is the end).
    private var v1Starts: [Int] = []
    /// The V2 positions, group after group.
    private var v2Positions: [Int32] = []
    /// Where each group's V2 positions start in `v2Positions` (one more entry than groups).
    private var v2Starts: [Int] = []

    /// Groups the records.
    init(v1: ChunkedArray<ReconRecord>, v2: ChunkedArray<ReconRecord>) {
        var numbers: [Key: Int32] = [:]
        let number = { (numbers: inout [Key: Int32], keys: inout [Key], r: ReconRecord) -> Int32 in
            let key = Key(environment: r.environment, originalTransactionId: r.key)
            if let known = numbers[key] { return known }
            let next = Int32(keys.count)
            numbers[key] = next
            keys.append(key)
            return next
        }
        var v1Groups = [Int32](repeating: -1, count: v1.count)
        for i in v1.indices where !v1[i].unmapped { v1Groups[i] = number(&numbers, &keys, v1[i]) }
        var v2Groups = [Int32](repeating: -1, count: v2.count)
        for j in v2.indices { v2Groups[j] = number(&numbers, &keys, v2[j]) }
        (v1Positions, v1Starts) = Self.flatten(v1Groups, groups: keys.count)
        (v2Positions, v2Starts) = Self.flatten(v2Groups, groups: keys.count)
    }

    /// The number of groups.
    var count: Int { keys.count }

    /// Group `group`'s V1 positions, in input order.
    func v1(_ group: Int) -> ArraySlice<Int32> {
        v1Positions[v1Starts[group]..<v1Starts[group + 1]]
    }

    /// Group `group`'s V2 positions, in input order.
    func v2(_ group: Int) -> ArraySlice<Int32> {
        v2Positions[v2Starts[group]..<v2Starts[group + 1]]
    }

    /// The positions of `groupOf` (each position's group, -1 for none) ordered by group, then position, and where
    /// each group's start.
    private static func flatten(_ groupOf: [Int32], groups: Int) -> (positions: [Int32], starts: [Int]) {
        var starts = [Int](repeating: 0, count: groups + 1)
        for g in groupOf where g >= 0 { starts[Int(g) + 1] += 1 }
        for g in 0..<groups { starts[g + 1] += starts[g] }
        var next = starts
        var positions = [Int32](repeating: 0, count: starts[groups])
        for (position, g) in groupOf.enumerated() where g >= 0 {
            positions[next[Int(g)]] = Int32(position)
            next[Int(g)] += 1
        }
        return (positions, starts)
    }
}
