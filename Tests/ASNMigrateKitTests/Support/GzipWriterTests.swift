import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct GzipWriterTests {
    @Test func writtenFileIsGzipAndRoundTrips() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/out.jsonl.gz"
        let writer = try GzipWriter(path: path)
        try writer.write("{\"a\":1}\n")
        try writer.write([0x7B, 0x7D, 0x0A])
        try writer.close()
        try writer.close()
        let bytes = try dir.read("out.jsonl.gz")
        #expect(Array(bytes.prefix(2)) == [0x1F, 0x8B])
        let items = try RecordReader(file: InputFile(path: path)).items()
        #expect(items.compactMap { $0.record.map { String(decoding: $0.bytes, as: UTF8.self) } } == ["{\"a\":1}", "{}"])
    }

    @Test func largeInputCompresses() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/big.gz"
        let line = Array("{\"notification_type\":\"DID_RENEW\"}\n".utf8)
        try GzipWriter.write(Array(repeating: line, count: 20_000).flatMap { $0 }, to: path, level: 9)
        let size = try dir.read("big.gz").count
        #expect(size > 0 && size < line.count * 20_000 / 50)
        #expect(try RecordReader(file: InputFile(path: path)).items().count == 20_000)
    }

    @Test func writingAfterCloseIsOutputFailed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try GzipWriter(path: dir.path + "/x.gz")
        try writer.close()
        let error = #expect(throws: ASNError.self) { try writer.write("late") }
        #expect(error?.code == .outputFailed)
    }

    @Test func missingDirectoryIsOutputFailedNamingThePath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/x.gz"
        let error = #expect(throws: ASNError.self) { try GzipWriter(path: path) }
        #expect(error?.code == .outputFailed)
        #expect(error?.message.contains("'\(path)'") == true)
        #expect(error?.location?.path == path)
    }
}
