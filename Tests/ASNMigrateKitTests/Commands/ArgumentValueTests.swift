import Testing

@testable import ASNMigrateKit

@Suite struct ArgumentValueTests {
    // MARK: - Durations

    static let durations: [(String, Int64)] = [
        ("48h", 172_800_000), ("90m", 5_400_000), ("3600s", 3_600_000), ("2d", 172_800_000),
        ("500ms", 500), ("1h30m", 5_400_000), ("0s", 0), ("1d12h", 129_600_000)
    ]

    @Test(arguments: durations)
    func parsesDurations(text: String, ms: Int64) throws {
        #expect(try ArgumentValue.durationMilliseconds(text, option: "--window") == ms)
    }

    static let badDurations = ["", "48", "h", "4 8h", "-1h", "1.5h", "2w", "1H", "h1", "48hours", "١h"]

    @Test(arguments: badDurations)
    func rejectsBadDurations(text: String) {
        #expect(
            throws: ASNError(.usage, "option '--window' needs a duration such as 48h, 90m, 3600s or 2d (got '\(text)')")
        ) {
            try ArgumentValue.durationMilliseconds(text, option: "--window")
        }
    }

    @Test func rejectsOverlongDuration() {
        #expect(throws: ASNError(.usage, "option '--window' duration '99999999999999999d' is too long")) {
            try ArgumentValue.durationMilliseconds("99999999999999999d", option: "--window")
        }
    }

    // MARK: - Integers and choices

    @Test func integersWithAndWithoutRange() throws {
        #expect(try ArgumentValue.integer("42", option: "--n") == 42)
        #expect(try ArgumentValue.integer("-7", option: "--n") == -7)
        #expect(try ArgumentValue.integer("5", option: "--n", in: 1...5) == 5)
        #expect(throws: ASNError(.usage, "option '--n' must be between 1 and 5 (got 6)")) {
            try ArgumentValue.integer("6", option: "--n", in: 1...5)
        }
        #expect(throws: ASNError(.usage, "option '--n' needs a whole number (got '99999999999999999999')")) {
            try ArgumentValue.integer("99999999999999999999", option: "--n")
        }
    }

    @Test func choices() throws {
        #expect(try ArgumentValue.choice("csv", option: "--format", among: ["jsonl", "csv"]) == "csv")
        #expect(
            throws: ASNError(.usage, "option '--format' must be one of: jsonl, csv (got 'cvs'; did you mean 'csv'?)")
        ) {
            try ArgumentValue.choice("cvs", option: "--format", among: ["jsonl", "csv"])
        }
    }
}
