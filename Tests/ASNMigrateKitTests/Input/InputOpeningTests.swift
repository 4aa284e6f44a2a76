import Foundation
import Testing

@testable import ASNMigrateKit

/// `InputOpening`: a look at an input's first bytes and the reading after it share one descriptor, the bytes looked
/// at come first, and a sweep over more files than `InputOpening.heldLimit` holds neither their descriptors nor
/// their bytes.
@Suite struct InputOpeningTests {
    /// How many descriptors this process has open.
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    @Test func theBytesLookedAtAreReadFirstThenTheRestOfTheSameDescriptor() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let file = InputFile(path: try tmp.write("a.bin", bytes))
        #expect(try file.firstBytes(10) == Array(bytes[0..<10]))
        #expect(try file.firstBytes(70_000) == Array(bytes[0..<70_000]))
        let source = try file.openRawSource()
        defer { source.close() }
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.readChunk(into: $0) }
            if n == 0 { break }
            read += buffer[0..<n]
        }
        #expect(read == bytes)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd"))
    func aSweepOverManyFilesHoldsAtMostTheLimitAndEveryFileReadsWhole() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let count = InputOpening.heldLimit + 200
        let files = try (0..<count).map { n in
            InputFile(path: try tmp.write("f\(n).jsonl", "{\"n\":\(n)}\n{\"m\":\(n)}\n"))
        }
        let before = Self.openDescriptors()
        for file in files { #expect(try file.firstBytes(4) == Array("{\"n\"".utf8)) }
        // Other suites open and close files meanwhile, so only the order of magnitude is checked.
        #expect(Self.openDescriptors() - before <= InputOpening.heldLimit + 32)
        for (n, file) in files.enumerated() {
            let records = try RecordReader(file: file).items().compactMap(\.record)
            #expect(records.map { String(decoding: $0.bytes, as: UTF8.self) } == ["{\"n\":\(n)}", "{\"m\":\(n)}"])
        }
    }
}
