/// Lays out help text: paragraphs and titled two-column tables, the second column aligned across all tables and wrapped at 80 columns.
struct HelpFormatter {
    /// Widest left column before help moves to its own line.
    static let maxLeftWidth = 28
    /// Total line width help wraps at.
    static let lineWidth = 80

    /// One block of help.
    private enum Section {
        case paragraph(String)
        case table(String, [(String, String)])
        case list(String, [(String, String)])
    }

    private var sections: [Section] = []

    /// Adds a `TITLE: text` paragraph.
    mutating func paragraph(_ title: String, _ text: String) {
        sections.append(.paragraph("\(title): \(text)"))
    }

    /// Adds an untitled paragraph.
    mutating func paragraph(_ text: String) {
        sections.append(.paragraph(text))
    }

    /// Adds a titled list of (left, right) rows.
    mutating func table(_ title: String, _ rows: [(String, String)]) {
        guard !rows.isEmpty else { return }
        sections.append(.table(title, rows))
    }

    /// Adds a titled list of (summary, command line) pairs: the summary as a comment line, the command under it.
    mutating func list(_ title: String, _ items: [(String, String)]) {
        guard !items.isEmpty else { return }
        sections.append(.list(title, items))
    }

    /// The sections separated by blank lines, ending with a newline.
    var text: String {
        var widest = 0
        for case .table(_, let rows) in sections {
            for row in rows where row.0.count <= HelpFormatter.maxLeftWidth { widest = max(widest, row.0.count) }
        }
        let column = 2 + widest + 2
        let rendered = sections.map { section -> String in
            switch section {
            case .paragraph(let text):
                return wrap(text, width: HelpFormatter.lineWidth).joined(separator: "\n")
            case .table(let title, let rows):
                return ([title + ":"] + rows.flatMap { tableLines($0.0, $0.1, column: column) }).joined(separator: "\n")
            case .list(let title, let items):
                let lines = items.flatMap { summary, command in
                    wrap(summary, width: HelpFormatter.lineWidth - 4).map { "  # " + $0 } + ["  " + command]
                }
                return ([title + ":"] + lines).joined(separator: "\n")
            }
        }
        return rendered.joined(separator: "\n\n") + "\n"
    }

    /// The lines of one table row; a left side too wide for the column puts the help on the next line.
    private func tableLines(_ left: String, _ right: String, column: Int) -> [String] {
        let wrapped = wrap(right, width: max(20, HelpFormatter.lineWidth - column))
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        var pieces = wrapped[...]
        let head = "  " + left
        if head.count + 2 > column || pieces.isEmpty {
            lines.append(head)
        } else if let first = pieces.popFirst() {
            lines.append(head + String(repeating: " ", count: column - head.count) + first)
        }
        lines += pieces.map { indent + $0 }
        return lines
    }
}

// MARK: - Private helpers

/// Greedy word wrap; words longer than `width` stay whole.
private func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
        if current.isEmpty {
            current = String(word)
        } else if current.count + 1 + word.count <= width {
            current += " " + word
        } else {
            lines.append(current)
            current = String(word)
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}
