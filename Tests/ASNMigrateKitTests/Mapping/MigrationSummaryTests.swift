import Testing

@testable import ASNMigrateKit

/// The `migrate` summary: every record counted once, per-route counts, and the balance line on stderr.
@Suite struct MigrationSummaryTests {
    private typealias F = V1Fixture

    /// A subscription's first month.
    static let first = F.tx(id: "1000000001", purchase: "2021-01-01T00:00:00Z", expires: "2021-02-01T00:00:00Z")

    /// Outcomes of every kind: 3 migrated over 2 routes, 2 unmapped, 2 rejected.
    static func mixedOutcomes() throws -> [V1RecordOutcome] {
        [
            try F.map(F.body(type: "INITIAL_BUY", transactions: [first])),
            try F.map(F.body(type: "DID_RENEW", transactions: [first])),
            try F.map(F.body(type: "DID_RENEW", transactions: [])),
            try F.map(F.body(type: "TEST", transactions: [])),
            try F.map(F.body(type: "SOMETHING_NEW", transactions: [])),
            try F.map(#"{"notification_type":"DID_RE"#),
            try F.map(#"{"notification_type":42}"#)
        ]
    }

    /// Counts every outcome once and balances.
    @Test func countsEveryOutcomeOnceAndBalances() throws {
        let outcomes = try Self.mixedOutcomes()
        var summary = MigrationSummary()
        for outcome in outcomes { summary.count(outcome) }
        #expect(summary.read == outcomes.count)
        #expect(summary.migrated == outcomes.filter { $0.payload != nil }.count)
        #expect(summary.unmapped == outcomes.filter { $0.unmappedRecord != nil }.count)
        #expect(summary.rejected == outcomes.filter { $0.rejection != nil }.count)
        #expect(summary.migrated == 3 && summary.unmapped == 2 && summary.rejected == 2)
        #expect(summary.isBalanced)
    }

    /// Routes and unmapped types are counted separately.
    @Test func routesAndUnmappedTypesAreCountedSeparately() throws {
        var summary = MigrationSummary()
        for outcome in try Self.mixedOutcomes() { summary.count(outcome) }
        let renew = MigrationSummary.Route(v1Type: "DID_RENEW", v2Type: "DID_RENEW", v2Subtype: nil)
        let buy = MigrationSummary.Route(v1Type: "INITIAL_BUY", v2Type: "SUBSCRIBED", v2Subtype: "INITIAL_BUY")
        #expect(summary.routes == [renew: 2, buy: 1])
        #expect(summary.unmappedTypes == ["TEST": 1, "SOMETHING_NEW": 1])
    }

    /// Render shows the balanced check line and every route.
    @Test func renderShowsTheBalancedCheckLineAndEveryRoute() throws {
        var summary = MigrationSummary()
        summary.files = 2
        for outcome in try Self.mixedOutcomes() { summary.count(outcome) }
        let text = summary.render()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "asn-migrate migrate: 7 records read from 2 inputs")
        #expect(lines.last == "  check: read 7 = migrated 3 + unmapped 2 + rejected 2")
        #expect(lines.contains { $0.hasPrefix("    DID_RENEW   -> DID_RENEW: 2") })
        #expect(lines.contains { $0.hasPrefix("    INITIAL_BUY -> SUBSCRIBED / INITIAL_BUY: 1") })
        #expect(lines.contains("    SOMETHING_NEW: 1"))
        #expect(!text.contains("MISMATCH"))
    }

    /// Empty run is balanced and singular.
    @Test func emptyRunIsBalancedAndSingular() {
        var summary = MigrationSummary()
        summary.files = 1
        #expect(summary.isBalanced)
        #expect(summary.render().hasPrefix("asn-migrate migrate: 0 records read from 1 input\n"))
    }
}
