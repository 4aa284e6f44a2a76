import Testing

@testable import ASNMigrateKit

/// `FileShape`: how a file's first lines decide how it is split.
@Suite struct FileShapeTests {
    private func shape(_ text: String) -> FileShape { FileShape.of(Array(text.utf8)) }

    /// Found by the fuzz target at 1,000,000 records (seed 19, file 26,044): a JSON Lines file whose first record lost
    /// its braces to brackets (`["k":1,…]`, a whole array on its own line) was read as a top-level array, so that line
    /// gave one item per key and every later line with two objects two items.
    @Test func aFirstLineThatIsAWholeArrayAmongLinesOfObjectsIsJSONLines() {
        let lines = (0..<6).map { "{\"notification_type\":\"DID_RENEW\",\"n\":\($0)}" }
        #expect(
            shape("[\"notification_type\":\"DID_RENEW\",\"a\":1,\"b\":2]\n" + lines.joined(separator: "\n") + "\n")
                == .jsonLines)
        // A real top-level array on one line stays an array, and so does a pretty one.
        #expect(shape("[{\"a\":1},{\"b\":2}]\n") == .array)
        #expect(shape("[{\"a\":1},{\"b\":2}]") == .array)
        #expect(shape("[\n  {\n    \"a\": 1\n  }\n]\n") == .array)
    }

    @Test func theDamagedFirstLineCostsOneRejectAndEveryOtherLineIsOneRecord() throws {
        let good = (0..<6).map { "{\"notification_type\":\"DID_RENEW\",\"n\":\($0)}" }
        let text = "[\"notification_type\":\"DID_RENEW\",\"a\":1,\"b\":2]\n" + good.joined(separator: "\n") + "\n"
        var splitter = RecordSplitter(path: "damaged.jsonl")
        var items: [InputItem] = []
        try Array(text.utf8).withUnsafeBufferPointer { chunk in try splitter.feed(chunk) { items.append($0) } }
        try splitter.finish { items.append($0) }
        #expect(items.count == 7, "one item per non-blank line: \(items.count)")
    }

    /// `closesBefore` passes over a string's bytes a word at a time: it must decide as the byte-at-a-time reading of
    /// brackets, strings and escapes does, on random mixes of those bytes (escapes and quotes at every position).
    @Test func closesBeforeDecidesAsTheByteLoopDoes() {
        let alphabet: [UInt8] = Array("{}[]\"\\\\aaaaaaaa,:".utf8)
        var state: UInt64 = 31
        var closing = 0
        for _ in 0..<4_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bytes: [UInt8] = [0x7B]
            for _ in 0..<Int(state >> 58) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            bytes.append(0x7D)
            let expected = Self.referenceClosesAtEnd(bytes)
            if expected { closing += 1 }
            #expect(FileShape.closesBefore(bytes, from: 0, to: bytes.count) == expected, "\(bytes)")
        }
        #expect(closing > 100, "the mix must give values that close too: \(closing)")
    }

    /// The byte loop `closesBefore` replaced: whether the value opening at `bytes[0]` closes at the last byte.
    private static func referenceClosesAtEnd(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for (i, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth <= 0 { return depth == 0 && i == bytes.count - 1 }
            default: break
            }
        }
        return false
    }
}
