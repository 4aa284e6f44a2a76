import Testing

@testable import ASNMigrateKit

@Suite struct CSVReaderTests {
    // MARK: - Helpers

    private func read(_ text: String) throws -> (header: [String], records: [CSVRecord]) {
        try CSVReader.read(Array(text.utf8), path: "in.csv")
    }

    private func readError(_ text: String) -> ASNError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error as? ASNError
        }
    }

    // MARK: - Accepted input

    @Test func readsHeaderAndRecordsWithLines() throws {
        let (header, records) = try read("a,b\n1,2\n3,4\n")
        #expect(header == ["a", "b"])
        #expect(records == [CSVRecord(fields: ["1", "2"], line: 2), CSVRecord(fields: ["3", "4"], line: 3)])
    }

    @Test func readsQuotedFieldsWithCommasQuotesAndNewlines() throws {
        let (_, records) = try read("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n\"multi\nline\",z\nlast,one\n")
        #expect(records.map(\.fields) == [["x,y", "say \"hi\""], ["multi\nline", "z"], ["last", "one"]])
        #expect(records.map(\.line) == [2, 3, 5])
    }

    @Test func readsCRLFAndLoneCRLineEnds() throws {
        let (header, records) = try read("a,b\r\n1,2\r\n\"q\r\nq\",3\r4,5")
        #expect(header == ["a", "b"])
        #expect(records.map(\.fields) == [["1", "2"], ["q\r\nq", "3"], ["4", "5"]])
        #expect(records.map(\.line) == [2, 3, 5])
    }

    @Test func skipsBOMAndEmptyLinesAndAcceptsMissingFinalNewline() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,b\n\n1,2\n\n\n3,\n,".utf8)
        let (header, records) = try CSVReader.read(bytes, path: "in.csv")
        #expect(header == ["a", "b"])
        #expect(records.map(\.fields) == [["1", "2"], ["3", ""], ["", ""]])
        #expect(records.map(\.line) == [3, 6, 7])
    }

    @Test func keepsPartialBOMAsData() throws {
        let bytes: [UInt8] = [0xEF, 0xBB] + Array("\n".utf8)
        #expect(throws: ASNError.self) { _ = try CSVReader.read(bytes, path: "x") } // EF BB alone is not UTF-8
        let (header, _) = try CSVReader.read([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("a\n".utf8), path: "x")
        #expect(header == ["\u{FEFF}a"]) // only the first BOM is skipped
    }

    @Test func strayQuoteInUnquotedFieldIsKept() throws {
        #expect(try read("a\nsix\"inch\n").records.map(\.fields) == [["six\"inch"]])
    }

    @Test func columnIndexLooksUpHeader() throws {
        var reader = CSVReader(path: "x")
        #expect(reader.columnIndex(named: "b") == nil)
        _ = try reader.feed(Array("a,b\n".utf8))
        #expect(reader.columnIndex(named: "b") == 1)
        #expect(reader.columnIndex(named: "c") == nil)
        #expect(CSVRecord(fields: ["1"], line: 2)[1] == nil)
        #expect(CSVRecord(fields: ["1"], line: 2)[0] == "1")
    }

    static let chunkSizes = [1, 2, 3, 5, 7, 64]

    @Test(arguments: chunkSizes)
    func chunkBoundariesDoNotMatter(size: Int) throws {
        let text = "\u{FEFF}id,note\r\n1,\"a,\"\"b\"\"\r\nc\"\r\n2,plain\r\n\r\n3,\"\"\n"
        let whole = try read(text)
        var reader = CSVReader(path: "in.csv")
        var records: [CSVRecord] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            records += try reader.feed(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        records += try reader.finish()
        #expect(reader.header == ["id", "note"])
        #expect(records == whole.records)
        #expect(records.map(\.line) == [2, 4, 6])
    }

    // MARK: - Errors

    static let errorCases: [(String, Int?, String)] = [
        ("a,b\n1,2\n1,2,3\n", 3, "record has 3 fields but the header has 2"),
        ("a,b\n1\n", 2, "record has 1 field but the header has 2"),
        ("a,b\n1,2\n\"x\ny,2\n", 3, "quoted field opened on line 3 is never closed"),
        ("a,b\n\"x\"y,2\n", 2, "text after the closing quote of field 1"),
        ("a,b\n1,\"x\" ,2\n", 2, "text after the closing quote of field 2"),
        ("", nil, "the CSV file is empty"),
        ("\n\n", nil, "the CSV file is empty"),
        ("a,b\r\n\"m\r\nl\",2\r\n1,2,3\r\n", 4, "record has 3 fields")
    ]

    @Test(arguments: errorCases)
    func reportsMalformedInputWithLine(text: String, line: Int?, message: String) {
        let error = readError(text)
        #expect(error?.code == .malformedCSV)
        #expect(error?.location == SourceLocation(path: "in.csv", line: line))
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(readError("a,b\n1\n")?.message.contains("quote fields that contain commas") == true)
        #expect(readError("a\n\"x\n")?.message.contains("add the closing") == true)
        #expect(readError("")?.message.contains("needs a header row") == true)
    }

    @Test func rejectsInvalidUTF8() {
        let error: ASNError?
        do {
            _ = try CSVReader.read(Array("a\n".utf8) + [0xFF, 0x0A], path: "in.csv")
            error = nil
        } catch let caught {
            error = caught
        }
        #expect(error?.code == .malformedCSV)
        #expect(error?.location?.line == 2)
        #expect(error?.message.contains("UTF-8") == true)
    }

    @Test func feedingAfterFinishIsAnError() throws {
        var reader = CSVReader(path: "x")
        _ = try reader.feed(Array("a\n".utf8))
        _ = try reader.finish()
        #expect(throws: ASNError.self) { _ = try reader.feed([0x41]) }
    }

    // MARK: - Rows

    @Test(arguments: chunkSizes)
    func malformedRowsAreOneEachAndReadingGoesOn(size: Int) throws {
        let text = "a,b\n1\n\"x\ny\",2\n3,4,5\n\"q\"z,9\n?,1\n7,8"
        let bytes = Array(text.utf8).map { $0 == 0x3F ? 0xFF : $0 }
        var reader = CSVReader(path: "in.csv")
        var rows: [CSVRow] = []
        var start = 0
        while start < bytes.count {
            rows += try reader.feedRows(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        rows += try reader.finishRows()
        let summary = rows.map { row -> String in
            switch row {
            case .record(let record): return "\(record.line):" + record.fields.joined(separator: "|")
            case .malformed(let error): return "\(error.location?.line ?? 0):bad"
            }
        }
        #expect(summary == ["2:bad", "3:x\ny|2", "5:bad", "6:bad", "7:bad", "8:7|8"])
    }
}
