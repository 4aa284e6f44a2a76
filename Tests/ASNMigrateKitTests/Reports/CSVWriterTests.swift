import Testing

@testable import ASNMigrateKit

@Suite struct CSVWriterTests {
    // MARK: - Cells

    static let cellCases: [(String, String)] = [
        ("plain", "plain"),
        ("", ""),
        ("=1+1", "'=1+1"),
        ("+x", "'+x"),
        ("-5", "'-5"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""),
        ("a,b", "\"a,b\""),
        ("a\"b", "\"a\"\"b\""),
        ("a\nb", "\"a\nb\""),
        ("a\r\nb", "\"a\r\nb\""),
        ("=HYPERLINK(\"x\",\"y\")", "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\""),
        ("a=b", "a=b"),
        ("x-5", "x-5"),
        (" =1", " =1"),
        ("'quoted'", "'quoted'"),
        ("é,ü", "\"é,ü\"")
    ]

    @Test(arguments: cellCases)
    func encodesCell(cell: String, expected: String) {
        #expect(CSVWriter.encode(cell: cell) == expected)
    }

    @Test func guardCanBeTurnedOff() {
        #expect(CSVWriter.encode(cell: "-5", guardsFormulas: false) == "-5")
        #expect(CSVWriter.encode(cell: "=a,b", guardsFormulas: false) == "\"=a,b\"")
    }

    // MARK: - Rows

    @Test func rendersHeaderAndRowsWithLineFeeds() {
        let text = CSVWriter.render(header: ["id", "note"], rows: [["1", "a,b"], ["2", "=x"]])
        #expect(text == "id,note\n1,\"a,b\"\n2,'=x\n")
    }

    @Test func writesHeaderEvenWithoutRows() {
        #expect(CSVWriter.render(header: ["a", "b"], rows: []) == "a,b\n")
    }

    @Test func loneEmptyCellIsQuotedSoTheRowIsNotABlankLine() {
        #expect(CSVWriter.render(header: ["only"], rows: [[""], ["x"]]) == "only\n\"\"\nx\n")
    }

    @Test func rejectsRowOfWrongWidth() {
        var writer = CSVWriter(header: ["a", "b"])
        #expect(throws: ASNError.self) { try writer.appendRow(["1"]) }
        do {
            try writer.appendRow(["1", "2", "3"])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputFailed)
            #expect(error.message.contains("3 cells but the header has 2"))
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "a,b\n")
    }

    @Test func drainsIntoSinkAndEmptiesBuffer() throws {
        final class Collector: ByteSink {
            var collected: [UInt8] = []
            func write(_ bytes: [UInt8]) throws(ASNError) { collected += bytes }
        }
        let sink = Collector()
        var writer = CSVWriter(header: ["a"])
        try writer.drain(into: sink)
        try writer.appendRow(["1"])
        try writer.drain(into: sink)
        #expect(writer.bytes.isEmpty)
        try writer.appendRow(["2"])
        #expect(writer.drain() == Array("2\n".utf8))
        #expect(String(decoding: sink.collected, as: UTF8.self) == "a\n1\n")
    }

    // MARK: - Round trip

    @Test func roundTripsThroughReader() throws {
        let header = ["id", "text", "formula", "empty"]
        let rows = [
            ["1", "plain", "=1+1", ""],
            ["2", "a,b", "+x", ""],
            ["3", "a\"b\"\"", "-5", "x"],
            ["4", "line1\nline2\r\nline3\rline4", "@SUM", ""],
            ["5", "héllo, wörld 🎉", "\tx", "\rx"],
            ["6", "", "", ""],
            ["7", "\"", ",", "\n"]
        ]
        var writer = CSVWriter(header: header)
        for row in rows { try writer.appendRow(row) }
        let (readHeader, records) = try CSVReader.read(writer.bytes, path: "r.csv")
        #expect(readHeader == header)
        let expected = rows.map { row in
            row.map { cell -> String in
                guard let first = cell.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) else { return cell }
                return "'" + cell
            }
        }
        #expect(records.map(\.fields) == expected)
        #expect(records.map(\.line) == [2, 3, 4, 5, 9, 11, 12]) // row 4 holds three line ends, row 5 one CR
    }

    @Test func roundTripsRawValuesWithoutGuard() throws {
        let rows = [["-5", "=x"], ["+1", "@a"]]
        var writer = CSVWriter(header: ["a", "b"], guardsFormulas: false)
        for row in rows { try writer.appendRow(row) }
        #expect(try CSVReader.read(writer.bytes, path: "r.csv").records.map(\.fields) == rows)
    }
}
