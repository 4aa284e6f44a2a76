import Foundation
import Testing

@testable import ASNMigrateKit

/// `PartitionFile`: what `partition` writes reads back as the very items, locations included, plain or gzip, however
/// the reads are cut; a file cut short loses nothing silently.
@Suite struct PartitionFileTests {
    /// Random items: records of random bytes (newlines, quotes, invalid UTF-8 alike) and broken items with every
    /// optional part present or not, at random locations.
    static func items(_ count: Int, _ random: inout SplitMix64) -> [InputItem] {
        let codes: [ASNError.Code] = [.malformedJSON, .unreadableInput, .notAnObject, .malformedJWS]
        return (0..<count).map { n in
            let line = random.next() % 3 == 0 ? nil : Int(random.next() % 100_000)
            let index = random.next() % 4 == 0 ? Int(random.next() % 50) : nil
            var location = SourceLocation(
                path: "archive/\(n % 7)/ü näme.jsonl.gz:member \(n)", line: line, index: index)
            if random.next() % 2 == 0 {
                let size = Int(random.next() % (random.next() % 8 == 0 ? 5000 : 60))
                let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return .record(RawRecord(location: location, bytes: bytes))
            }
            location.key = random.next() % 2 == 0 ? "unified_receipt.latest_receipt_info[\(n)]" : nil
            return .broken(
                ASNError(
                    codes[Int(random.next() % UInt64(codes.count))], "broken item \(n): \"quoted\"\nsecond line",
                    at: random.next() % 5 == 0 ? nil : location, cause: random.next() % 2 == 0 ? "cause \(n)" : nil,
                    group: random.next() % 2 == 0 ? "group" : nil))
        }
    }

    /// The file's bytes for `items`.
    static func bytes(_ items: [InputItem]) -> [UInt8] {
        var out = PartitionFile.magic
        for item in items { PartitionFile.append(item, to: &out) }
        return out
    }

    @Test func everyItemReadsBackWithItsLocationPlainOrGzipAtAnyChunkSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SplitMix64(seed: 21)
        for round in 0..<20 {
            let items = Self.items(Int(random.next() % 80), &random)
            let plain = try dir.write("r\(round).asnpart", Self.bytes(items))
            let gzip = dir.path + "/r\(round).asnpart.gz"
            try GzipWriter.write(Self.bytes(items), to: gzip)
            for path in [plain, gzip] {
                for chunkSize in [1, 7, 4096, 1 << 20] {
                    let read = try RecordReader(file: InputFile(path: path), chunkSize: chunkSize).items()
                    #expect(read == items, "round \(round), \(path), chunk size \(chunkSize)")
                }
            }
        }
    }

    @Test func aFileCutShortEndsWithOneBrokenItemNamingIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SplitMix64(seed: 22)
        var cutInsideAnEntry = 0
        for round in 0..<200 {
            let items = Self.items(1 + Int(random.next() % 20), &random)
            let bytes = Self.bytes(items)
            // (Cut inside the magic, the bytes are no partition file any more, and read as text.)
            let magic = PartitionFile.magic.count
            let cut = magic + Int(random.next() % UInt64(bytes.count - magic))
            let path = try dir.write("c\(round).asnpart", Array(bytes[0..<cut]))
            let read = try RecordReader(file: InputFile(path: path), chunkSize: 1 + Int(random.next() % 64)).items()
            // Whole entries before the cut read back as they were; a cut inside an entry is one
            // broken item naming the file, after them.
            if case .broken(let error)? = read.last, error.message.contains("damaged or cut short") {
                cutInsideAnEntry += 1
                #expect(error.code == .unreadableInput && error.location?.path == path)
                #expect(Array(items.prefix(read.count - 1)) == Array(read.dropLast()), "round \(round)")
            } else {
                #expect(Array(items.prefix(read.count)) == read, "round \(round): cut at an entry's end")
            }
        }
        #expect(cutInsideAnEntry > 100, "most cuts fall inside an entry (not vacuous)")
    }

    @Test func theMagicTellsAPartitionFileApart() {
        #expect(PartitionFile.magic.withUnsafeBytes { InputFormat.detect($0) } == .partition)
        #expect(Array("ASNPART".utf8).withUnsafeBytes { InputFormat.detect($0) } == .text)
    }
}
