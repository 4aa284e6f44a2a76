import Foundation
import Testing

@testable import ASNMigrateKit

/// How output paths are classified before anything is written, and how an `OutputFile` writes each kind.
@Suite struct OutputTargetTests {
    @Test func regularMissingAndStandardOutput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = try tmp.write("a.jsonl", "x")
        #expect(try OutputTarget.resolve(file) == .file(path: file))
        #expect(try OutputTarget.resolve(tmp.path + "/new/b.jsonl") == .file(path: tmp.path + "/new/b.jsonl"))
        #expect(try OutputTarget.resolve("-") == .standardOutput)
        #expect(OutputTarget.standardOutput.lockPath == nil)
        #expect(OutputTarget.file(path: file).lockPath == tmp.path + "/.a.jsonl.lock")
    }

    @Test func fifosAreStreamsWithoutALock() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let fifo = tmp.path + "/fifo"
        #expect(mkfifo(fifo, 0o666) == 0)
        let target = try OutputTarget.resolve(fifo)
        #expect(target == .stream(path: fifo))
        #expect(target.lockPath == nil)
    }

    @Test func relativeSymlinkChainsResolveToTheirEnd() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.makeDirectory("d")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/d/inner", withDestinationPath: "../target.csv")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/outer", withDestinationPath: "d/inner")
        #expect(try OutputTarget.resolve(tmp.path + "/outer") == .file(path: tmp.path + "/d/../target.csv"))
    }

    @Test func symlinkLoopsAndDirectoriesAreRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/b", withDestinationPath: "a")
        #expect(throws: ASNError.self) { try OutputTarget.resolve(tmp.path + "/a") }
        let directory = try tmp.makeDirectory("dir")
        do {
            _ = try OutputTarget.resolve(directory)
            Issue.record("a directory is not an output file")
        } catch {
            #expect(error.code == .outputFailed && error.message.contains("is a directory"))
        }
    }

    @Test func socketsAreNeverReplaced() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        do {
            _ = try OutputTarget.resolve(path)
            Issue.record("a socket is not an output file")
        } catch {
            #expect(error.message.contains("is a socket"))
        }
    }

    @Test func reportFoldersRefuseFilesAndStandardOutput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = try tmp.write("r", "x")
        #expect(throws: ASNError.self) { try OutputTarget.resolveDirectory(file) }
        #expect(throws: ASNError.self) { try OutputTarget.resolveDirectory("-") }
        try tmp.makeDirectory("real")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/link", withDestinationPath: "real")
        #expect(try OutputTarget.resolveDirectory(tmp.path + "/link/") == tmp.path + "/real")
        #expect(try OutputTarget.resolveDirectory(tmp.path + "/missing") == tmp.path + "/missing")
    }

    @Test func anOutputFileCountsWhatReachesAStream() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let fifo = tmp.path + "/fifo"
        #expect(mkfifo(fifo, 0o666) == 0)
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let file = try OutputFile(path: fifo)
        #expect(file.isDirect)
        try file.write(Array("hello\n".utf8))
        #expect(file.bytesWritten == 6)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, 16) } == 6)
        close(readEnd)
        // No reader any more: EPIPE (SIGPIPE is ignored by the executable; here it is ignored for the test process).
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        do {
            try file.write(Array("more".utf8))
            Issue.record("writing to a FIFO without a reader fails")
        } catch {
            #expect(error.message.contains("after 6 byte(s); the output there is incomplete"), "\(error.message)")
        }
        #expect(file.fate == "'\(fifo)' got 6 byte(s) and is incomplete")
    }

    @Test func anAtomicOutputFileSaysItWasLeftAsItWas() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("out.jsonl", "old")
        let file = try OutputFile(path: path)
        #expect(!file.isDirect)
        try file.write(Array("new".utf8))
        #expect(file.fate == "'\(path)' was not written (left as it was)")
        file.abort()
        #expect(try tmp.read("out.jsonl") == Array("old".utf8))
        let second = try OutputFile(path: path)
        try second.write(Array("new".utf8))
        try second.commit()
        #expect(second.fate == "'\(path)' was written in full")
        #expect(try tmp.read("out.jsonl") == Array("new".utf8))
    }

    @Test func writeWholeReplacesTheFileAtTheEndOfALink() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try tmp.write("metrics.prom", "old")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/current", withDestinationPath: "metrics.prom")
        try OutputFile.writeWhole(Array("new\n".utf8), to: tmp.path + "/current")
        #expect(try tmp.read("metrics.prom") == Array("new\n".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: tmp.path + "/current")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == ["current", "metrics.prom"])
    }
}
