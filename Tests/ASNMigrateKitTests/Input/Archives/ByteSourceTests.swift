import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct ByteSourceTests {
    /// Everything `source` yields, read `chunkSize` bytes at a time.
    private func drain(_ source: any ByteSource, chunkSize: Int = 5) throws -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var out: [UInt8] = []
        while true {
            let n = try source.readChunk(into: buffer)
            if n == 0 { break }
            #expect(n <= chunkSize)
            out += buffer[0..<n]
        }
        source.close()
        return out
    }

    /// Some bytes that are not all text.
    private let payload: [UInt8] = Array("{\"a\":1}\n{\"b\":[2,3]}\n".utf8) + [0, 0xFF, 0x1F, 0x8B, 10]

    @Test func plainFileIsReadInChunks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("plain.jsonl", payload)
        let source = try InputFile(path: path).openByteSource()
        #expect(!(source is GzipByteSource) && !(source is ZstdByteSource), "plain bytes are read as they are")
        #expect(try drain(source) == payload)
        #expect(try drain(try InputFile(path: path).openByteSource(), chunkSize: 1) == payload)
    }

    @Test func gzipIsDetectedByMagicBytesNotByName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let noSuffix = try dir.writeGzip("archive.jsonl", payload)
        let source = try InputFile(path: noSuffix).openByteSource()
        #expect(source is GzipByteSource)
        #expect(try drain(source) == payload)
        let fakeGz = try dir.write("plain.gz", payload)
        let plain = try InputFile(path: fakeGz).openByteSource()
        #expect(!(plain is GzipByteSource) && !(plain is ZstdByteSource), "plain bytes are read as they are")
        #expect(try drain(plain) == payload)
    }

    @Test func multiMemberGzipIsReadFully() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("one.gz", Array("first\n".utf8))
        try dir.writeGzip("two.gz", Array("second\n".utf8))
        let both = try dir.write("both.gz", try dir.read("one.gz") + dir.read("two.gz"))
        #expect(try drain(try InputFile(path: both).openByteSource()) == Array("first\nsecond\n".utf8))
    }

    @Test func corruptGzipNamesTheFileAndZlibsMessage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("good.gz", Array(repeating: Array("{\"x\":\"abcdefgh\"}\n".utf8), count: 200).flatMap { $0 })
        var bytes = try dir.read("good.gz")
        for i in 20..<min(60, bytes.count - 8) { bytes[i] ^= 0x5A }
        let path = try dir.write("bad.gz", bytes)
        let error = #expect(throws: ASNError.self) { try drain(try InputFile(path: path).openByteSource()) }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message.contains("'\(path)'") == true)
        #expect(error?.message.contains("corrupt or truncated") == true)
        #expect(error?.cause?.hasPrefix("zlib: ") == true)
        #expect(error?.cause?.contains("<fd:") == false)
        #expect(error?.location?.path == path)
    }

    @Test func truncatedGzipIsAnError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("good.gz", Array(repeating: Array("{\"x\":1}\n".utf8), count: 1000).flatMap { $0 })
        let bytes = try dir.read("good.gz")
        let path = try dir.write("cut.gz", Array(bytes.prefix(bytes.count / 2)))
        let error = #expect(throws: ASNError.self) { try drain(try InputFile(path: path).openByteSource()) }
        #expect(error?.code == .unreadableInput)
        #expect(error?.cause == "zlib: unexpected end of file")
        #expect(error?.message.contains("'\(path)'") == true)
    }

    @Test func pipeIsReadPlainOrGzip() throws {
        let plainPipe = try TestPipe(feeding: payload)
        defer { plainPipe.closeReadEnd() }
        #expect(try drain(try InputFile(descriptor: plainPipe.readEnd).openByteSource()) == payload)

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.writeGzip("p.gz", payload)
        let gzipPipe = try TestPipe(feeding: try dir.read("p.gz"))
        defer { gzipPipe.closeReadEnd() }
        #expect(try drain(try InputFile(descriptor: gzipPipe.readEnd).openByteSource()) == payload)
    }

    @Test func sourceDoesNotCloseADescriptorItWasGiven() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.write("f", payload)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        _ = try drain(try InputFile(descriptor: fd, name: "given").openByteSource())
        #expect(fcntl(fd, F_GETFD) != -1)
    }

    /// A member's bytes are held until its checksum passes; beyond the memory limit they wait in a temporary
    /// file in TMPDIR, and come back identical, member after member.
    @Test func heldMemberBytesSpillToATemporaryFileAndComeBackIdentical() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var state: UInt64 = 7
        let big = (0..<20_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        try dir.writeGzip("one.gz", big)
        try dir.writeGzip("two.gz", Array(big.reversed()))
        let path = try dir.write("both.gz", try dir.read("one.gz") + dir.read("two.gz"))
        let fd = open(path, O_RDONLY)
        let source = try GzipByteSource(descriptor: fd, owned: true, name: path, holdLimit: 1_000)
        #expect(try drain(source, chunkSize: 777) == big + big.reversed())
        // Damage in the second member: only the first member's bytes come out.
        var bytes = try dir.read("both.gz")
        bytes[bytes.count - 6] ^= 0x10
        let damaged = try dir.write("damaged.gz", bytes)
        let second = try GzipByteSource(
            descriptor: open(damaged, O_RDONLY), owned: true, name: damaged, holdLimit: 1_000)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 1)
        defer { buffer.deallocate() }
        var out: [UInt8] = []
        let error = #expect(throws: ASNError.self) {
            while true {
                let n = try second.readChunk(into: buffer)
                if n == 0 { break }
                out += buffer[0..<n]
            }
        }
        #expect(out == big)
        #expect(error?.message.contains("gzip member 2") == true)
        #expect(error?.message.contains("none of its data was used (") == true)
    }

    @Test func missingFileIsUnreadableInput() throws {
        let error = #expect(throws: ASNError.self) { try InputFile(path: "/nonexistent/x.jsonl").openByteSource() }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message == "cannot read input '/nonexistent/x.jsonl': no such file or directory; check the path")
    }
}
