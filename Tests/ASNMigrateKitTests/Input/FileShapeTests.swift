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
}
