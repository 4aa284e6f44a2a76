import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct TimestampTests {
    // MARK: - Formatting

    static let formatsKnownInstantsCases: [(Int64, String)] = [
        (1_614_582_000_000, "2021-03-01T07:00:00.000Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-14_256_000_000, "1969-07-20T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_709_164_800_123, "2024-02-29T00:00:00.123Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-11_670_998_400_000, "1600-02-29T00:00:00.000Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "+010000-01-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (-62_198_755_200_000, "-000001-01-01T00:00:00.000Z")
    ]

    @Test(arguments: formatsKnownInstantsCases)
    func formatsKnownInstants(ms: Int64, expected: String) {
        #expect(Timestamp.iso8601(ms: ms) == expected)
        #expect(Timestamp.parseISO8601(expected) == ms)
        #expect(Timestamp.day(ms: ms) == String(expected.prefix(while: { $0 != "T" })))
    }

    @Test func dayOfMillisecondBeforeEpochIsPreviousDay() {
        #expect(Timestamp.day(ms: -1) == "1969-12-31")
        #expect(Timestamp.day(ms: -86_400_000) == "1969-12-31")
        #expect(Timestamp.day(ms: -86_400_001) == "1969-12-30")
    }

    // MARK: - Calendar arithmetic

    @Test func consecutiveDayCountsAreConsecutiveDatesAcrossSixteenCenturies() {
        // An independent check: walk dates naively one day at a time and compare with the closed-form conversion.
        var (year, month, day): (Int64, Int64, Int64) = (1200, 1, 1)
        var count = Timestamp.days(fromYear: year, month: month, day: day)
        var mismatches = 0
        while year < 2800 {
            let civil = Timestamp.civil(fromDays: count)
            if civil.year != year || civil.month != month || civil.day != day { mismatches += 1 }
            if Timestamp.days(fromYear: year, month: month, day: day) != count { mismatches += 1 }
            count += 1
            day += 1
            if day > Timestamp.daysInMonth(year: year, month: month) {
                day = 1
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    static let leapYearsCases: [(Int64, Bool)] = [
        (2000, true), (2100, false), (2024, true), (1900, false), (2023, false), (1600, true)
    ]

    @Test(arguments: leapYearsCases)
    func leapYears(year: Int64, leap: Bool) {
        #expect(Timestamp.isLeapYear(year) == leap)
    }

    @Test func roundTripsManyInstants() {
        var failures: [Int64] = []
        var ms: Int64 = -62_135_596_800_000 // 0001-01-01
        while ms < 253_402_300_799_999 { // 9999-12-31T23:59:59.999
            for candidate in [ms, ms + 1, ms + 86_399_999] {
                if Timestamp.parseISO8601(Timestamp.iso8601(ms: candidate)) != candidate { failures.append(candidate) }
            }
            ms += 7_777_777_777 // about 90 days, drifting through every time of day
        }
        #expect(failures.isEmpty)
    }

    @Test func extremeValuesFormatAndRoundTrip() {
        for ms in [Int64.max, Int64.min, Int64.max - 86_400_000 * 2, Int64.min + 86_400_000 * 2] {
            let text = Timestamp.iso8601(ms: ms)
            #expect(text.hasSuffix("Z"))
            _ = Timestamp.parseISO8601(text) // years beyond six digits are not parsed; only must not trap
        }
        #expect(Timestamp.iso8601(ms: Int64.max).hasPrefix("+292278994-08-17"))
    }

    @Test func everyInstantOfFourDigitYearsFormatsAsFoundationDoesAndRoundTrips() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        var random = SplitMix64(seed: 31)
        // From 1900 (before that Foundation's calendar is Julian) to the end of 9999, and the edges of that range.
        let first: Int64 = -2_208_988_800_000
        let last: Int64 = 253_402_300_799_999
        let instants =
            [first, 0, -1, 1, last] + (0..<2000).map { _ in first + Int64(random.next() % UInt64(last - first)) }
        for ms in instants {
            let text = Timestamp.iso8601(ms: ms)
            #expect(text.utf8.count == 24, "\(ms): \(text)")
            #expect(text == formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)), "\(ms)")
            #expect(Timestamp.parseISO8601(text) == ms, "\(ms): \(text)")
        }
    }

    // MARK: - Accepted forms

    static let parsesISO8601Cases: [(String, Int64)] = [
        ("2021-03-01T07:00:00Z", 1_614_582_000_000),
        ("2021-03-01T07:00:00.000Z", 1_614_582_000_000),
        ("2021-03-01T07:00:00.5Z", 1_614_582_000_500),
        ("2021-03-01T07:00:00.123456789Z", 1_614_582_000_123),
        ("2021-03-01T07:00:00,25Z", 1_614_582_000_250),
        ("2021-03-01t07:00:00z", 1_614_582_000_000),
        ("2021-03-01T07:00:00", 1_614_582_000_000),
        ("2021-03-01", 1_614_556_800_000),
        ("2021-03-01T09:00:00+02:00", 1_614_582_000_000),
        ("2021-03-01T09:00:00+0200", 1_614_582_000_000),
        ("2021-02-28T23:00:00-08:00", 1_614_582_000_000),
        ("2021-03-01T07:00:00.000-00:00", 1_614_582_000_000),
        ("1969-12-31T23:59:59.999Z", -1)
    ]

    @Test(arguments: parsesISO8601Cases)
    func parsesISO8601(text: String, expected: Int64) {
        #expect(Timestamp.parseISO8601(text) == expected)
    }

    static let parsesAppleGMTCases: [(String, Int64)] = [
        ("2021-03-01 07:00:00 Etc/GMT", 1_614_582_000_000),
        ("2021-03-01 07:00:00 GMT", 1_614_582_000_000),
        ("2021-03-01 07:00:00 UTC", 1_614_582_000_000),
        ("1969-12-31 23:59:59 Etc/GMT", -1000)
    ]

    @Test(arguments: parsesAppleGMTCases)
    func parsesAppleGMT(text: String, expected: Int64) {
        #expect(Timestamp.parseAppleGMT(text) == expected)
    }

    static let parsesEpochCases: [(String, Int64)] = [
        ("1614582000", 1_614_582_000_000),
        ("1614582000.5", 1_614_582_000_500),
        ("1614582000.123999", 1_614_582_000_123),
        ("1614582000000", 1_614_582_000_000),
        ("99999999999", 99_999_999_999_000),
        ("100000000000", 100_000_000_000),
        ("0", 0),
        ("-1", -1000),
        ("-1.5", -1500),
        ("-0.0001", -1),
        ("00000000001614582000", 1_614_582_000_000)
    ]

    @Test(arguments: parsesEpochCases)
    func parsesEpoch(text: String, expected: Int64) {
        #expect(Timestamp.parseEpoch(text) == expected)
    }

    static let parseAnyTriesEveryFormCases: [(String, Int64)] = [
        ("1614582000000", 1_614_582_000_000),
        (" 2021-03-01T07:00:00Z\n", 1_614_582_000_000),
        ("2021-03-01 07:00:00 Etc/GMT", 1_614_582_000_000),
        ("2021-03-01", 1_614_556_800_000)
    ]

    @Test(arguments: parseAnyTriesEveryFormCases)
    func parseAnyTriesEveryForm(text: String, expected: Int64) {
        #expect(Timestamp.parseAny(text) == expected)
    }

    @Test func dayOrInstantSaysWhichItWas() {
        let day = Timestamp.parseUTCDayOrInstant("2021-03-01")
        #expect(day?.ms == 1_614_556_800_000)
        #expect(day?.isWholeDay == true)
        let instant = Timestamp.parseUTCDayOrInstant("2021-03-01T07:00:00Z")
        #expect(instant?.ms == 1_614_582_000_000)
        #expect(instant?.isWholeDay == false)
        #expect(Timestamp.parseUTCDayOrInstant("2021-02-30") == nil)
        #expect(Timestamp.parseUTCDayOrInstant("yesterday") == nil)
    }

    // MARK: - Rejected inputs

    static let rejectsBadISO8601Cases: [String] = [
        "", "2021", "2021-3-01", "2021-13-01", "2021-00-10", "2021-02-29", "2021-02-30", "2100-02-29", "2021-04-31",
        "2021-03-00", "2021-03-01T24:00:00Z", "2021-03-01T23:60:00Z", "2021-03-01T23:59:60Z", "2021-03-01T07:00Z",
        "2021-03-01T07:00:00.Z", "2021-03-01T07:00:00.1234567890Z", "2021-03-01T07:00:00+24:00",
        "2021-03-01T07:00:00+02",
        "2021-03-01T07:00:00+02:60", "2021-03-01T07:00:00 Z", "2021-03-01 07:00:00", "2021-03-01T07:00:00Zjunk",
        "x2021-03-01", "2021-03-01T", "١٠٢١-03-01"
    ]

    @Test(arguments: rejectsBadISO8601Cases)
    func rejectsBadISO8601(text: String) {
        #expect(Timestamp.parseISO8601(text) == nil)
    }

    static let rejectsBadAppleGMTCases: [String] = [
        "2021-03-01 07:00:00 America/Los_Angeles", "2021-03-01 00:00:00 PST", "2021-03-01 07:00:00",
        "2021-03-01 07:00:00 Etc/GMT+1",
        "2021-03-01T07:00:00 Etc/GMT", "2021-02-30 07:00:00 Etc/GMT", "2021-03-01 24:00:00 Etc/GMT",
        "2021-03-01 07:00:00.5 Etc/GMT",
        "2021-03-01 07:00:00  Etc/GMT"
    ]

    @Test(arguments: rejectsBadAppleGMTCases)
    func rejectsBadAppleGMT(text: String) {
        #expect(Timestamp.parseAppleGMT(text) == nil)
    }

    static let rejectsBadEpochCases: [String] = [
        "", "-", "+1614582000", "1.6e12", "1614582000000.5", "1614582000.", "1614582000.1234567890", " 1614582000",
        "0x10", "99999999999999999999", "1_614_582_000", "12a"
    ]

    @Test(arguments: rejectsBadEpochCases)
    func rejectsBadEpoch(text: String) {
        #expect(Timestamp.parseEpoch(text) == nil)
    }

    static let parseAnyRejectsWhatNoFormAcceptsCases: [String] = [
        "", "soon", "2021-02-30", "2021-03-01 07:00:00 America/Los_Angeles", "1.6e12"
    ]

    @Test(arguments: parseAnyRejectsWhatNoFormAcceptsCases)
    func parseAnyRejectsWhatNoFormAccepts(text: String) {
        #expect(Timestamp.parseAny(text) == nil)
    }

    /// `parseEpoch` as it was written over `String`s and arrays, the reference for the in-place reading.
    static func referenceEpoch(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let integerDigits = Array(bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }))
        bytes = bytes.dropFirst(integerDigits.count)
        guard !integerDigits.isEmpty else { return nil }
        var fractionDigits: [UInt8] = []
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = Array(bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }))
            bytes = bytes.dropFirst(fractionDigits.count)
            guard (1...9).contains(fractionDigits.count) else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        let significant = integerDigits.drop(while: { $0 == 0x30 })
        guard significant.count <= 19, let magnitude = Int64(String(decoding: integerDigits, as: UTF8.self)) else {
            return nil
        }
        if significant.count >= 12 {
            guard fractionDigits.isEmpty else { return nil }
            return negative ? -magnitude : magnitude
        }
        var fractionMs: Int64 = 0
        for (index, digit) in fractionDigits.prefix(3).enumerated() {
            fractionMs += Int64(digit - 0x30) * [100, 10, 1][index]
        }
        let truncatedNonZero = fractionDigits.dropFirst(3).contains { $0 != 0x30 }
        let positive = magnitude * 1000 + fractionMs
        if negative { return -positive - (truncatedNonZero ? 1 : 0) }
        return positive
    }

    @Test func parseEpochReadsRandomTextsAsTheReferenceDoes() {
        var r = SplitMix64(seed: 19)
        let alphabet = Array("0000123456789999..--+e ".utf8)
        for n in 0..<50_000 {
            var text = ""
            switch n % 3 {
            case 0: text = String(r.next() % 10_000_000_000_000_000_000)
            case 1: text = String(r.below(2_000_000_000)) + "." + String(r.below(10_000_000_000))
            default:
                for _ in 0..<r.below(26) { text.append(Character(UnicodeScalar(alphabet[r.below(alphabet.count)]))) }
            }
            if r.below(4) == 0 { text = "-" + text }
            if r.below(6) == 0 { text = String(repeating: "0", count: r.below(25)) + text }
            #expect(Timestamp.parseEpoch(text) == Self.referenceEpoch(text), "\(text)")
        }
    }
}
