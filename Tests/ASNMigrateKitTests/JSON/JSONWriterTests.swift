import Testing

@testable import ASNMigrateKit

@Suite struct JSONWriterTests {
    // MARK: - Helpers

    /// Parses `text`, failing the test on error.
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser().parse(text)
    }

    // MARK: - Compact form

    @Test(arguments: [
        (
            " { \"b\" : [ 1 , 2.50 , -0 ] ,\n \"a\" : { } , \"c\" : [ ] , \"d\" : null , \"e\" : true , \"f\" : false } ",
            #"{"b":[1,2.50,-0],"a":{},"c":[],"d":null,"e":true,"f":false}"#
        ),
        (#"{"a":1,"a":2}"#, #"{"a":1,"a":2}"#),
        (#"1000000000000000123"#, #"1000000000000000123"#),
        (#"1E+400"#, #"1E+400"#),
        (#""http:\/\/x\/y""#, #""http://x/y""#),
        (#""\u00e9\uD83D\uDE00""#, "\"é😀\""),
        (#""""#, #""""#)
    ])
    func writesCompactDocumentOrder(input: String, expected: String) throws {
        #expect(JSONWriter.string(try parse(input)) == expected)
    }

    @Test func escapesMinimally() {
        var scalars = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        scalars += ["\"", "\\", "/", "é", "\u{7F}", "\u{2028}", "😀"]
        let text = String(scalars)
        let expected =
            #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f\"\\/é"#
            + "\u{7F}\u{2028}😀\""
        var out: [UInt8] = []
        JSONWriter.appendString(text, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }

    @Test func appendStringAppendsAfterExistingBytes() {
        var out = Array("{\"k\":".utf8)
        JSONWriter.appendString("a\"b", to: &out)
        out.append(UInt8(ascii: "}"))
        #expect(String(decoding: out, as: UTF8.self) == #"{"k":"a\"b"}"#)
    }

    // MARK: - Round trip

    @Test(arguments: [
        #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"original_transaction_id":"1000000123456789","web_order_line_item_id":1000000055555555555}],"status":0}}"#,
        "[\"tab\\there\",\"nl\\n\",\"ctl\\u0001\",\"q\\\"\",\"bs\\\\\",\"é😀\",-1.5e-7,0,[[[]]],{}]",
        #"{"":"","a":{"":{"":[]}}}"#,
        #""\uDBFF\uDFFF\u0000""#
    ])
    func roundTripsThroughTheParser(json: String) throws {
        let value = try parse(json)
        let written = JSONWriter.bytes(value)
        #expect(try JSONParser().parse(written) == value)
        #expect(JSONWriter.bytes(try JSONParser().parse(written)) == written)
    }

    @Test func roundTripsGeneratedValues() throws {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<200 {
            let value = JSONSamples.value(using: &random, depth: 4)
            let written = JSONWriter.bytes(value)
            #expect(try JSONParser().parse(written) == value)
        }
    }

    // MARK: - Canonical form

    @Test func canonicalIgnoresKeyOrderAndWhitespace() throws {
        let one = try parse(#"{"b":1,"a":{"y":[{"q":1,"p":2}],"x":"s"}}"#)
        let two = try parse(" {\n \"a\" : { \"x\" : \"s\" , \"y\" : [ { \"p\" : 2 , \"q\" : 1 } ] } ,\t\"b\" : 1 } ")
        #expect(JSONWriter.canonical(one) == JSONWriter.canonical(two))
        #expect(
            String(decoding: JSONWriter.canonical(one), as: UTF8.self) == #"{"a":{"x":"s","y":[{"p":2,"q":1}]},"b":1}"#)
    }

    @Test func canonicalKeepsArrayOrder() throws {
        #expect(JSONWriter.canonical(try parse("[2,1]")) != JSONWriter.canonical(try parse("[1,2]")))
    }

    @Test func canonicalCollapsesDuplicatesToTheLast() throws {
        let value = try parse(#"{"b":1,"a":2,"b":3}"#)
        #expect(String(decoding: JSONWriter.canonical(value), as: UTF8.self) == #"{"a":2,"b":3}"#)
    }

    @Test func canonicalSortsByUTF8Bytes() throws {
        // By UTF-8 bytes: "B" (0x42) < "a" (0x61) < "é" (0xC3 0xA9) < "😀" (0xF0 …); "e\u{301}" and "é" stay distinct.
        let value = try parse(#"{"😀":1,"é":2,"a":3,"B":4,"e\u0301":5,"":6}"#)
        #expect(
            String(decoding: JSONWriter.canonical(value), as: UTF8.self)
                == "{\"\":6,\"B\":4,\"a\":3,\"e\u{301}\":5,\"é\":2,\"😀\":1}")
    }

    @Test func canonicalKeepsNumberTextAsWritten() throws {
        #expect(JSONWriter.canonical(try parse("1.0")) != JSONWriter.canonical(try parse("1")))
    }

    @Test func outputIsDeterministic() {
        var random = SplitMix64(seed: 42)
        let value = JSONSamples.value(using: &random, depth: 5)
        #expect(JSONWriter.bytes(value) == JSONWriter.bytes(value))
        #expect(JSONWriter.canonical(value) == JSONWriter.canonical(value))
        var again = SplitMix64(seed: 42)
        #expect(JSONWriter.canonical(JSONSamples.value(using: &again, depth: 5)) == JSONWriter.canonical(value))
    }
}
