/// An incremental RFC 4180 CSV reader: feed byte chunks, get complete records; the first record is the header.
///
/// Quoted fields may hold commas, doubled quotes and line ends; records end with LF, CRLF or a lone CR; a UTF-8 BOM
/// is skipped; empty lines are skipped. A record whose field count differs from the header's, an unterminated quote,
/// text after a closing quote or bytes that are not UTF-8 throw `ASNError(.malformedCSV, …)` located at the
/// record's starting line; after an error the reader's state is undefined, so stop reading. Memory use is one record,
/// whatever the file size.
public struct CSVReader: Sendable {
    /// The input path as given, for error locations.
    public let path: String
    /// The header fields, once the first record has been read.
    public private(set) var header: [String]?

    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var line = 1
    private var recordLine = 1
    private var quoteLine = 1
    private var bomBytesSeen = 0
    private var pendingBOM: [UInt8] = []
    private var finished = false

    /// Creates a reader for the input named `path`.
    public init(path: String) {
        self.path = path
    }

    // MARK: - Reading

    /// Consumes a chunk and returns the data records it completed (the header is kept in `header`, not returned).
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws(ASNError) -> [CSVRecord] {
        guard !finished else { throw ASNError(.malformedCSV, "CSV reader fed after finish(); this is a bug, please report it", at: location(line)) }
        var records: [CSVRecord] = []
        for byte in chunk {
            if bomBytesSeen < 3 {
                if try skipBOM(byte, into: &records) { continue }
            }
            try consume(byte, into: &records)
        }
        return records
    }

    /// Ends the input and returns the last record, if it had no final line end.
    public mutating func finish() throws(ASNError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        if bomBytesSeen < 3 {
            bomBytesSeen = 3
            for byte in pendingBOM { try consume(byte, into: &records) }
        }
        finished = true
        switch state {
        case .quoted:
            throw ASNError(.malformedCSV, "quoted field opened on line \(quoteLine) is never closed; add the closing '\"' and double any '\"' inside the field", at: location(recordLine))
        case .fieldStart where fields.isEmpty, .afterCR:
            break
        default:
            try endRecord(into: &records)
        }
        guard header != nil else {
            throw ASNError(.malformedCSV, "the CSV file is empty; it needs a header row naming the columns", at: location(nil))
        }
        return records
    }

    /// Reads a whole buffer: the header and every record.
    public static func read(_ bytes: [UInt8], path: String) throws(ASNError) -> (header: [String], records: [CSVRecord]) {
        var reader = CSVReader(path: path)
        var records = try reader.feed(bytes)
        records += try reader.finish()
        return (reader.header ?? [], records)
    }

    /// The 0-based index of a header column, once the header has been read.
    public func columnIndex(named name: String) -> Int? {
        header?.firstIndex(of: name)
    }

    // MARK: - State machine

    /// Where the scanner is within a record.
    private enum State: Sendable {
        case fieldStart, unquoted, quoted, quoteInQuoted, afterCR
    }

    /// Holds back the first bytes until it is known whether they are a BOM; returns true when `byte` was taken.
    private mutating func skipBOM(_ byte: UInt8, into records: inout [CSVRecord]) throws(ASNError) -> Bool {
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
    private mutating func consume(_ byte: UInt8, into records: inout [CSVRecord]) throws(ASNError) {
        switch state {
        case .afterCR:
            state = .fieldStart
            if byte == lf { return }
            try consume(byte, into: &records)
        case .fieldStart:
            if fields.isEmpty, field.isEmpty { recordLine = line }
            switch byte {
            case quote:
                state = .quoted
                quoteLine = line
            case comma:
                try endField()
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                field.append(byte)
                state = .unquoted
            }
        case .unquoted:
            switch byte {
            case comma:
                try endField()
                state = .fieldStart
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                field.append(byte) // a stray quote inside an unquoted field is kept literally
            }
        case .quoted:
            if byte == quote {
                state = .quoteInQuoted
            } else {
                // LF, CRLF and a lone CR each end one line; the LF of a CRLF was counted with its CR.
                if byte == cr || (byte == lf && field.last != cr) { line += 1 }
                field.append(byte)
            }
        case .quoteInQuoted:
            switch byte {
            case quote:
                field.append(quote)
                state = .quoted
            case comma:
                try endField()
                state = .fieldStart
            case lf, cr:
                try endLine(byte, into: &records)
            default:
                throw ASNError(.malformedCSV, "text after the closing quote of field \(fields.count + 1); quote the whole field and double every '\"' inside it", at: location(recordLine))
            }
        }
    }

    /// Ends the current field.
    private mutating func endField() throws(ASNError) {
        guard let text = String(validating: field, as: UTF8.self) else {
            throw ASNError(.malformedCSV, "field \(fields.count + 1) is not valid UTF-8; save the file as UTF-8", at: location(recordLine))
        }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
    }

    /// Handles a line end outside quotes: ends the record, or skips an empty line.
    private mutating func endLine(_ byte: UInt8, into records: inout [CSVRecord]) throws(ASNError) {
        let emptyLine = state == .fieldStart && fields.isEmpty && field.isEmpty
        if !emptyLine { try endRecord(into: &records) }
        line += 1
        state = byte == cr ? .afterCR : .fieldStart
    }

    /// Ends the current record, checking its width against the header.
    private mutating func endRecord(into records: inout [CSVRecord]) throws(ASNError) {
        try endField()
        let record = fields
        fields.removeAll(keepingCapacity: true)
        guard let header else {
            header = record
            return
        }
        guard record.count == header.count else {
            throw ASNError(.malformedCSV, "record has \(record.count) field\(record.count == 1 ? "" : "s") but the header has \(header.count); quote fields that contain commas, or add the missing fields", at: location(recordLine))
        }
        records.append(CSVRecord(fields: record, line: recordLine))
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
