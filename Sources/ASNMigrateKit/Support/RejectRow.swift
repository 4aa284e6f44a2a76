/// The one rejects format, shared by `migrate --rejects` and `reconcile`'s `rejected.csv`: `side,source,line,reason`.
package enum RejectRow {
    /// The columns, in order.
    package static let columns = ["side", "source", "line", "reason"]

    /// The `source` cell of a location: the path (`stdin` for standard input), with `[index]` appended for a top-level
    /// array element whose line is unknown; empty without a location. Control characters in the path are escaped
    /// (`ConsoleText.path`), so a file name cannot forge a row.
    package static func source(_ location: SourceLocation?) -> String {
        guard let location else { return "" }
        let path = ConsoleText.path(location.path)
        if location.line == nil, let index = location.index { return "\(path)[\(index)]" }
        return path
    }

    /// The cells of one row: `side` is `v1` or `v2`, `line` the 1-based line or empty. The reason is kept whole (the
    /// console gets it cut, see `ConsoleText`), with a NUL written `\u0000` so the file stays text.
    package static func cells(side: String, location: SourceLocation?, reason: String) -> [String] {
        [side, source(location), location?.line.map(String.init) ?? "", nulEscaped(reason)]
    }

    /// `text` with each NUL written `\u0000`, so a CSV file holding it stays text (every CSV cell is written so).
    package static func nulEscaped(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return text.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "\\u0000")
    }
}
