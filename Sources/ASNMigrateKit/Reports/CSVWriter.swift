/// An RFC 4180 CSV writer: UTF-8, `\n` record ends, header row first, formula-guarded cells.
///
/// A cell is quoted iff it contains `,`, `"`, CR or LF (inner quotes doubled). A cell starting with `=`, `+`, `-`, `@`,
/// tab or CR first gets a `'` prefix so a spreadsheet shows it as text instead of evaluating it (`CSVFormulaGuard`,
/// which V2 CSV reading undoes). A NUL is written `\u0000`, as reject reasons are, so the file stays text. Rows accumulate in
/// `bytes`; a streaming caller drains them into a `ByteSink` whenever `bytes.count` passes a threshold.
package struct CSVWriter: Sendable {
    /// The encoded output not yet drained, starting with the header row.
    package private(set) var bytes: [UInt8] = []
    /// Number of cells every row must have: the header's.
    package let columnCount: Int
    /// Whether cells are formula-guarded (on unless a report needs raw values).
    package let guardsFormulas: Bool

    /// Creates a writer and writes the header row.
    package init(header: [String], guardsFormulas: Bool = true) {
        columnCount = header.count
        self.guardsFormulas = guardsFormulas
        appendRecord(header)
    }

    // MARK: - Writing

    /// Appends one row; throws `.outputFailed` if it does not have exactly `columnCount` cells (a bug in the caller).
    package mutating func appendRow(_ cells: [String]) throws(ASNError) {
        guard cells.count == columnCount else {
            throw ASNError(
                .outputFailed,
                "CSV row has \(cells.count) cells but the header has \(columnCount); this is a bug in the report writer, please report it"
            )
        }
        appendRecord(cells)
    }

    /// Returns the buffered bytes and empties the buffer.
    package mutating func drain() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Writes the buffered bytes to `sink` and empties the buffer.
    package mutating func drain(into sink: some ByteSink) throws(ASNError) {
        guard !bytes.isEmpty else { return }
        try sink.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// A whole small report as a string: header then rows (which must match the header's width; extra cells are kept, missing ones left out).
    package static func render(header: [String], rows: [[String]]) -> String {
        String(decoding: renderBytes(header: header, rows: rows), as: UTF8.self)
    }

    /// A whole report as bytes, as `render` writes it; rows are taken one at a time, so a lazy sequence never holds
    /// every row's cells at once (a 1M × 1M reconcile's `subscriptions.csv` has 130,000 rows).
    package static func renderBytes(header: [String], rows: some Sequence<[String]>) -> [UInt8] {
        var writer = CSVWriter(header: header)
        for row in rows { writer.appendRecord(row) }
        return writer.bytes
    }

    /// One cell as it appears in the file: guarded, then quoted if needed.
    package static func encode(cell: String, guardsFormulas: Bool = true) -> String {
        var text = cell
        if guardsFormulas { text = CSVFormulaGuard.guarded(cell) }
        guard text.utf8.contains(where: { ByteTables.isCSVSpecial($0) || $0 == 0 }) else { return text }
        text = RejectRow.nulEscaped(text)
        guard text.utf8.contains(where: ByteTables.isCSVSpecial) else { return text }
        return "\"" + text.replacingQuotes() + "\""
    }

    // MARK: - Encoding

    /// Appends a record without checking its width.
    private mutating func appendRecord(_ cells: [String]) {
        if cells.count == 1, cells[0].isEmpty {
            // A lone empty cell would be an empty line, which readers skip; quote it so the row survives.
            bytes.append(contentsOf: "\"\"\n".utf8)
            return
        }
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: CSVWriter.encode(cell: cell, guardsFormulas: guardsFormulas).utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}

// MARK: - Private helpers

extension String {
    /// The text with each `"` doubled.
    fileprivate func replacingQuotes() -> String {
        var result = ""
        result.reserveCapacity(utf8.count + 2)
        for character in unicodeScalars {
            if character == "\"" { result.unicodeScalars.append("\"") }
            result.unicodeScalars.append(character)
        }
        return result
    }
}
