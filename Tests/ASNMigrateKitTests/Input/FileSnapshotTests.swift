import Foundation
import Testing

@testable import ASNMigrateKit

/// `FileSnapshot`: a file opened once, whose reading gives exactly the bytes taken when it was opened, whatever is
/// appended, rewritten or renamed over its path afterwards.
@Suite struct FileSnapshotTests {
    /// The records a reader reads from `file`, as text.
    static func records(_ file: InputFile) throws -> [String] {
        try RecordReader(file: file).items().compactMap(\.record).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// JSON Lines of `count` records numbered from `first`, of random lengths.
    static func lines(_ count: Int, from first: Int, using random: inout SplitMix64) -> [String] {
        (first..<(first + count)).map { n in
            "{\"n\":\(n),\"pad\":\"\(String(repeating: "x", count: Int.random(in: 0...300, using: &random)))\"}"
        }
    }

    @Test func readingGivesTheBytesTakenWhateverHappensToThePathAfterwards() throws {
        var random = SplitMix64(seed: 41)
        for round in 0..<40 {
            let tmp = try TemporaryDirectory()
            defer { tmp.remove() }
            let before = Self.lines(Int.random(in: 0...400, using: &random), from: 0, using: &random)
            let path = try tmp.write("a.jsonl", before.map { $0 + "\n" }.joined())
            let snapshot = try FileSnapshot(path: path)
            #expect(snapshot.size == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
            let after = Self.lines(Int.random(in: 1...50, using: &random), from: 10_000, using: &random)
            switch round % 3 {
            case 0: // lines appended after the snapshot
                let handle = try #require(FileHandle(forWritingAtPath: path))
                handle.seekToEndOfFile()
                handle.write(Data(after.map { $0 + "\n" }.joined().utf8))
                try handle.close()
            case 1: // a new file renamed over the path
                let other = try tmp.write("b.jsonl", after.map { $0 + "\n" }.joined())
                #expect(rename(other, path) == 0)
            default: // a look at the first bytes before the reading, then more lines
                let file = snapshot.input(reading: InputReading())
                let head = try file.firstBytes(16)
                #expect(head == Array(before.map { $0 + "\n" }.joined().utf8.prefix(16)))
                let handle = try #require(FileHandle(forWritingAtPath: path))
                handle.seekToEndOfFile()
                handle.write(Data(after.map { $0 + "\n" }.joined().utf8))
                try handle.close()
                #expect(try Self.records(file) == before)
                continue
            }
            #expect(try Self.records(snapshot.input(reading: InputReading())) == before, "round \(round)")
            // Read twice, the same bytes again.
            #expect(try Self.records(snapshot.input(reading: InputReading())) == before, "round \(round)")
        }
    }

    @Test func aWriteShowsAsAChangeAndOnlyARewriteLosesTheBytesTaken() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let text = "{\"a\":1}\n{\"b\":2}\n"
        let path = try tmp.write("a.jsonl", text)
        let snapshot = try FileSnapshot(path: path)
        let sha1 = snapshot.data.withUnsafeBytes { SHA1.hex(SHA1.digest($0)) }
        #expect(!snapshot.changedSinceTaken())
        #expect(snapshot.stillHolds(length: snapshot.size, sha1: sha1))
        #expect(!snapshot.stillHolds(length: snapshot.size, sha1: String(repeating: "0", count: 40)))

        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"c\":3}\n".utf8))
        #expect(snapshot.changedSinceTaken())
        #expect(snapshot.stillHolds(length: snapshot.size, sha1: sha1))

        handle.seek(toFileOffset: 3)
        handle.write(Data("9".utf8))
        try handle.close()
        #expect(!snapshot.stillHolds(length: snapshot.size, sha1: sha1))

        try FileHandle(forWritingAtPath: path)?.truncate(atOffset: 4)
        #expect(!snapshot.stillHolds(length: snapshot.size, sha1: sha1))
    }

    @Test func anEmptyFileIsASnapshotOfNothing() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let snapshot = try FileSnapshot(path: try tmp.write("empty.jsonl", ""))
        #expect(snapshot.size == 0 && snapshot.data.isEmpty)
        #expect(try Self.records(snapshot.input(reading: InputReading())).isEmpty)
    }

    @Test func aMissingFileIsUnreadableNamingIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/missing.jsonl"
        let error = try #require(throws: ASNError.self) { try FileSnapshot(path: path) }
        #expect(error.code == .unreadableInput)
        #expect(error.message.contains("missing.jsonl"))
    }
}
