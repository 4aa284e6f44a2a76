/// `--time-tolerance`: two times that differ by less than the tolerance compare equal, for a side whose clock is
/// coarser (a database `timestamp(0)` column keeps whole seconds).
public enum TimeTolerance {
    /// Whether `a` and `b` are equal within `tolerance` ms (0: exactly equal; both absent: equal).
    public static func equal(_ a: Int64?, _ b: Int64?, tolerance: Int64) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if tolerance <= 0 { return a == b }
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return !overflow && difference.magnitude < UInt64(tolerance)
    }

    /// Whether two different times would be equal if both were cut to whole seconds: the precision of one side alone
    /// accounts for the difference (`time_precision_rows`).
    public static func differsOnlyInPrecision(_ a: Int64, _ b: Int64) -> Bool {
        a != b && floorSecond(a) == floorSecond(b)
    }

    /// `ms` cut to its whole second.
    static func floorSecond(_ ms: Int64) -> Int64 {
        let r = ms % 1000
        return r < 0 ? ms - r - 1000 : ms - r
    }
}
