import Testing

@testable import ASNMigrateKit

@Suite struct DurationTextTests {
    static let durations: [(String, Int64)] = [
        ("48h", 172_800_000), ("90m", 5_400_000), ("3600s", 3_600_000), ("2d", 172_800_000),
        ("500ms", 500), ("1h30m", 5_400_000), ("0s", 0), ("1d12h", 129_600_000)
    ]

    @Test(arguments: durations)
    func readsDurations(text: String, ms: Int64) {
        #expect(DurationText.read(text) == .milliseconds(ms))
        #expect(DurationText.milliseconds(text) == ms)
    }

    static let malformed = ["", "48", "h", "4 8h", "-1h", "1.5h", "2w", "1H", "h1", "48hours", "١h"]

    @Test(arguments: malformed)
    func rejectsMalformed(text: String) {
        #expect(DurationText.read(text) == .malformed)
        #expect(DurationText.milliseconds(text) == nil)
    }

    @Test func overflowIsTooLongNotMalformed() {
        #expect(DurationText.read("99999999999999999d") == .tooLong)
        #expect(DurationText.read("9223372036854775807ms1ms") == .tooLong)
        #expect(DurationText.read("9223372036854775807ms") == .milliseconds(Int64.max))
        #expect(DurationText.milliseconds("99999999999999999d") == nil)
    }
}
