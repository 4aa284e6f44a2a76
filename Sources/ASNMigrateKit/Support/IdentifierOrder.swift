/// Compares identifiers numerically when both are digit strings (without converting), else as text.
package enum IdentifierOrder {
    /// True when `a` sorts before `b`.
    package static func less(_ a: String, _ b: String) -> Bool {
        let da = a.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        let db = b.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if da && db && !a.isEmpty && !b.isEmpty {
            let ta = a.drop { $0 == "0" }
            let tb = b.drop { $0 == "0" }
            if ta.count != tb.count { return ta.count < tb.count }
            return ta < tb
        }
        return a < b
    }
}
