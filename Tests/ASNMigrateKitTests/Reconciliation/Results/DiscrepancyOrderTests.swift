import Testing

@testable import ASNMigrateKit

/// The report order compared from the fields is the order of the rows' cells.
@Suite struct DiscrepancyOrderTests {
    /// A row from few values per column, so that rows tie on any set of columns.
    private static func row(_ rng: inout SplitMix64) -> Discrepancy {
        var d = Discrepancy(kind: rng.pick([.missingInV2, .fieldMismatch, .stateMismatch, .transactionMissingInV1]))
        d.environment = rng.pick(["Production", "Sandbox", ""])
        d.originalTransactionId = rng.pick(["1000000001", "1000000002", "999", "10000000010000000"])
        d.webOrderLineItemId = rng.pick(["", "5000"])
        d.eventDate = rng.pick([
            nil, 0, -1, 1_609_459_200_000, 1_609_459_200_001, 253_402_300_799_999, 253_402_300_800_000,
            -62_167_219_200_000, -62_167_219_200_001, -62_198_755_200_000
        ])
        d.field = rng.pick(["", "expiresDate", "productId"])
        d.v1Value = rng.pick(["", "a", "b"])
        d.v2Value = rng.pick(["", "a"])
        d.v1Source = rng.pick(["", "v1.jsonl:1", "v1.jsonl:10"])
        d.v2SignedDate = rng.pick([nil, 5])
        d.v1EventTimeInferred = rng.pick([nil, true, false])
        return d
    }

    /// Over 400 random rows (160,000 ordered pairs), both orders agree, and so do the sorts.
    @Test func fieldOrderIsTheCellOrder() {
        var rng = SplitMix64(seed: 2026_11_26)
        let rows = (0..<400).map { _ in Self.row(&rng) }
        var disagreements = 0
        for a in rows {
            for b in rows where Discrepancy.reportOrder(a, b) != Discrepancy.reportOrder(cells: a.cells, b.cells) {
                disagreements += 1
            }
        }
        #expect(disagreements == 0)
        let byFields = rows.sorted(by: Discrepancy.reportOrder).map(\.cells)
        let byCells = rows.map(\.cells).sorted { Discrepancy.reportOrder(cells: $0, $1) }
        #expect(byFields == byCells)
        #expect(Set(byCells.map { $0.joined(separator: ",") }).count > 200)
    }
}
