/// Byte-wise (UTF-8) ordering of report keys, so sorted rows do not depend on Unicode collation.
enum UTF8Order {
    /// True when the string lists compare byte-wise in ascending order, the first differing element deciding.
    static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return a.count < b.count
    }

    /// True when the pairs compare byte-wise in ascending order, as `precedes` orders two-element lists (with no
    /// list made per comparison).
    static func precedes(_ a: (String, String), _ b: (String, String)) -> Bool {
        if a.0 != b.0 { return a.0.utf8.lexicographicallyPrecedes(b.0.utf8) }
        return a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
    }
}
