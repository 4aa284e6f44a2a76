import Testing

@testable import ASNMigrateKit

/// Every subscription's records, held flat: each group's positions in input order, unmapped V1 records in none.
@Suite struct SubscriptionGroupsTests {
    /// A record of environment `environment` and originalTransactionId `key` (tokens).
    private static func record(_ environment: UInt64, _ key: UInt64, unmapped: Bool = false) -> ReconRecord {
        var pool = StringPool()
        var r = ReconRecord(fields: FieldValues(RecordFacts(kind: .v2, location: .init(path: "t")), pool: &pool))
        r.environment = environment
        r.key = key
        r.unmapped = unmapped
        return r
    }

    @Test func eachGroupHoldsItsRecordsInInputOrder() {
        let v1Records = [(1, 10, false), (1, 11, false), (2, 10, false), (1, 10, true), (1, 10, false), (1, 0, false)]
        var v1 = ChunkedArray<ReconRecord>()
        for (e, k, u) in v1Records { v1.append(Self.record(UInt64(e), UInt64(k), unmapped: u)) }
        var v2 = ChunkedArray<ReconRecord>()
        for (e, k) in [(1, 12), (1, 10), (2, 10), (1, 10), (1, 0)] { v2.append(Self.record(UInt64(e), UInt64(k))) }
        let groups = SubscriptionGroups(v1: v1, v2: v2)
        let keys = groups.keys.map { [$0.environment, $0.originalTransactionId] }
        #expect(keys == [[1, 10], [1, 11], [2, 10], [1, 0], [1, 12]], "numbered as first read, V1 first")
        #expect((0..<groups.count).map { Array(groups.v1($0)) } == [[0, 4], [1], [2], [5], []])
        #expect((0..<groups.count).map { Array(groups.v2($0)) } == [[1, 3], [], [2], [4], [0]])
    }

    @Test func noRecordsNoGroups() {
        let groups = SubscriptionGroups(v1: ChunkedArray(), v2: ChunkedArray())
        #expect(groups.count == 0)
    }
}
