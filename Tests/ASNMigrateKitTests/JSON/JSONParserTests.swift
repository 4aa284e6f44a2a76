import Testing

@testable import ASNMigrateKit

@Suite struct JSONParserTests {
    // MARK: - Helpers

    /// Parses `text` with the default parser.
    private func parse(_ text: String, skipping keys: Set<String> = []) throws -> JSONValue {
        try JSONParser(skippingKeys: keys).parse(Array(text.utf8))
    }

    /// The error `bytes` raise, or nil if they parse.
    private func error(_ bytes: [UInt8], skipping keys: Set<String> = []) -> ASNError? {
        do {
            _ = try JSONParser(skippingKeys: keys).parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The error `text` raises, or nil if it parses.
    private func error(_ text: String, skipping keys: Set<String> = []) -> ASNError? {
        error(Array(text.utf8), skipping: keys)
    }

    // MARK: - Literals and structure

    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("\"\"", .string("")),
        ("[]", .array([])),
        ("{}", .object(JSONObject())),
        (" \t\r\n[ 1 , \"a\" , null ]\n ", .array([.number("1"), .string("a"), .null])),
        (
            "{\"a\":{\"b\":[true,false,{}]}}",
            .object(
                JSONObject([
                    .init(
                        key: "a",
                        value: .object(
                            JSONObject([
                                .init(key: "b", value: .array([.bool(true), .bool(false), .object(JSONObject())]))
                            ])))
                ]))
        ),
        ("[[],[[]],{}]", .array([.array([]), .array([.array([])]), .object(JSONObject())])),
        (
            "{ \"k\" : \"v\" , \"n\" : -1 }",
            .object(JSONObject([.init(key: "k", value: .string("v")), .init(key: "n", value: .number("-1"))]))
        )
    ])
    func acceptsValidDocuments(text: String, expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        "", " ", "\n\t ", "nul", "nulll", "tru", "True", "NULL", "fals", "[", "]", "{", "}", "[1", "[1,", "[1,]",
        "[,1]", "[1 2]",
        "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{\"a\":1 \"b\":2}", "{a:1}", "{'a':1}", "{1:1}",
        "{\"a\":1]",
        "[1}", "1 2", "[] []", "{}x", "\u{FEFF}1", "// c\n1", "/* c */1", "[1]/", "'a'", "undefined", "[1,,2]",
        "{\"a\"::1}",
        "\"abc", "\"\\", "[\"a\",", "{\"a\":1,\"b\"", "\u{00A0}1"
    ])
    func rejectsMalformedStructure(text: String) {
        let failure = error(text)
        #expect(failure?.code == .malformedJSON)
    }

    @Test func rejectsNonWhitespaceControlBytesOutsideStrings() {
        for byte in [UInt8](0x00...0x1F) where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            #expect(error([UInt8(ascii: "["), byte, UInt8(ascii: "1"), UInt8(ascii: "]")]) != nil, "byte \(byte)")
        }
    }

    // MARK: - Numbers

    @Test(arguments: [
        "0", "-0", "1", "-1", "10", "1.5", "0.5", "-0.0", "1e5", "1E5", "1e+5", "1e-5", "1.5e10", "0e0", "0E-0",
        "-9.87E+21",
        "1000000000000000123", "18446744073709551616", "123456789012345678901234567890.123456789e-123456789",
        "1e400", "-1e400", "1e-400", "4.9e-324", "9007199254740993"
    ])
    func keepsNumberLiteralsExactly(literal: String) throws {
        #expect(try parse(literal) == .number(literal))
        #expect(try parse("[\(literal)]") == .array([.number(literal)]))
        #expect(try parse(" \(literal)\n") == .number(literal))
    }

    @Test func keepsFourHundredDigitIntegerExactly() throws {
        let digits = "7" + String(repeating: "1234567890", count: 40).dropFirst()
        #expect(digits.count == 400)
        #expect(try parse("{\"id\":\(digits)}") == .object(JSONObject([.init(key: "id", value: .number(digits))])))
    }

    @Test(arguments: [
        "01", "-01", "00", "+1", ".5", "-.5", "1.", "1.e5", "1e", "1e+", "1E-", "-", "--1", "0x10", "1.5.5", "Infinity",
        "-Infinity", "NaN", "1_000", "1e5.5", "1ee5", "- 1", "[01]", "[1.]", "{\"a\":-}", "2.e3", "1e+-5"
    ])
    func rejectsNumbersOutsideTheGrammar(literal: String) {
        #expect(error(literal)?.code == .malformedJSON)
    }

    // MARK: - Strings

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u00E9""#, "Aéé"),
        (#""\u0000x""#, "\u{0}x"),
        (#""\u001f\u007F""#, "\u{1F}\u{7F}"),
        (#""\u2028\uFFFF""#, "\u{2028}\u{FFFF}"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\ud834\udd1e clef""#, "𝄞 clef"),
        (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        (#""a\nb é 😀 \"q\"""#, "a\nb é 😀 \"q\""),
        (#""http:\/\/example.com\/x""#, "http://example.com/x"),
        ("\"raw é 中文 😀 \u{10FFFF} \u{80} \u{7FF} \u{800}\"", "raw é 中文 😀 \u{10FFFF} \u{80} \u{7FF} \u{800}")
    ])
    func unescapesStrings(json: String, expected: String) throws {
        #expect(try parse(json) == .string(expected))
    }

    @Test(arguments: [
        #""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""\ ""#, #""\u""#, #""\u004""#
    ])
    func rejectsInvalidEscapes(json: String) {
        #expect(error(json)?.code == .malformedJSON)
    }

    @Test(arguments: [
        (#""\uD800""#, "unpaired high surrogate"),
        (#""\uD800x""#, "unpaired high surrogate"),
        (#""\uD800\u0041""#, "unpaired high surrogate"),
        (#""\uDBFF\uD800""#, "unpaired high surrogate"),
        (#""\uD800\n""#, "unpaired high surrogate"),
        (#""\uDC00""#, "unpaired low surrogate"),
        (#""a\uDFFFb""#, "unpaired low surrogate"),
        (#""\uDE00\uD83D""#, "unpaired low surrogate")
    ])
    func rejectsLoneSurrogates(json: String, reason: String) {
        let message = error(json)?.message ?? ""
        #expect(message.contains(reason), "\(message)")
    }

    @Test(arguments: [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F] as [UInt8])
    func rejectsRawControlCharactersInStrings(byte: UInt8) {
        let failure = error([0x22, 0x61, byte, 0x62, 0x22])
        #expect(failure?.message.contains("raw control character") == true)
    }

    @Test(
        arguments: [
            [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80],
            [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0xE2, 0x82, 0x41], [0xC3], [0xC3, 0x41], [0xF0, 0x9F, 0x98], [0xF8, 0x88, 0x80, 0x80, 0x80]
        ] as [[UInt8]])
    func rejectsInvalidUTF8(sequence: [UInt8]) {
        let failure = error([0x22] + sequence + [0x22])
        #expect(failure?.message.contains("UTF-8") == true, "\(failure?.message ?? "accepted")")
        // The same bytes in a long string, past the eight-byte fast path, are rejected too.
        #expect(
            error([0x22] + Array("abcdefghijklmnop".utf8) + sequence + Array("abcdefghijklmnop".utf8) + [0x22]) != nil)
    }

    /// Every special byte at every offset around the eight-byte scanning window is found.
    @Test(arguments: 0..<20)
    func findsSpecialBytesAtEveryOffset(offset: Int) throws {
        let prefix = String(repeating: "a", count: offset)
        #expect(try parse("\"\(prefix)\"") == .string(prefix))
        #expect(try parse("\"\(prefix)\\n\(prefix)\"") == .string(prefix + "\n" + prefix))
        #expect(try parse("\"\(prefix)é\(prefix)\"") == .string(prefix + "é" + prefix))
        #expect(try parse("[\"\(prefix)\",\"x\"]") == .array([.string(prefix), .string("x")]))
        #expect(error([0x22] + Array(prefix.utf8) + [0x01] + Array(prefix.utf8) + [0x22]) != nil)
        #expect(error([0x22] + Array(prefix.utf8)) != nil)
    }

    // MARK: - Objects

    @Test func keepsDuplicateKeysAndLooksUpTheLast() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object["a"] == .number("3"))
        #expect(object.members.count == 3)
    }

    @Test func unescapesKeys() throws {
        let object = try #require(try parse(#"{"a\u0062\n":true}"#).objectValue)
        #expect(object.keys == ["ab\n"])
    }

    /// Long keys are shared between objects; keys with equal length, head and tail must still stay distinct.
    @Test func keepsLongKeysDistinct() throws {
        let keys = [
            "original_transaction_id", "original_transaction_ix", "original_XXXXXXction_id", "original_transaction_id_",
            "purchase_date_pst"
        ]
        let object = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        let value = try parse("[" + Array(repeating: object, count: 3).joined(separator: ",") + "]")
        let objects = try #require(value.arrayValue)
        #expect(objects.count == 3)
        for element in objects {
            #expect(element.objectValue?.keys == keys)
            #expect(element.objectValue?["original_transaction_ix"] == .number("1"))
        }
    }

    /// Arrays and objects nested inside each other keep their own contents.
    @Test func keepsNestedContainersApart() throws {
        let value = try parse(#"[1,{"a":[2,{"b":3},4],"c":5},[6,[7]],8]"#)
        let expected = JSONValue.array([
            .number("1"),
            .object(
                JSONObject([
                    .init(
                        key: "a",
                        value: .array([
                            .number("2"), .object(JSONObject([.init(key: "b", value: .number("3"))])), .number("4")
                        ])),
                    .init(key: "c", value: .number("5"))
                ])),
            .array([.number("6"), .array([.number("7")])]),
            .number("8")
        ])
        #expect(value == expected)
    }

    // MARK: - Skipping keys

    @Test func skipsKeysAtEveryDepth() throws {
        let json = #"""
            {"latest_receipt":"QUJD","password":"x","unified_receipt":{"latest_receipt":"REVG","latest_receipt_info":[{"a":"1","latest_receipt":{"deep":[1,2,{"x":null}]}}],"status":0}}
            """#
        let value = try parse(json, skipping: ["latest_receipt", "password"])
        let expected = try parse(#"{"unified_receipt":{"latest_receipt_info":[{"a":"1"}],"status":0}}"#)
        #expect(value == expected)
    }

    @Test func skipsKeysWrittenWithEscapes() throws {
        let value = try parse(#"{"latest\u005freceipt":"QUJD","b":1}"#, skipping: ["latest_receipt"])
        #expect(value == .object(JSONObject([.init(key: "b", value: .number("1"))])))
    }

    @Test func keepsKeysThatOnlyResembleSkippedOnes() throws {
        let value = try parse(
            #"{"latest_receipt_info":[],"latest_receip":1,"Latest_receipt":2}"#, skipping: ["latest_receipt"])
        #expect(value.objectValue?.keys == ["latest_receipt_info", "latest_receip", "Latest_receipt"])
    }

    @Test func skippingAllMembersLeavesAnEmptyObject() throws {
        #expect(try parse(#"{"password":"p","password":"q"}"#, skipping: ["password"]) == .object(JSONObject()))
    }

    /// A skipped value is not built but is still validated.
    @Test(arguments: [
        #"{"latest_receipt":"a\x"}"#, #"{"latest_receipt":"\uD800"}"#, #"{"latest_receipt":01}"#,
        #"{"latest_receipt":[1,]}"#,
        #"{"latest_receipt":{"a" 1}}"#, #"{"latest_receipt":tru}"#, #"{"latest_receipt":"abc"#,
        #"{"x":{"latest_receipt":[}}"#,
        #"{"latest_receipt":}"#, #"{"latest_receipt":"a"  "b":1}"#
    ])
    func stillValidatesSkippedValues(json: String) {
        #expect(error(json, skipping: ["latest_receipt"])?.code == .malformedJSON)
    }

    @Test func stillValidatesUTF8InSkippedValues() {
        let json = Array(#"{"latest_receipt":"ab"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        #expect(error(json, skipping: ["latest_receipt"])?.message.contains("UTF-8") == true)
    }

    // MARK: - Depth

    @Test(arguments: [1, 100, 511, 512])
    func acceptsNestingUpToTheLimit(depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try parse(arrays).arrayValue != nil)
        let objects = String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(try parse(objects).objectValue != nil)
    }

    @Test(arguments: [513, 1000, 100_000])
    func rejectsDeeperNestingCleanly(depth: Int) {
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: depth)
        #expect(error(arrays)?.message.contains("nesting deeper than 512") == true)
        let objects = Array(String(repeating: "{\"a\":", count: depth).utf8)
        #expect(error(objects)?.message.contains("nesting deeper than 512") == true)
        let skipped = Array(("{\"latest_receipt\":" + String(repeating: "[", count: depth)).utf8)
        #expect(error(skipped, skipping: ["latest_receipt"])?.message.contains("nesting deeper than 512") == true)
    }

    // MARK: - Errors

    @Test(arguments: [
        (
            #"{"a":1 "b":2}"#,
            #"malformed JSON at byte 7 (line 1, column 8): unexpected '"', expected ',' or '}' after object member"#
        ),
        (
            "{\n  \"a\": 1,\n  \"b\": tx\n}",
            "malformed JSON at byte 20 (line 3, column 9): unexpected 'x' in literal, expected 'true'"
        ),
        (
            "[1,2",
            "malformed JSON at byte 4 (line 1, column 5): unexpected end of input, expected ',' or ']' after array element"
        ),
        ("", "malformed JSON at byte 0 (line 1, column 1): empty input, expected a JSON value"),
        (
            "[1]\n\n  x",
            "malformed JSON at byte 7 (line 3, column 3): unexpected 'x' after the JSON value; only whitespace may follow it"
        ),
        ("[01]", "malformed JSON at byte 2 (line 1, column 3): leading zeros are not allowed in numbers"),
        (#"{"a":"\q"}"#, #"malformed JSON at byte 6 (line 1, column 7): invalid escape '\q' in string"#),
        (
            "[1,]",
            "malformed JSON at byte 3 (line 1, column 4): unexpected ']' after ','; trailing commas are not allowed"
        )
    ])
    func errorsSayWhatAndWhere(json: String, message: String) {
        let failure = error(json)
        #expect(failure?.code == .malformedJSON)
        #expect(failure?.message == message)
    }

    // MARK: - Entry points

    @Test func everyEntryPointAgrees() throws {
        let text = #" {"a":[1,"é"]} "#
        let bytes = Array(text.utf8)
        let parser = JSONParser()
        let expected = JSONValue.object(JSONObject([.init(key: "a", value: .array([.number("1"), .string("é")]))]))
        #expect(try parser.parse(bytes) == expected)
        #expect(try parser.parse(text) == expected)
        #expect(try bytes.withUnsafeBytes { buffer in try parser.parse(buffer) } == expected)
        let framed = Array("xx".utf8) + bytes + Array("yy".utf8)
        #expect(try parser.parse(framed[2..<(framed.count - 2)]) == expected)
        try parser.validate(bytes)
    }

    @Test func sliceErrorsCountFromTheSliceStart() {
        let framed = Array("xxxx[1 2]".utf8)
        do {
            _ = try JSONParser().parse(framed[4...])
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("malformed JSON at byte 3 (line 1, column 4)"))
        }
    }

    @Test(arguments: ["[1,]", "{\"a\":01}", "\"\\uD800\"", ""])
    func validateRejectsWhatParseRejects(json: String) {
        #expect(throws: ASNError.self) { try JSONParser().validate(Array(json.utf8)) }
    }
}
