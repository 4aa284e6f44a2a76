/// "Did you mean …?" suggestions for mistyped names: options, commands, configuration keys, V2 column-map fields.
enum Suggestion {
    /// The candidate closest to `typed`: a unique prefix match, else the nearest by edit distance if close enough,
    /// else the longest candidate `typed` starts with (`--output` → `--out`).
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let stem = typed.drop(while: { $0 == "-" })
        if stem.count >= 2 {
            let prefixed = candidates.filter { $0.hasPrefix(typed) && $0 != typed }
            if prefixed.count == 1 { return prefixed[0] }
        }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(typed), Array(candidate))
            let candidateStem = candidate.drop(while: { $0 == "-" }).count
            let limit = min(2, max(1, candidateStem / 3))
            guard distance <= limit, distance < candidateStem else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        // A longer spelling of a name: `--output` for `--out`, `--v2-file` for `--v2`.
        return candidates.filter { candidate in
            typed.hasPrefix(candidate) && candidate != typed && candidate.drop(while: { $0 == "-" }).count >= 2
        }.max { $0.count < $1.count }
    }

    /// Levenshtein distance, counting an adjacent swap as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
