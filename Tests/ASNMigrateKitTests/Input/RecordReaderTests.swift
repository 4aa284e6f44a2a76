import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct RecordReaderTests {
    /// A record or broken item reduced to what the tests compare: text, line, index.
    private enum Item: Equatable, CustomStringConvertible {
        case record(String, line: Int?, index: Int?)
        case broken(line: Int?, index: Int?)

        var description: String {
            switch self {
            case .record(let text, let line, let index):
                return
                    "record(\(text.debugDescription), line: \(line.map(String.init) ?? "nil"), index: \(index.map(String.init) ?? "nil"))"
            case .broken(let line, let index):
                return "broken(line: \(line.map(String.init) ?? "nil"), index: \(index.map(String.init) ?? "nil"))"
            }
        }
    }

    /// The chunk sizes every input is split with; all must give identical items.
    private static let chunkSizes = [1, 2, 3, 7, 64, 1 << 20]

    /// Splits `bytes` (written to a temporary file) with every chunk size, expects identical items, and returns them.
    private func split(_ bytes: [UInt8], name: String = "input.json") throws -> (path: String, items: [InputItem]) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write(name, bytes)
        let reference = try RecordReader(file: InputFile(path: path), chunkSize: Self.chunkSizes[0]).items()
        for size in Self.chunkSizes.dropFirst() {
            let items = try RecordReader(file: InputFile(path: path), chunkSize: size).items()
            #expect(items == reference, "chunk size \(size) differs from chunk size 1")
        }
        for item in reference {
            #expect(item.location?.path == path)
            #expect(item.error.map { $0.code == .malformedJSON } ?? true)
        }
        return (path, reference)
    }

    /// `split` of UTF-8 text, reduced to `Item`s.
    private func items(_ text: String) throws -> [Item] {
        try simplify(split(Array(text.utf8)).items)
    }

    /// Reduces items to `Item`s.
    private func simplify(_ items: [InputItem]) -> [Item] {
        items.map { item in
            switch item {
            case .record(let record):
                return .record(
                    String(decoding: record.bytes, as: UTF8.self), line: record.location.line,
                    index: record.location.index)
            case .broken(let error):
                return .broken(line: error.location?.line, index: error.location?.index)
            }
        }
    }

    /// The messages of the broken items in `text`.
    private func brokenMessages(_ text: String) throws -> [String] {
        try split(Array(text.utf8)).items.compactMap { $0.error?.message }
    }

    // MARK: - Modes

    @Test func singleObjectOnOneLineIsOneRecord() throws {
        #expect(
            try items(#"{"notification_type":"DID_RENEW"}"#) == [
                .record(#"{"notification_type":"DID_RENEW"}"#, line: 1, index: nil)
            ])
        #expect(try items("  \n {\"a\":1} \n\n") == [.record(#"{"a":1}"#, line: 2, index: nil)])
    }

    @Test func prettyPrintedObjectSpanningLinesIsOneRecord() throws {
        let object = "{\n  \"a\": \"x{[\\\"\",\n  \"b\": [1, {\"c\": \"}\"}],\n  \"d\": {\n    \"e\": null\n  }\n}"
        #expect(try items("\n\n" + object + "\n\n") == [.record(object, line: 3, index: nil)])
    }

    @Test func concatenatedObjectsAreSplitByDepth() throws {
        let text = "{\n \"a\":1\n}{\"b\":2}\n\n  {\"c\":\n3}\n{\"d\":[{}]} {\"e\":\"\\n\"}"
        #expect(
            try items(text) == [
                .record("{\n \"a\":1\n}", line: 1, index: nil),
                .record("{\"b\":2}", line: 3, index: nil),
                .record("{\"c\":\n3}", line: 5, index: nil),
                .record("{\"d\":[{}]}", line: 7, index: nil),
                .record("{\"e\":\"\\n\"}", line: 7, index: nil)
            ])
    }

    @Test func arrayElementsCarryIndexAndStartLine() throws {
        let text = "[\n  {\"a\":1},\n  {\"b\":\"]\"},\n\n  {\"c\":[1,\n2]}\n]\n"
        #expect(
            try items(text) == [
                .record("{\"a\":1}", line: 2, index: 0),
                .record("{\"b\":\"]\"}", line: 3, index: 1),
                .record("{\"c\":[1,\n2]}", line: 5, index: 2)
            ])
    }

    @Test func arrayScalarsAndExtraCommasAndEmptyArrays() throws {
        #expect(
            try items(#"[1, "a,]\"", true,null , -2.5e3]"#) == [
                .record("1", line: 1, index: 0),
                .record(#""a,]\"""#, line: 1, index: 1),
                .record("true", line: 1, index: 2),
                .record("null", line: 1, index: 3),
                .record("-2.5e3", line: 1, index: 4)
            ])
        #expect(try items("[1,,2,]") == [.record("1", line: 1, index: 0), .record("2", line: 1, index: 1)])
        #expect(try items("[]").isEmpty)
        #expect(try items(" [ \n ] \n").isEmpty)
    }

    @Test func jsonLinesSkipBlankAndWhitespaceOnlyLines() throws {
        let text = "{\"a\":1}\n\n   \n\t\r\n{\"b\":2}\n  {\"c\":3}  \t\n\n"
        #expect(
            try items(text) == [
                .record("{\"a\":1}", line: 1, index: nil),
                .record("{\"b\":2}", line: 5, index: nil),
                .record("{\"c\":3}", line: 6, index: nil)
            ])
    }

    @Test func jsonLinesWhenTheFirstByteIsNotABracket() throws {
        #expect(
            try items("\"x\"\n42\nnot json {\n}\n") == [
                .record("\"x\"", line: 1, index: nil),
                .record("42", line: 2, index: nil),
                .record("not json {", line: 3, index: nil),
                .record("}", line: 4, index: nil)
            ])
    }

    @Test func crlfLineEndingsAreStripped() throws {
        #expect(
            try items("{\"a\":1}\r\n\r\n{\"b\":2}\r\n{\"c\":3}\r") == [
                .record("{\"a\":1}", line: 1, index: nil),
                .record("{\"b\":2}", line: 3, index: nil),
                .record("{\"c\":3}", line: 4, index: nil)
            ])
        #expect(
            try items("{\r\n\"a\":1\r\n}\r\n{\"b\":2}\r\n") == [
                .record("{\r\n\"a\":1\r\n}", line: 1, index: nil),
                .record("{\"b\":2}", line: 4, index: nil)
            ])
    }

    @Test func byteOrderMarkIsSkippedInEveryMode() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(
            simplify(try split(bom + Array("{\"a\":1}\n{\"b\":2}".utf8)).items) == [
                .record("{\"a\":1}", line: 1, index: nil), .record("{\"b\":2}", line: 2, index: nil)
            ])
        #expect(
            simplify(try split(bom + Array("\n [{\"a\":1}]".utf8)).items) == [.record("{\"a\":1}", line: 2, index: 0)])
        #expect(simplify(try split(bom + Array("{\n}".utf8)).items) == [.record("{\n}", line: 1, index: nil)])
        #expect(try split(bom).items.isEmpty)
        // Only a whole BOM is skipped; a prefix of one is content.
        let partial = try split([0xEF, 0xBB, 0x41, 0x0A]).items
        #expect(partial.map { $0.record?.bytes } == [[0xEF, 0xBB, 0x41]])
        #expect(try split([0xEF]).items.map { $0.record?.bytes } == [[0xEF]])
    }

    @Test func bytesPassThroughUntouched() throws {
        let line: [UInt8] = [0x7B, 0x22, 0xFF, 0xC3, 0x28, 0x00, 0x22, 0x7D]
        #expect(try split(line + [0x0A] + line).items.map { $0.record?.bytes } == [line, line])
        #expect(try split([0x5B] + line + [0x5D]).items.map { $0.record?.bytes } == [line])
    }

    @Test func emptyAndWhitespaceOnlyFilesHaveNoItems() throws {
        #expect(try split([]).items.isEmpty)
        #expect(try items(" \n\t\r\n\n").isEmpty)
    }

    // MARK: - Strings and escapes

    @Test func stringsHidingBracketsDoNotConfuseDetectionOrSplitting() throws {
        // The first line's value ends on its line only if strings and escapes are honoured, so this is JSON Lines:
        // the incomplete second line is then its own record rather than swallowing the rest.
        let first = #"{"s":"{{[[\"\\","t":"}]\n"}"#
        #expect(
            try items(first + "\n{\"u\":\n{\"v\":1}\n") == [
                .record(first, line: 1, index: nil),
                .record("{\"u\":", line: 2, index: nil),
                .record("{\"v\":1}", line: 3, index: nil)
            ])
        // The same tricky strings inside concatenated and array values.
        let tricky = #"{"a":"}\"{","b":["]\\"],"c":"\\\"}"}"#
        #expect(
            try items("{\n\"x\":1}" + tricky + "\n" + tricky) == [
                .record("{\n\"x\":1}", line: 1, index: nil),
                .record(tricky, line: 2, index: nil),
                .record(tricky, line: 3, index: nil)
            ])
        #expect(
            try items("[" + tricky + ",\n" + tricky + "]") == [
                .record(tricky, line: 1, index: 0),
                .record(tricky, line: 2, index: 1)
            ])
    }

    // MARK: - Truncation and garbage

    @Test func truncatedConcatenatedValueIsBroken() throws {
        #expect(
            try items("{\"a\":\n1}\n{\n \"b\": {\"c\":") == [
                .record("{\"a\":\n1}", line: 1, index: nil),
                .broken(line: 3, index: nil)
            ])
        #expect(
            try brokenMessages("{\"a\":\n1}\n{\n \"b\": {\"c\":") == [
                "unterminated JSON value starting at line 3: the file ends inside an object; "
                    + "the archive may be truncated — restore a complete copy, or accept that this record is lost"
            ])
        #expect(try brokenMessages("{\n\"a\":\"abc")[0].contains("the file ends inside a string"))
        // One line, never closed: a JSON Lines record for the parser to reject (one item either way).
        #expect(try items("{\"a\":[1,2") == [.record("{\"a\":[1,2", line: 1, index: nil)])
    }

    @Test func truncatedArrayElementIsBroken() throws {
        // One element per line: the cut line is that element, for the parser to reject (a line is one item).
        #expect(
            try items("[{\"a\":1},\n{\"b\":") == [
                .record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":", line: 2, index: 1)
            ])
        // Cut at a line boundary, the missing end is reported on its own.
        #expect(
            try items("[{\"a\":1},\n{\"b\":2},\n") == [
                .record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":2}", line: 2, index: 1),
                .broken(line: 3, index: nil)
            ])
        // Elements spanning lines are split by depth, as before.
        #expect(
            try items("[{\"a\":\n1},\n{\"b\":") == [
                .record("{\"a\":\n1}", line: 1, index: 0), .broken(line: 3, index: 1)
            ])
        let message = try brokenMessages("[{\"a\":\n1},\n{\"b\":")[0]
        #expect(
            message.hasPrefix(
                "unterminated array element 1 starting at line 3: the file ends inside an object, before the top-level array is closed"
            ))
        #expect(message.contains("truncated"))
    }

    @Test func arrayNeverClosedIsBroken() throws {
        #expect(
            try items("[{\"a\":1},{\"b\":2}\n") == [
                .record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":2}", line: 1, index: 1),
                .broken(line: 2, index: nil)
            ])
        #expect(
            try brokenMessages("[{\"a\":1},{\"b\":2}\n") == [
                "the top-level array opened at line 1 is never closed: the file ends after 2 element(s); "
                    + "the archive may be truncated — check that the file was copied completely"
            ])
        #expect(
            try items("[1, 2") == [
                .record("1", line: 1, index: 0), .record("2", line: 1, index: 1), .broken(line: 1, index: nil)
            ])
        #expect(try brokenMessages("[1, 2")[0].contains("after 2 element(s)"))
        #expect(try items("[") == [.broken(line: 1, index: nil)])
    }

    @Test func truncatedLastJSONLineIsStillARecordForTheParserToReject() throws {
        #expect(
            try items("{\"a\":1}\n{\"b\":") == [
                .record("{\"a\":1}", line: 1, index: nil), .record("{\"b\":", line: 2, index: nil)
            ])
    }

    @Test func garbageBetweenArrayElementsIsSkippedToTheNextComma() throws {
        // One element per line: the line holding the junk is one element for the parser to reject.
        #expect(
            try items("[{\"a\":1} xyz \"q,]\" ,\n{\"b\":2}]") == [
                .record("{\"a\":1} xyz \"q,]\"", line: 1, index: 0), .record("{\"b\":2}", line: 2, index: 1)
            ])
        // Elements spanning lines: the junk is skipped to the next comma and reported.
        #expect(
            try items("[{\"a\":\n1} xyz \"q,]\" ,\n{\"b\":\n2}]") == [
                .record("{\"a\":\n1}", line: 1, index: 0), .broken(line: 2, index: nil),
                .record("{\"b\":\n2}", line: 3, index: 1)
            ])
        let message = try brokenMessages("[{\"a\":\n1} xyz \"q,]\" ,\n{\"b\":\n2}]")[0]
        #expect(message.hasPrefix(#"unexpected "xyz \"q,]\"" after array element 0 at line 2 (expected ',' or ']')"#))
        #expect(message.contains("skipped"))
        // A missing comma before a '{' opening a line loses nothing: the element is read.
        #expect(
            try items("[{\"a\":1}\n{\"b\":[2,3]},\n{\"c\":3}\n]") == [
                .record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":[2,3]}", line: 2, index: 1),
                .record("{\"c\":3}", line: 3, index: 2)
            ])
        // Junk ends at a '{' opening a line, which starts the next element.
        #expect(
            try items("[\n{\"a\":1} xyz [1\n{\"b\":2}\n]") == [
                .record("{\"a\":1}", line: 2, index: 0), .broken(line: 2, index: nil),
                .record("{\"b\":2}", line: 3, index: 1)
            ])
        // Junk that runs to the end of the file.
        #expect(try items("[1 xyz {") == [.record("1", line: 1, index: 0), .broken(line: 1, index: nil)])
        #expect(try brokenMessages("[1 xyz {")[0].contains("without closing the array"))
    }

    @Test func valuesAfterTheTopLevelArrayAreStillRead() throws {
        // A JSON Lines file whose first line is an array: the lines after it are read, not skipped, and the first line
        // is one item like every other line (objects outweigh the rest, so the file is JSON Lines).
        #expect(
            try items("[1]\n\n[2]\n{\"x\":1}\nhello world\n{\"y\":2}") == [
                .record("[1]", line: 1, index: nil), .record("[2]", line: 3, index: nil),
                .record("{\"x\":1}", line: 4, index: nil),
                .record("hello world", line: 5, index: nil), .record("{\"y\":2}", line: 6, index: nil)
            ])
        #expect(try items("[1]\n \n").count == 1)
    }

    // MARK: - One bad line costs one item

    /// Good one-line records `{"n":i}` for `i` in `range`.
    private func goodLines(_ range: Range<Int>) -> [String] {
        range.map { "{\"n\":\($0),\"s\":\"text with } and { inside\"}" }
    }

    @Test(arguments: ["{", "{\"n\":0,\"s\":\"cut in a str", "{\"n\":0,\"a\":[1,2", "{\"n\":0,", "  {\"n\":0}}{"])
    func aBadFirstLineCostsOneItemAndTheGoodLinesStayRecords(bad: String) throws {
        let good = goodLines(1..<6)
        let found = try items(([bad] + good).joined(separator: "\n") + "\n")
        #expect(found.count == 6, "\(found)")
        #expect(
            found.first == .broken(line: 1, index: nil)
                || found.first.map { if case .record(_, 1, nil) = $0 { return true } else { return false } } == true)
        #expect(Array(found.dropFirst()) == good.enumerated().map { .record($1, line: $0 + 2, index: nil) })
    }

    @Test func aLoneBraceBeforeManyRecordsLosesNone() throws {
        let good = goodLines(0..<39)
        // The file is JSON Lines (its lines are whole records), so the lone brace is one line for the parser to reject.
        #expect(
            try items("{\n" + good.joined(separator: "\n")) == [.record("{", line: 1, index: nil)]
                + good.enumerated().map { .record($1, line: $0 + 2, index: nil) })
        // In a pretty-printed stream, a record cut short is still one broken item and the records after it are read.
        let pretty = "{\n  \"a\": 1,\n{\n  \"b\": 2\n}\n"
        #expect(try items(pretty) == [.broken(line: 1, index: nil), .record("{\n  \"b\": 2\n}", line: 3, index: nil)])
        #expect(
            try brokenMessages(pretty) == [
                "unterminated record at line 1: a new record starts at line 3 before it is closed; the record is cut short or unbalanced (a missing or extra '{', '}' or '\"') — fix or drop that record, the records after it are read"
            ])
    }

    /// How a line counts never depends on the lines before it. An unterminated first line followed by a line
    /// holding two objects, or by a line that does not start with `{`, costs one item per line.
    @Test func damageEarlierInAJSONLinesFileNeverChangesHowALineCounts() throws {
        let good = goodLines(0..<4)
        let cases: [[String]] = [
            ["{\"notification_type\":\"DID_RENEW\"", good[0] + good[1], good[2]],
            ["{\"notification_type\":\"DID_RENEW\"", "not json at all", good[0], good[1]],
            [good[0], "{\"n\":", "\"n\": 1}", good[1], good[2]],
            [good[0], good[1], "{\"n\":"]
        ]
        for lines in cases {
            let found = try items(lines.joined(separator: "\n") + "\n")
            #expect(found.count == lines.count, "\(lines): \(found)")
            for (offset, text) in lines.enumerated() where good.contains(text) {
                #expect(found[offset] == .record(text, line: offset + 1, index: nil))
            }
        }
    }

    @Test(arguments: [1, 3, 5])
    func theSameDamageOnAMiddleOrLastLineCostsOneItem(at position: Int) throws {
        var lines = goodLines(0..<6)
        lines[position] = "{"
        let found = try items(lines.joined(separator: "\n"))
        #expect(found.count == 6)
        for (offset, text) in lines.enumerated() where offset != position {
            #expect(found[offset] == .record(text, line: offset + 1, index: nil))
        }
    }

    @Test func aJunkLineBetweenPrettyObjectsIsOneItem() throws {
        let text = "{\n  \"a\": 1\n}\nhello world, this is not JSON \r\n{\n  \"b\": {\n    \"c\": 2\n  }\n}\n"
        #expect(
            try items(text) == [
                .record("{\n  \"a\": 1\n}", line: 1, index: nil),
                .record("hello world, this is not JSON", line: 4, index: nil),
                .record("{\n  \"b\": {\n    \"c\": 2\n  }\n}", line: 5, index: nil)
            ])
    }

    @Test func prettyPrintedValuesStillSplitAsBefore() throws {
        let object = "{\n  \"a\": {\n    \"b\": [\n      {\n        \"c\": 1\n      }\n    ]\n  }\n}"
        #expect(try items(object) == [.record(object, line: 1, index: nil)])
        #expect(
            try items(object + "\n" + object) == [
                .record(object, line: 1, index: nil), .record(object, line: 10, index: nil)
            ])
        let element = "  {\n    \"a\": {\n      \"b\": 1\n    }\n  }"
        #expect(
            try items("[\n" + element + ",\n" + element + "\n]") == [
                .record(String(element.dropFirst(2)), line: 2, index: 0),
                .record(String(element.dropFirst(2)), line: 7, index: 1)
            ])
    }

    @Test func aBrokenElementInAOneElementPerLineArrayCostsOneItem() throws {
        let good = goodLines(0..<4)
        let text = "[\n" + good[0] + ",\n" + good[1] + ",\n{\"n\":9,\"s\":\"cut\n" + good[2] + ",\n" + good[3] + "\n]\n"
        // Read line by line: the broken element is its line, for the parser to reject.
        #expect(
            try items(text) == [
                .record(good[0], line: 2, index: 0), .record(good[1], line: 3, index: 1),
                .record("{\"n\":9,\"s\":\"cut", line: 4, index: 2),
                .record(good[2], line: 5, index: 3), .record(good[3], line: 6, index: 4)
            ])
    }

    // MARK: - Chunk boundaries

    @Test func largeRecordsSplitIdenticallyAtEveryChunkSize() throws {
        let filler = String(repeating: "ab{[\\\"]}\\\\", count: 300)
        let objects = (0..<12).map { "{\"n\":\($0),\"s\":\"\(filler)\",\"o\":{\"k\":[\($0),\"}\"]}}" }
        let jsonLines = objects.joined(separator: "\r\n\n") + "\n"
        #expect(
            try items(jsonLines).map { item -> String in
                if case .record(let text, _, _) = item { return text }
                return ""
            } == objects)
        let array = "[\n" + objects.joined(separator: ",\n") + "\n]"
        #expect(try items(array) == objects.enumerated().map { .record($1, line: $0 + 2, index: $0) })
        let concatenated = objects.map { $0.replacingOccurrences(of: ",\"o\"", with: ",\n\"o\"") }
        #expect(
            try items(concatenated.joined(separator: "\n"))
                == concatenated.enumerated().map {
                    .record($1, line: 2 * $0 + 1, index: nil)
                })
    }

    @Test func escapesAtEveryOffsetInsideLongStringsAreHonoured() throws {
        // Long runs of plain string bytes are skipped a word at a time; put the bytes that matter at every offset.
        let objects = (0..<17).map { offset -> String in
            let run = String(repeating: "x", count: offset)
            return "{\"s\":\"" + run + "\\\"}]" + String(repeating: "y", count: 40) + "\\\\" + run + "\",\"t\":[\""
                + run + "\"]}"
        }
        let array = "[" + objects.joined(separator: ",") + "]"
        #expect(try items(array) == objects.enumerated().map { .record($1, line: 1, index: $0) })
        let concatenated = "{\n}" + objects.joined()
        #expect(
            try items(concatenated) == [.record("{\n}", line: 1, index: nil)]
                + objects.map { .record($0, line: 2, index: nil) })
        // A raw newline inside a string still counts as a line.
        let raw = "[\"" + String(repeating: "z", count: 30) + "\n" + String(repeating: "z", count: 30) + "\", 1]"
        #expect(
            try items(raw).map { item -> Int? in
                if case .record(_, let line, _) = item { return line }
                return nil
            } == [1, 2])
    }

    // MARK: - Sources

    @Test func gzipAndMultiMemberGzipFilesAreSplit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("a.gz", Array("[{\"a\":1},\n".utf8))
        try dir.writeGzip("b.gz", Array("{\"b\":2}]\n".utf8))
        let path = try dir.write("ab.json.gz", try dir.read("a.gz") + dir.read("b.gz"))
        for size in Self.chunkSizes {
            let items = try RecordReader(file: InputFile(path: path), chunkSize: size).items()
            #expect(
                simplify(items) == [.record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":2}", line: 2, index: 1)])
        }
    }

    @Test func trailingBytesAfterAGzipStreamAreOneItemAfterTheRecords() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("a.gz", Array("{\"a\":1}\n{\"b\":2}\n".utf8))
        try dir.writeGzip("b.gz", Array("{\"c\":3}".utf8))
        let a = try dir.read("a.gz")
        let b = try dir.read("b.gz")
        let garbage = try dir.write("garbage.gz", a + b + Array("not gzip\n".utf8))
        for size in Self.chunkSizes {
            let items = try RecordReader(file: InputFile(path: garbage), chunkSize: size).items()
            try #require(items.count == 4)
            #expect(
                simplify(Array(items.prefix(3))) == [
                    .record("{\"a\":1}", line: 1, index: nil), .record("{\"b\":2}", line: 2, index: nil),
                    .record("{\"c\":3}", line: 3, index: nil)
                ])
            #expect(items[3].error?.code == .unreadableInput)
            #expect(items[3].error?.location == SourceLocation(path: garbage))
            #expect(
                items[3].error?.message.hasPrefix(
                    "9 bytes of trailing data at byte offset \(a.count + b.count) of '\(garbage)'") == true,
                "\(items[3])")
        }
        // All-zero padding after the last member is ignored, as gzip -d does.
        let padded = try dir.write("padded.gz", a + [UInt8](repeating: 0, count: 700))
        #expect(try RecordReader(file: InputFile(path: padded), chunkSize: 5).items().allSatisfy { $0.record != nil })
        #expect(try RecordReader(file: InputFile(path: padded)).items().count == 2)
        // One stray byte after the stream is trailing data too.
        let one = try dir.write("one.gz", a + [0x1f])
        #expect(
            try RecordReader(file: InputFile(path: one)).items().last?.error?.message.hasPrefix(
                "1 byte of trailing data") == true)
        // Through a pipe, as standard input.
        let pipe = try TestPipe(feeding: a + Array("xyz".utf8))
        defer { pipe.closeReadEnd() }
        let piped = try RecordReader(file: InputFile(descriptor: pipe.readEnd), chunkSize: 3).items()
        #expect(piped.count == 3)
        #expect(
            piped.last?.error?.message.hasPrefix("3 bytes of trailing data at byte offset \(a.count) of 'stdin'")
                == true)
    }

    @Test func aTruncatedLaterGzipMemberThrowsNamingItsOffsetAfterTheRecordsBeforeIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("a.gz", Array("{\"a\":1}\n".utf8))
        try dir.writeGzip("b.gz", Array("{\"b\":2}\n".utf8))
        let a = try dir.read("a.gz")
        let b = try dir.read("b.gz")
        let path = try dir.write("cut.gz", a + b.prefix(b.count - 6))
        var records: [InputItem] = []
        let error = #expect(throws: ASNError.self) {
            try RecordReader(file: InputFile(path: path), chunkSize: 4).forEach { records.append($0) }
        }
        #expect(error?.code == .unreadableInput)
        #expect(
            error?.message.hasPrefix(
                "cannot read input '\(path)': gzip member 2 starting at byte offset \(a.count) is corrupt or truncated")
                == true, "\(String(describing: error))")
        #expect(simplify(records).first == .record("{\"a\":1}", line: 1, index: nil))
    }

    @Test func pipeReadsAsStandardInput() throws {
        let pipe = try TestPipe(feeding: Array("{\"a\":1}\n\n{\"b\":2}\n".utf8))
        defer { pipe.closeReadEnd() }
        let items = try RecordReader(file: InputFile(descriptor: pipe.readEnd), chunkSize: 3).items()
        #expect(
            simplify(items) == [.record("{\"a\":1}", line: 1, index: nil), .record("{\"b\":2}", line: 3, index: nil)])
        #expect(items.allSatisfy { $0.location?.path == "stdin" })
    }

    @Test func gzipPipeReadsAsStandardInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("in.gz", Array("[1,\n2]".utf8))
        let pipe = try TestPipe(feeding: try dir.read("in.gz"))
        defer { pipe.closeReadEnd() }
        let items = try RecordReader(file: InputFile(descriptor: pipe.readEnd)).items()
        #expect(simplify(items) == [.record("1", line: 1, index: 0), .record("2", line: 2, index: 1)])
    }

    /// A member's records are data only once its checksum passes, so a corrupt member yields none, however
    /// much zlib could inflate before it noticed.
    @Test func corruptGzipThrowsWithoutAnyRecordOfTheMember() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Enough varied data that zlib has handed out records before it reaches the damage near the end.
        var state: UInt64 = 42
        let lines = (0..<100_000).map { _ -> String in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return "{\"x\":\(state >> 20)}\n"
        }
        try dir.writeGzip("good.gz", Array(lines.joined().utf8))
        var bytes = try dir.read("good.gz")
        for i in (bytes.count - 200)..<(bytes.count - 100) { bytes[i] ^= 0xA5 }
        let path = try dir.write("bad.gz", bytes)
        var count = 0
        let error = #expect(throws: ASNError.self) {
            try RecordReader(file: InputFile(path: path), chunkSize: 64).forEach { _ in count += 1 }
        }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("none of its data was used") == true)
        #expect(count == 0)
    }

    @Test func filesAreReadInOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("in/b.jsonl", "{\"b\":1}\n")
        try dir.write("in/a.json", "[{\"a\":1}]")
        let files = try InputPaths.expand([dir.path + "/in"])
        var seen: [String] = []
        try RecordReader.forEach(in: files, chunkSize: 2) { item in
            seen.append("\(item.location?.source ?? "?") \(String(decoding: item.record?.bytes ?? [], as: UTF8.self))")
        }
        #expect(seen == ["\(dir.path)/in/a.json:1 {\"a\":1}", "\(dir.path)/in/b.jsonl:1 {\"b\":1}"])
    }

    @Test func missingFileThrowsUnreadableInput() throws {
        let error = #expect(throws: ASNError.self) {
            try RecordReader(file: InputFile(path: "/nonexistent/in.jsonl")).items()
        }
        #expect(error?.code == .unreadableInput)
    }
}
