/// `--time-tolerance`: two times that differ by less than the tolerance compare equal, for a side whose clock is
/// coarser (a database `timestamp(0)` column keeps whole seconds).
package enum TimeTolerance {
    /// Whether `a` and `b` are equal within `tolerance` ms (0: exactly equal; both absent: equal).
    package static func equal(_ a: Int64?, _ b: Int64?, tolerance: Int64) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if tolerance <= 0 { return a == b }
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return !overflow && difference.magnitude < UInt64(tolerance)
    }

    /// Whether two different times would be equal if both were cut to whole seconds: the precision of one side alone
    /// accounts for the difference (`time_precision_rows`).
    package static func differsOnlyInPrecision(_ a: Int64, _ b: Int64) -> Bool {
        a != b && floorSecond(a) == floorSecond(b)
    }

    /// `ms` cut to its whole second.
    static func floorSecond(_ ms: Int64) -> Int64 {
        let r = ms % 1000
        return r < 0 ? ms - r - 1000 : ms - r
    }
}

extension ReconciliationResult {
    /// Counts the date difference rows that differ only below the second (`time_precision_rows`), and notes the side
    /// whose differing dates all have whole seconds while the other side's do not (a `timestamp(0)` export).
    package mutating func countTimePrecision() {
        let dateFields = Set(ComparedField.allCases.filter(\.isDate).map(\.rawValue))
        var rows = 0
        var wholeV1 = true
        var wholeV2 = true
        for d in differences where dateFields.contains(d.field) {
            guard let a = Timestamp.parseISO8601(d.v1Value), let b = Timestamp.parseISO8601(d.v2Value) else { continue }
            guard TimeTolerance.differsOnlyInPrecision(a, b) else { continue }
            rows += 1
            if a % 1000 != 0 { wholeV1 = false }
            if b % 1000 != 0 { wholeV2 = false }
        }
        summary.timePrecisionRows = rows
        summary.wholeSecondSide = rows == 0 || wholeV1 == wholeV2 ? nil : (wholeV1 ? "V1" : "V2")
    }
}
