/// Pure integer date handling in UTC: formatting epoch milliseconds and parsing the timestamp forms notifications use.
///
/// No `DateFormatter`, no locale, no time zone database: the calendar arithmetic is Howard Hinnant's
/// `days_from_civil` / `civil_from_days` (proleptic Gregorian), exact for every `Int64` millisecond value it accepts.
package enum Timestamp {
    // MARK: - Formatting

    /// `2021-03-01T07:00:00.000Z`: UTC, always milliseconds; years outside 0000...9999 use the expanded form `+010000` / `-000001`.
    package static func iso8601(ms: Int64) -> String {
        let (days, msOfDay) = floorDivide(ms, millisecondsPerDay)
        let (year, month, day) = civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millis = msOfDay % 1000
        guard (0...9999).contains(year) else {
            return formatYear(year) + "-" + pad(month, 2) + "-" + pad(day, 2)
                + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millis, 3) + "Z"
        }
        // The usual four-digit year, written into the string's own storage: one allocation, not one per part
        // (report rows write several dates a subscription).
        return String(unsafeUninitializedCapacity: 24) { out in
            var at = 0
            func digits(_ value: Int64, _ width: Int) {
                var rest = value
                for k in stride(from: width - 1, through: 0, by: -1) {
                    out[at + k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                at += width
            }
            func byte(_ ascii: Unicode.Scalar) {
                out[at] = UInt8(ascii: ascii)
                at += 1
            }
            digits(year, 4)
            byte("-")
            digits(month, 2)
            byte("-")
            digits(day, 2)
            byte("T")
            digits(hour, 2)
            byte(":")
            digits(minute, 2)
            byte(":")
            digits(second, 2)
            byte(".")
            digits(millis, 3)
            byte("Z")
            return at
        }
    }

    /// The UTC calendar day of an instant, `2021-03-01`.
    package static func day(ms: Int64) -> String {
        let (days, _) = floorDivide(ms, millisecondsPerDay)
        let (year, month, day) = civil(fromDays: days)
        return formatYear(year) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    // MARK: - Parsing

    /// Epoch milliseconds of an ISO 8601 / RFC 3339 text, or nil.
    ///
    /// Accepts `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM:SS` (UTC), an optional fraction of 1–9 digits
    /// (truncated to milliseconds), and a zone of `Z`, `±HH:MM` or `±HHMM`. Invalid dates and times give nil.
    package static func parseISO8601(_ text: String) -> Int64? {
        var scanner = ByteScanner(text)
        guard let days = scanner.date() else { return nil }
        if scanner.atEnd { return checkedMilliseconds(days: days, msOfDay: 0) }
        guard scanner.take(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) != nil,
            let msOfDay = scanner.time(allowFraction: true)
        else { return nil }
        var offsetMinutes: Int64 = 0
        if scanner.take(where: { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") }) != nil {
            offsetMinutes = 0
        } else if let sign = scanner.take(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard let hours = scanner.digits(exactly: 2), hours <= 23 else { return nil }
            _ = scanner.take(where: { $0 == UInt8(ascii: ":") })
            guard let minutes = scanner.digits(exactly: 2), minutes <= 59 else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard scanner.atEnd, let local = checkedMilliseconds(days: days, msOfDay: msOfDay) else { return nil }
        let (result, overflow) = local.subtractingReportingOverflow(offsetMinutes * 60_000)
        return overflow ? nil : result
    }

    /// Epoch milliseconds of V1's `2021-03-01 07:00:00 Etc/GMT` (also ` GMT` or ` UTC`), or nil for any other zone (such as `America/Los_Angeles`).
    package static func parseAppleGMT(_ text: String) -> Int64? {
        var scanner = ByteScanner(text)
        guard let days = scanner.date(),
            scanner.take(where: { $0 == UInt8(ascii: " ") }) != nil,
            let msOfDay = scanner.time(allowFraction: false),
            scanner.take(where: { $0 == UInt8(ascii: " ") }) != nil
        else { return nil }
        let zone = scanner.rest
        guard zone == "Etc/GMT" || zone == "GMT" || zone == "UTC" else { return nil }
        return checkedMilliseconds(days: days, msOfDay: msOfDay)
    }

    /// Epoch milliseconds of a digit string or JSON number text, or nil.
    ///
    /// Up to 11 significant digits are seconds (×1000) and may carry a fraction (`1614582000.5`, truncated to
    /// milliseconds toward the past); 12 or more digits are milliseconds and must be whole. A leading `-` is allowed;
    /// exponents, `+`, spaces and values outside `Int64` give nil.
    package static func parseEpoch(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseEpoch(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// `parseEpoch(_:)` of the text whose UTF-8 is `b`, read in place.
    package static func parseEpoch(utf8 b: UnsafeRawBufferPointer) -> Int64? {
        let zero = UInt8(ascii: "0")
        var i = 0
        let negative = i < b.count && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let integerStart = i
        while i < b.count, b[i] &- zero < 10 { i += 1 }
        let integerEnd = i
        guard integerEnd > integerStart else { return nil }
        var fractionStart = i
        var fractionEnd = i
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            while i < b.count, b[i] &- zero < 10 { i += 1 }
            fractionEnd = i
            guard (1...9).contains(fractionEnd - fractionStart) else { return nil }
        }
        guard i == b.count else { return nil }
        var firstSignificant = integerStart
        while firstSignificant < integerEnd, b[firstSignificant] == zero { firstSignificant += 1 }
        let significant = integerEnd - firstSignificant
        guard significant <= 19 else { return nil }
        var magnitude: Int64 = 0
        for k in firstSignificant..<integerEnd {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int64(b[k] - zero))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        if significant >= 12 {
            guard fractionEnd == fractionStart else { return nil }
            return negative ? -magnitude : magnitude
        }
        var fractionMs: Int64 = 0
        var weight: Int64 = 100
        for k in fractionStart..<min(fractionEnd, fractionStart + 3) {
            fractionMs += Int64(b[k] - zero) * weight
            weight /= 10
        }
        var truncatedNonZero = false
        for k in min(fractionEnd, fractionStart + 3)..<fractionEnd where b[k] != zero { truncatedNonZero = true }
        let positive = magnitude * 1000 + fractionMs
        if negative { return -positive - (truncatedNonZero ? 1 : 0) }
        return positive
    }

    /// Epoch milliseconds from any accepted form, trying epoch digits, ISO 8601, then Apple's GMT form; surrounding whitespace is ignored.
    package static func parseAny(_ text: String) -> Int64? {
        let trimmed = trimmingSpaces(text)
        return parseEpoch(trimmed) ?? parseISO8601(trimmed) ?? parseAppleGMT(trimmed)
    }

    /// Epoch milliseconds of a timestamp as databases print it, or nil: ISO 8601 (`T` or a space between date and time),
    /// psql's `2021-01-01 00:00:00.5+00`, MySQL's and sqlite's `2021-01-01 00:00:00` (no zone is UTC), with an optional
    /// zone of `Z`, ` UTC`, ` GMT`, `±HH`, `±HHMM` or `±HH:MM` (a space before the zone is allowed).
    package static func parseDatabaseText(_ text: String) -> Int64? {
        var bytes = Array(trimmingSpaces(text).utf8)
        for zone in [" UTC", " GMT", "UTC", "GMT"] where bytes.count > zone.utf8.count + 10 {
            let tail = bytes.suffix(zone.utf8.count)
            if String(decoding: tail, as: UTF8.self).uppercased() == zone {
                bytes = Array(bytes.dropLast(zone.utf8.count)) + [UInt8(ascii: "Z")]
                break
            }
        }
        if bytes.count > 10, bytes[10] == UInt8(ascii: " ") { bytes[10] = UInt8(ascii: "T") }
        // `… 00:00:00 +00:00`: drop the space before the zone.
        if let space = bytes.lastIndex(of: UInt8(ascii: " ")), space > 10, space + 1 < bytes.count,
            [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "Z")].contains(bytes[space + 1])
        {
            bytes.remove(at: space)
        }
        // psql's `+00` / `-05`: a zone of hours only.
        let n = bytes.count
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if n >= 22, bytes[n - 3] == UInt8(ascii: "+") || bytes[n - 3] == UInt8(ascii: "-"), isDigit(bytes[n - 2]),
            isDigit(bytes[n - 1])
        {
            bytes += Array(":00".utf8)
        }
        return parseISO8601(String(decoding: bytes, as: UTF8.self))
    }

    /// For `--from` / `--to` flags: a UTC day (`2021-03-01`, `isWholeDay` true) or a full ISO 8601 instant, as epoch milliseconds.
    ///
    /// A caller treating `--to` as inclusive adds one day (`millisecondsPerDay`) when `isWholeDay` is true.
    package static func parseUTCDayOrInstant(_ text: String) -> (ms: Int64, isWholeDay: Bool)? {
        let trimmed = trimmingSpaces(text)
        var scanner = ByteScanner(trimmed)
        if let days = scanner.date(), scanner.atEnd {
            return checkedMilliseconds(days: days, msOfDay: 0).map { ($0, true) }
        }
        return parseISO8601(trimmed).map { ($0, false) }
    }

    /// Milliseconds in one UTC day.
    package static let millisecondsPerDay: Int64 = 86_400_000

    // MARK: - Calendar arithmetic

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
    package static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
    package static func civil(fromDays dayCount: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = dayCount + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `year` is a Gregorian leap year.
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Number of days in a month of a year.
    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

// MARK: - Private helpers

/// Largest absolute day count whose milliseconds fit comfortably in `Int64` (about ±292 million years).
private let maxAbsoluteDays: Int64 = Int64.max / Timestamp.millisecondsPerDay - 1

/// `days × 86 400 000 + msOfDay`, or nil when it would overflow.
private func checkedMilliseconds(days: Int64, msOfDay: Int64) -> Int64? {
    guard abs(days) <= maxAbsoluteDays else { return nil }
    return days * Timestamp.millisecondsPerDay + msOfDay
}

/// Floor division and the non-negative remainder.
private func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    var quotient = value / divisor
    var remainder = value % divisor
    if remainder < 0 {
        quotient -= 1
        remainder += divisor
    }
    return (quotient, remainder)
}

/// Zero-padded decimal of a non-negative number.
private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Four-digit year, or ISO 8601's expanded signed six-digit form outside 0000...9999.
private func formatYear(_ year: Int64) -> String {
    if (0...9999).contains(year) { return pad(year, 4) }
    return (year < 0 ? "-" : "+") + pad(abs(year), 6)
}

/// The text without leading and trailing spaces, tabs and line ends.
private func trimmingSpaces(_ text: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(text[first...last])
}

/// A cursor over a string's UTF-8 bytes for the fixed-width timestamp grammars.
private struct ByteScanner {
    /// The text's UTF-8 bytes.
    let bytes: [UInt8]
    /// Index of the next unread byte.
    var position = 0

    /// A scanner at the start of `text`.
    init(_ text: String) { bytes = Array(text.utf8) }

    /// Whether every byte has been read.
    var atEnd: Bool { position == bytes.count }

    /// The unread bytes as text.
    var rest: String { String(decoding: bytes[position...], as: UTF8.self) }

    /// Consumes one byte matching `predicate` and returns it.
    mutating func take(where predicate: (UInt8) -> Bool) -> UInt8? {
        guard position < bytes.count, predicate(bytes[position]) else { return nil }
        position += 1
        return bytes[position - 1]
    }

    /// Consumes a run of ASCII digits.
    mutating func takeDigits() -> [UInt8] {
        let start = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        return Array(bytes[start..<position])
    }

    /// Consumes exactly `count` digits and returns their value.
    mutating func digits(exactly count: Int) -> Int64? {
        guard position + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[position..<position + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        position += count
        return value
    }

    /// `YYYY-MM-DD` or expanded `±YYYYYY-MM-DD`, validated, as days since the epoch.
    mutating func date() -> Int64? {
        let year: Int64
        if let sign = take(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard let magnitude = digits(exactly: 6) else { return nil }
            year = sign == UInt8(ascii: "-") ? -magnitude : magnitude
        } else {
            guard let plain = digits(exactly: 4) else { return nil }
            year = plain
        }
        guard take(where: { $0 == UInt8(ascii: "-") }) != nil, let month = digits(exactly: 2),
            take(where: { $0 == UInt8(ascii: "-") }) != nil, let day = digits(exactly: 2),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year: year, month: month)
        else { return nil }
        return Timestamp.days(fromYear: year, month: month, day: day)
    }

    /// `HH:MM:SS` with an optional `.f` of 1–9 digits, validated, as milliseconds of the day.
    mutating func time(allowFraction: Bool) -> Int64? {
        guard let hour = digits(exactly: 2), hour <= 23, take(where: { $0 == UInt8(ascii: ":") }) != nil,
            let minute = digits(exactly: 2), minute <= 59, take(where: { $0 == UInt8(ascii: ":") }) != nil,
            let second = digits(exactly: 2), second <= 59
        else { return nil }
        var millis: Int64 = 0
        if allowFraction, take(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }) != nil {
            let fraction = takeDigits()
            guard (1...9).contains(fraction.count) else { return nil }
            for (index, digit) in fraction.prefix(3).enumerated() {
                millis += Int64(digit - UInt8(ascii: "0")) * [100, 10, 1][index]
            }
        }
        return ((hour * 60 + minute) * 60 + second) * 1000 + millis
    }
}

/// Whether a byte is an ASCII digit.
private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}
