import Testing

@testable import ASNMigrateKit

/// The checks behind exit status 3, and how `--max-reject-rate` is read.
@Suite struct SanityCheckTests {
    @Test(arguments: [("0.01", 0.01), ("1%", 0.01), ("0.5%", 0.005), ("0", 0.0), ("100%", 1.0), ("1", 1.0), (".2", 0.2)]
    )
    func ratesParseAsFractionsOrPercentages(text: String, expected: Double) {
        #expect(SanityCheck.parseRate(text) == expected)
    }

    @Test(arguments: ["", "%", "abc", "1.5", "101%", "-0.1", "1e-2", "0x1", " 1%"])
    func badRatesAreRefused(text: String) {
        #expect(SanityCheck.parseRate(text) == nil)
    }

    @Test func passesAtTheLimitAndFailsAboveIt() {
        let atLimit = [SanityCheck.Side(name: "V1", read: 100, rejected: 1), .init(name: "V2", read: 200, rejected: 2)]
        #expect(SanityCheck.failures(atLimit, maxRejectRate: 0.01, pairedSides: true) == nil)
        let above = [SanityCheck.Side(name: "V1", read: 100, rejected: 1), .init(name: "V2", read: 200, rejected: 3)]
        #expect(
            SanityCheck.failures(above, maxRejectRate: 0.01, pairedSides: true)
                == "sanity check failed: V2 rejected 3 of 200 records read (1.5%), above --max-reject-rate 1%")
    }

    @Test func anEmptySideFailsOnlyWhenTheOtherHasRecords() {
        let oneEmpty = [SanityCheck.Side(name: "V1", read: 10, rejected: 0), .init(name: "V2", read: 0, rejected: 0)]
        #expect(
            SanityCheck.failures(oneEmpty, maxRejectRate: 0.01, pairedSides: true)
                == "sanity check failed: V2 has no usable records (read 0) while V1 has 10; check the --v2 paths")
        #expect(SanityCheck.failures(oneEmpty, maxRejectRate: 0.01, pairedSides: false) == nil)
    }

    @Test func aSideThatReadNothingFailsEvenWhenTheOtherReadNothingToo() {
        let bothEmpty = [SanityCheck.Side(name: "V1", read: 0, rejected: 0), .init(name: "V2", read: 0, rejected: 0)]
        let both = SanityCheck.failures(bothEmpty, maxRejectRate: 0.01, pairedSides: true)
        #expect(both == "sanity check failed: V1 and V2 read no records; check the --v1 and --v2 paths")
        #expect(
            SanityCheck.verdict(both ?? "")
                == "report written, but V1 and V2 read no records; check the --v1 and --v2 paths")
        // Nothing read on one side, everything rejected on the other: the empty side is named too.
        let rejectedOnly = [SanityCheck.Side(name: "V1", read: 0, rejected: 0), .init(name: "V2", read: 4, rejected: 4)]
        let line = SanityCheck.failures(rejectedOnly, maxRejectRate: 1, pairedSides: true)
        #expect(line == "sanity check failed: V1 read no records; check the --v1 path")
        #expect(SanityCheck.failures(bothEmpty, maxRejectRate: 0.01, pairedSides: false) == nil)
    }

    @Test func everyFailedCheckIsOnOneLine() throws {
        let allRejected = [SanityCheck.Side(name: "V1", read: 5, rejected: 5), .init(name: "V2", read: 3, rejected: 0)]
        let line = try #require(SanityCheck.failures(allRejected, maxRejectRate: 0.5, pairedSides: true))
        #expect(!line.contains("\n"))
        #expect(line.contains("V1 rejected 5 of 5 records read (100%), above --max-reject-rate 50%"))
        #expect(line.contains("V1 has no usable records (read 5) while V2 has 3"))
    }
}
