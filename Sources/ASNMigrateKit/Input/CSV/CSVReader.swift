/// An incremental RFC 4180 CSV reader: feed byte chunks, get complete records; the first record is the header.
///
/// Quoted fields may hold commas, doubled quotes and line ends; records end with LF, CRLF or a lone CR; a UTF-8 BOM
/// is skipped; empty lines are skipped. `feedRows`/`finishRows` give every data row as a `CSVRow`: a row whose field
/// count differs from the header's, with text after a closing quote (the rest of that line is skipped) or with bytes
/// that are not UTF-8 is one `.malformed` row (`ASNError(.malformedCSV, …)` located at its starting line) and reading
/// goes on with the next row. Only a quote still open at the end of the file ends it early: one `.malformed` row
/// saying how many lines it swallowed. A bad header row throws, since no row can be read without it. `feed`/`finish`
/// are the strict forms, throwing the first malformed row. Memory use is one record, whatever the file size.
package struct CSVReader: Sendable {
    /// The input path as given, for error locations.
    package let path: String
    /// The header fields, once the first record has been read.
    package private(set) var header: [String]?

    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var line = 1
    private var recordLine = 1
    private var quoteLine = 1
    private var bomBytesSeen = 0
    private var pendingBOM: [UInt8] = []
    private var finished = false
    /// What is wrong with the current row, once something is.
    private var rowError: ASNError?
    /// Whether the last byte consumed ended a line (for counting the lines an open quote swallowed).
    private var lastByteEndedLine = false
    /// The longest row kept, in bytes (`--max-record-bytes`); a longer one is one malformed `record_too_large` row.
    private let maxRowBytes: Int
    /// Bytes of the current row so far.
    private var rowBytes = 0
    /// Whether the current row passed `maxRowBytes`: its bytes are scanned (quotes still end fields) but not kept.
    private var dropping = false
    /// The byte before the current one inside a quoted field (to count a CRLF's line once while dropping).
    private var previousQuoted: UInt8 = 0

    /// Creates a reader for the input named `path`, keeping rows of up to `maxRowBytes` bytes.
    package init(path: String, maxRowBytes: Int = InputLimits.defaultMaxRecordBytes) {
        self.path = path
        self.maxRowBytes = max(1, maxRowBytes)
    }

    // MARK: - Reading

    /// Consumes a chunk and returns the data rows it completed, good or malformed (the header is kept in `header`).
    /// Throws only for a bad header row or when fed after `finishRows()`.
    package mutating func feedRows(_ chunk: some Sequence<UInt8>) throws(ASNError) -> [CSVRow] {
        guard !finished else {
            throw ASNError(
                .malformedCSV, "CSV reader fed after finish(); this is a bug, please report it", at: location(line))
        }
        var rows: [CSVRow] = []
        for byte in chunk {
            if bomBytesSeen < 3 {
                if try skipBOM(byte, into: &rows) { continue }
            }
            try consume(byte, into: &rows)
        }
        return rows
    }

    /// Ends the input and returns the last row, if it had no final line end, or one `.malformed` row for a quote
    /// left open (it swallowed every line to the end of the file). Throws when the file has no header row.
    package mutating func finishRows() throws(ASNError) -> [CSVRow] {
        var rows: [CSVRow] = []
        if bomBytesSeen < 3 {
            bomBytesSeen = 3
            for byte in pendingBOM { try consume(byte, into: &rows) }
        }
        finished = true
        switch state {
        case .quoted:
            let lines = line - recordLine + (lastByteEndedLine ? 0 : 1)
            let error = ASNError(
                .malformedCSV,
                "quoted field opened on line \(quoteLine) is never closed; it swallowed the rest of the file (\(lines) line\(lines == 1 ? "" : "s") from line \(recordLine)) and any rows in them are lost; add the closing '\"' and double any '\"' inside the field",
                at: location(recordLine))
            if header == nil { throw error }
            rows.append(.malformed(error))
        case .fieldStart where fields.isEmpty, .afterCR:
            break
        default:
            try endRecord(into: &rows)
        }
        guard header != nil else {
            throw ASNError(
                .malformedCSV, "the CSV file is empty; it needs a header row naming the columns", at: location(nil))
        }
        return rows
    }

    /// Consumes a chunk and returns the data records it completed; throws the first malformed row (strict form).
    package mutating func feed(_ chunk: some Sequence<UInt8>) throws(ASNError) -> [CSVRecord] {
        try Self.strict(feedRows(chunk))
    }

    /// Ends the input and returns the last record; throws the first malformed row (strict form).
    package mutating func finish() throws(ASNError) -> [CSVRecord] {
        try Self.strict(finishRows())
    }

    /// Reads a whole buffer strictly: the header and every record, or the first malformed row thrown.
    package static func read(_ bytes: [UInt8], path: String) throws(ASNError) -> (
        header: [String], records: [CSVRecord]
    ) {
        var reader = CSVReader(path: path)
        var records = try reader.feed(bytes)
        records += try reader.finish()
        return (reader.header ?? [], records)
    }

    /// The records of `rows`, or the first malformed row's error.
    private static func strict(_ rows: [CSVRow]) throws(ASNError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        for row in rows {
            switch row {
            case .record(let record): records.append(record)
            case .malformed(let error): throw error
            }
        }
        return records
    }

    /// The 0-based index of a header column, once the header has been read.
    package func columnIndex(named name: String) -> Int? {
        header?.firstIndex(of: name)
    }

    // MARK: - State machine

    /// Where the scanner is within a record.
    private enum State: Sendable {
        case fieldStart, unquoted, quoted, quoteInQuoted, afterCR, skippingLine
    }

    /// Holds back the first bytes until it is known whether they are a BOM; returns true when `byte` was taken.
    private mutating func skipBOM(_ byte: UInt8, into records: inout [CSVRow]) throws(ASNError) -> Bool {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if byte == bom[bomBytesSeen] {
            pendingBOM.append(byte)
            bomBytesSeen += 1
            if bomBytesSeen == 3 { pendingBOM.removeAll() }
            return true
        }
        bomBytesSeen = 3
        let held = pendingBOM
        pendingBOM.removeAll()
        for heldByte in held { try consume(heldByte, into: &records) }
        return false
    }

    /// Advances the state machine by one byte.
    private mutating func consume(_ byte: UInt8, into records: inout [CSVRow]) throws(ASNError) {
        defer { lastByteEndedLine = byte == lf || byte == cr }
        switch state {
        case .skippingLine:
            if byte == lf || byte == cr { try endLine(byte, into: &records) }
        case .afterCR:
            state = .fieldStart
            if byte == lf { return }
            try consume(byte, into: &records)
        case .fieldStart:
            if fields.isEmpty, field.isEmpty { recordLine = line }
            switch byte {
            case quote:
                state = .quoted
                previousQuoted = 0
                quoteLine = line
            case comma:
                endField()
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                keep(byte)
                state = .unquoted
            }
        case .unquoted:
            switch byte {
            case comma:
                endField()
                state = .fieldStart
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                keep(byte) // a stray quote inside an unquoted field is kept literally
            }
        case .quoted:
            if byte == quote {
                state = .quoteInQuoted
            } else {
                // LF, CRLF and a lone CR each end one line; the LF of a CRLF was counted with its CR.
                if byte == cr || (byte == lf && previousQuoted != cr) { line += 1 }
                previousQuoted = byte
                keep(byte)
            }
        case .quoteInQuoted:
            switch byte {
            case quote:
                keep(quote)
                previousQuoted = quote
                state = .quoted
            case comma:
                endField()
                state = .fieldStart
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                // The row is lost whatever follows; its line is skipped and the next row read.
                flag(
                    ASNError(
                        .malformedCSV,
                        "text after the closing quote of field \(fields.count + 1)\(spanned); quote the whole field and double every '\"' inside it",
                        at: location(recordLine)))
                state = .skippingLine
            }
        }
    }

    /// Keeps one byte of the current field, unless the row has passed `maxRowBytes`: then the row is flagged
    /// `record_too_large` once and its bytes are only counted, so memory stays within the limit.
    private mutating func keep(_ byte: UInt8) {
        rowBytes += 1
        if dropping { return }
        field.append(byte)
        checkRowSize()
    }

    /// Starts dropping the row once its bytes and separators pass `maxRowBytes`.
    private mutating func checkRowSize() {
        guard !dropping, rowBytes + fields.count > maxRowBytes else { return }
        dropping = true
        flag(InputFile.recordTooLarge(bytes: nil, limit: maxRowBytes, at: location(recordLine)))
        field = []
        fields = []
    }

    /// Ends the current field.
    private mutating func endField() {
        if dropping {
            field.removeAll(keepingCapacity: true)
            return
        }
        if let text = String(validating: field, as: UTF8.self) {
            fields.append(text)
        } else {
            flag(
                ASNError(
                    .malformedCSV, "field \(fields.count + 1) is not valid UTF-8; save the file as UTF-8",
                    at: location(recordLine)))
            fields.append("")
        }
        field.removeAll(keepingCapacity: true)
        checkRowSize()
    }

    /// Marks the current row malformed (the first problem found is the one reported).
    private mutating func flag(_ error: ASNError) {
        if rowError == nil { rowError = error }
    }

    /// `, spanning lines A-B` when the current row runs over more than one line (rows inside a bad quote are lost with it).
    private var spanned: String {
        line > recordLine ? " (the row spans lines \(recordLine)-\(line), so a quote may be misplaced)" : ""
    }

    /// Handles a line end outside quotes: ends the record, or skips an empty line.
    private mutating func endLine(_ byte: UInt8, into records: inout [CSVRow]) throws(ASNError) {
        let emptyLine = state == .fieldStart && fields.isEmpty && field.isEmpty && rowError == nil
        if !emptyLine { try endRecord(into: &records) }
        line += 1
        state = byte == cr ? .afterCR : .fieldStart
    }

    /// Ends the current row: the header, a record, or one malformed row (wrong width or flagged earlier).
    private mutating func endRecord(into records: inout [CSVRow]) throws(ASNError) {
        if state != .skippingLine { endField() }
        let record = fields
        let problem = rowError
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        rowError = nil
        rowBytes = 0
        dropping = false
        guard let header else {
            if let problem { throw problem }
            header = record
            return
        }
        if let problem {
            records.append(.malformed(problem))
        } else if record.count != header.count {
            records.append(
                .malformed(
                    ASNError(
                        .malformedCSV,
                        "record has \(record.count) field\(record.count == 1 ? "" : "s") but the header has \(header.count)\(spanned); quote fields that contain commas, or add the missing fields; the next rows are read",
                        at: location(recordLine))))
        } else {
            records.append(.record(CSVRecord(fields: record, line: recordLine)))
        }
    }

    /// A location in this input.
    private func location(_ line: Int?) -> SourceLocation {
        SourceLocation(path: path, line: line)
    }
}

// MARK: - Private constants

private let quote = UInt8(ascii: "\"")
private let comma = UInt8(ascii: ",")
private let lf: UInt8 = 0x0A
private let cr: UInt8 = 0x0D
