import Testing

@testable import ASNMigrateKit

/// The progress line with an injected clock and terminal decision: throttled, `\r`-rewritten, cleared, and silent
/// off a terminal.
@Suite struct ProgressLineTests {
    /// A clock the test moves by hand, and everything written.
    final class Harness {
        /// Nanoseconds.
        var time: UInt64 = 1_000_000_000
        /// Written texts, in order.
        var written: [String] = []
    }

    /// A line over `harness`.
    static func line(_ harness: Harness, enabled: Bool = true, total: Int = 4_000_000_000) -> ProgressLine {
        ProgressLine(
            enabled: enabled, totalBytes: total, interval: 0.25, now: { harness.time },
            write: { harness.written.append($0) })
    }

    @Test func rendersRatesAndTheETAFromTheTotal() {
        let text = ProgressLine.render(bytes: 1_000_000_000, records: 50_000, seconds: 2, totalBytes: 4_000_000_000)
        #expect(text == "migrate: 1.00 GB of 4.00 GB (25%), 500.0 MB/s, 25000 records/s, ETA 0:06")
        #expect(
            ProgressLine.render(bytes: 500_000_000, records: 10, seconds: 1, totalBytes: 0)
                == "migrate: 0.50 GB, 500.0 MB/s, 10 records/s")
        #expect(
            ProgressLine.render(bytes: 1_000_000, records: 1, seconds: 1, totalBytes: 100_000_000).hasSuffix("ETA 1:39")
        )
        #expect(
            ProgressLine.render(bytes: 500_000_000, records: 10, seconds: 1, totalBytes: 0, label: "reconcile")
                == "reconcile: 0.50 GB, 500.0 MB/s, 10 records/s")
    }

    @Test func advanceReportsTheRunningTotals() {
        let harness = Harness()
        var line = Self.line(harness, total: 0)
        harness.time = 1_000_000_000
        line.advance(bytes: 300_000_000, records: 10)
        harness.time = 2_000_000_000
        line.advance(bytes: 200_000_000, records: 30)
        #expect(
            harness.written.last?.hasPrefix("\rmigrate: 0.50 GB, 500.0 MB/s, 40 records/s") == true,
            "\(harness.written)")
    }

    @Test func writesAtMostEveryIntervalAndClearsAtTheEnd() {
        let harness = Harness()
        var line = Self.line(harness)
        line.update(bytes: 1, records: 1)
        #expect(harness.written.isEmpty, "nothing before the first interval")
        harness.time += 300_000_000
        line.update(bytes: 1_000_000, records: 10)
        #expect(harness.written.count == 1)
        #expect(harness.written[0].hasPrefix("\rmigrate: 0.00 GB of 4.00 GB"))
        harness.time += 100_000_000
        line.update(bytes: 2_000_000, records: 20)
        #expect(harness.written.count == 1, "throttled")
        harness.time += 200_000_000
        line.update(bytes: 3_000_000, records: 30)
        #expect(harness.written.count == 2)
        line.finish()
        #expect(harness.written.count == 3)
        let last = harness.written[2]
        #expect(last.hasPrefix("\r") && last.hasSuffix("\r") && last.dropFirst().dropLast().allSatisfy { $0 == " " })
        #expect(last.count >= harness.written[1].count)
    }

    @Test func isSilentWhenNotATerminal() {
        let harness = Harness()
        var line = Self.line(harness, enabled: false)
        for step in 1...10 {
            harness.time += 1_000_000_000
            line.update(bytes: step * 1000, records: step)
        }
        line.finish()
        #expect(harness.written.isEmpty)
    }

    @Test func aShortRunWritesNothingAndClearsNothing() {
        let harness = Harness()
        var line = Self.line(harness)
        line.update(bytes: 10, records: 1)
        line.finish()
        #expect(harness.written.isEmpty)
    }
}
