import ASNMigrateKit

/// UTC calendar arithmetic the simulator needs: whole months, month keys for file names, and Apple's V1 date texts.
package enum SimulationCalendar {
    /// Milliseconds in one hour.
    package static let hour: Int64 = 3_600_000
    /// Milliseconds in one day.
    package static let day: Int64 = 86_400_000

    /// `ms` moved by `months` calendar months, the day clamped to the target month's length (Jan 31 + 1 month = Feb 28/29).
    package static func adding(months: Int, to ms: Int64) -> Int64 {
        let days = floorDiv(ms, day)
        let msOfDay = ms - days * day
        let civil = Timestamp.civil(fromDays: days)
        let monthIndex = civil.year * 12 + (civil.month - 1) + Int64(months)
        let year = floorDiv(monthIndex, 12)
        let month = monthIndex - year * 12 + 1
        let dayOfMonth = min(civil.day, Timestamp.daysInMonth(year: year, month: month))
        return Timestamp.days(fromYear: year, month: month, day: dayOfMonth) * day + msOfDay
    }

    /// `2021-03` for an instant: the UTC month, used to split output files.
    package static func monthKey(_ ms: Int64) -> String {
        String(Timestamp.day(ms: ms).prefix(7))
    }

    /// V1's `2021-03-01 07:00:00 Etc/GMT` form.
    package static func appleGMT(_ ms: Int64) -> String {
        let iso = Timestamp.iso8601(ms: ms)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " Etc/GMT"
    }

    /// V1's `2021-02-28 23:00:00 America/Los_Angeles` form (US daylight saving rules since 2007).
    package static func applePST(_ ms: Int64) -> String {
        let offset: Int64 = isPacificDaylightTime(ms) ? -7 * hour : -8 * hour
        let iso = Timestamp.iso8601(ms: ms + offset)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " America/Los_Angeles"
    }

    // MARK: - Private

    /// Whether Pacific time is on daylight saving: from the second Sunday of March 10:00 UTC to the first Sunday of November 09:00 UTC.
    private static func isPacificDaylightTime(_ ms: Int64) -> Bool {
        let year = Timestamp.civil(fromDays: floorDiv(ms, day)).year
        let start = nthSunday(year: year, month: 3, n: 2) * day + 10 * hour
        let end = nthSunday(year: year, month: 11, n: 1) * day + 9 * hour
        return ms >= start && ms < end
    }

    /// The day number of the n-th Sunday of a month.
    private static func nthSunday(year: Int64, month: Int64, n: Int64) -> Int64 {
        let first = Timestamp.days(fromYear: year, month: month, day: 1)
        // 1970-01-01 was a Thursday; weekday 0 = Sunday.
        let weekday = ((first + 4) % 7 + 7) % 7
        let firstSunday = first + (7 - weekday) % 7
        return firstSunday + (n - 1) * 7
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
