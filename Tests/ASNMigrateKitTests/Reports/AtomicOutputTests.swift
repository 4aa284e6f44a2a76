import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct AtomicOutputTests {
    // MARK: - Helpers

    /// A fresh scratch directory, removed by the caller's `defer`.
    private func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "/asn-atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    private struct InjectedFailure: Error {}

    // MARK: - Files

    @Test func writesNewFileAndCreatesParents() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try AtomicOutput.writeFileAtomically(path: root + "/a/b/report.csv", bytes: Array("x,y\n".utf8))
        #expect(contents(root + "/a/b/report.csv") == "x,y\n")
        #expect(entries(root + "/a/b") == ["report.csv"])
    }

    @Test func replacesExistingFile() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/out.txt"
        try AtomicOutput.writeFileAtomically(path: path, bytes: Array("old".utf8))
        try AtomicOutput.writeFileAtomically(path: path, bytes: Array("new".utf8))
        #expect(contents(path) == "new")
        #expect(entries(root) == ["out.txt"])
    }

    @Test func failedRenameRemovesTempAndNamesPath() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/taken", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: root + "/taken/inside", withIntermediateDirectories: false)
        do {
            try AtomicOutput.writeFileAtomically(path: root + "/taken", bytes: [1, 2, 3])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputFailed)
            #expect(error.message.contains(root + "/taken"))
            #expect(error.cause?.isEmpty == false)
        }
        #expect(entries(root) == ["taken"])
        #expect(entries(root + "/taken") == ["inside"])
    }

    @Test func parentThatIsAFileIsReported() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try AtomicOutput.writeFileAtomically(path: root + "/plain", bytes: [])
        #expect(throws: ASNError.self) { try AtomicOutput.writeFileAtomically(path: root + "/plain/child", bytes: [1]) }
        #expect(entries(root) == ["plain"])
    }

    // MARK: - Streaming file

    @Test func streamingFileAppearsOnlyOnCommit() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/big.jsonl"
        let file = try AtomicFile(path: path, blockSize: 8)
        for index in 0..<100 { try file.write("{\"n\":\(index)}\n") }
        #expect(contents(path) == nil)
        #expect(entries(root).count == 1 && entries(root)[0].hasPrefix(".big.jsonl.tmp-\(getpid())-"))
        try file.commit()
        #expect(file.isCommitted)
        #expect(contents(path)?.split(separator: "\n").count == 100)
        #expect(entries(root) == ["big.jsonl"])
        #expect(throws: ASNError.self) { try file.write("late") }
    }

    @Test func abortLeavesExistingFileAlone() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/keep.txt"
        try AtomicOutput.writeFileAtomically(path: path, bytes: Array("keep".utf8))
        let file = try AtomicFile(path: path)
        try file.write("partial")
        file.abort()
        file.abort()
        #expect(contents(path) == "keep")
        #expect(entries(root) == ["keep.txt"])
    }

    @Test func droppingUncommittedFileRemovesTemp() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            let file = try AtomicFile(path: root + "/dropped.txt")
            try file.write("x")
        }
        #expect(entries(root).isEmpty)
    }

    @Test func injectedWriteFailureRefusesCommitAndLeavesNothing() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/full.jsonl"
        try AtomicOutput.writeFileAtomically(path: path, bytes: Array("previous".utf8))
        let file = try AtomicFile(path: path, blockSize: 4)
        file.writeFunction = { _, _ in (-1, ENOSPC) }
        do {
            try file.write("more than four bytes")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputFailed)
            #expect(error.message.contains(file.temporaryPath))
            #expect(error.cause == String(cString: strerror(ENOSPC)))
        }
        #expect(throws: ASNError.self) { try file.commit() }
        file.abort()
        #expect(contents(path) == "previous")
        #expect(entries(root) == ["full.jsonl"])
    }

    @Test func shortWritesAndEINTRAreRetried() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/slow.txt"
        let file = try AtomicFile(path: path, blockSize: 1)
        let calls = Counter()
        file.writeFunction = { descriptor, buffer in
            calls.value += 1
            if calls.value % 3 == 0 { return (-1, EINTR) }
            return (write(descriptor, buffer.baseAddress, min(2, buffer.count)), 0)
        }
        try file.write("abcdefghij")
        try file.commit()
        #expect(contents(path) == "abcdefghij")
        #expect(calls.value > 5)
    }

    // MARK: - Directories

    @Test func writesNewDirectory() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/nested/out"
        try AtomicOutput.writeDirectoryAtomically(
            path: out, files: [("a.csv", Array("a\n".utf8)), ("b.csv", Array("b\n".utf8))])
        #expect(entries(out) == ["a.csv", "b.csv"])
        #expect(contents(out + "/b.csv") == "b\n")
        #expect(entries(root + "/nested") == ["out"])
    }

    @Test func replacesExistingDirectoryWhole() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out/"
        try AtomicOutput.writeDirectoryAtomically(
            path: out, files: [("old.csv", [1]), ("shared.csv", Array("old".utf8))])
        try AtomicOutput.writeDirectoryAtomically(path: out) { (staging: StagingDirectory) throws(ASNError) in
            try staging.write(name: "shared.csv", bytes: Array("new".utf8))
            let stream = try staging.openFile(name: "big.jsonl", blockSize: 2)
            try stream.write("{}\n{}\n")
            try stream.commit()
        }
        #expect(entries(root + "/out") == ["big.jsonl", "shared.csv"])
        #expect(contents(root + "/out/shared.csv") == "new")
        #expect(entries(root) == ["out"])
    }

    /// Counts calls of the swap function; tests only, used from one thread at a time.
    private final class SwapCalls: @unchecked Sendable {
        var pairs: [(String, String)] = []
    }

    @Test func anExistingFolderIsSwappedInOneStep() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out"
        try AtomicOutput.writeDirectoryAtomically(path: out, files: [("old.csv", [1])])
        let calls = SwapCalls()
        try AtomicOutput.writeDirectoryAtomically(
            path: out,
            exchange: { first, second in
                calls.pairs.append((first, second))
                // While the swap runs, the destination still exists: it is never absent.
                #expect(FileManager.default.fileExists(atPath: second))
                return AtomicOutput.systemExchange(first, second)
            }
        ) { (staging: StagingDirectory) throws(ASNError) in try staging.write(name: "new.csv", bytes: [2]) }
        #expect(calls.pairs.count == 1)
        #expect(calls.pairs.first?.1 == out)
        #expect(entries(out) == ["new.csv"])
        #expect(entries(root) == ["out"], "the old folder, swapped to the staging name, is removed")
    }

    @Test(arguments: [ENOSYS, EINVAL])
    func withoutTheSwapCallTwoRenamesAreUsed(errorNumber: Int32) throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out"
        try AtomicOutput.writeDirectoryAtomically(path: out, files: [("old.csv", [1])])
        try AtomicOutput.writeDirectoryAtomically(path: out, exchange: { _, _ in errorNumber }) {
            (staging: StagingDirectory) throws(ASNError) in
            try staging.write(name: "new.csv", bytes: [2])
        }
        #expect(entries(out) == ["new.csv"])
        #expect(entries(root) == ["out"])
    }

    @Test func aFailedSwapKeepsTheOldFolderAndNamesThePath() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out"
        try AtomicOutput.writeDirectoryAtomically(path: out, files: [("old.csv", [1])])
        do {
            try AtomicOutput.writeDirectoryAtomically(path: out, exchange: { _, _ in EACCES }) {
                (staging: StagingDirectory) throws(ASNError) in
                try staging.write(name: "new.csv", bytes: [2])
            }
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputFailed && error.message.contains(out))
            #expect(error.cause == FileSystem.errnoText(EACCES))
        }
        #expect(entries(out) == ["old.csv"])
        #expect(entries(root) == ["out"])
    }

    @Test func failingFillRemovesStagingAndKeepsOldDirectory() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out"
        try AtomicOutput.writeDirectoryAtomically(path: out, files: [("keep.csv", Array("keep".utf8))])
        do {
            try AtomicOutput.writeDirectoryAtomically(path: out) { (staging: StagingDirectory) throws(ASNError) in
                try staging.write(name: "half.csv", bytes: [1])
                throw ASNError(.malformedJSON, "injected")
            }
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "injected")
        }
        #expect(entries(root) == ["out"])
        #expect(entries(out) == ["keep.csv"])
        #expect(contents(out + "/keep.csv") == "keep")
    }

    static let badNames = ["", ".", "..", "a/b", "x\0y"]

    @Test(arguments: badNames)
    func badFileNameFailsWithoutLeftovers(name: String) throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: ASNError.self) {
            try AtomicOutput.writeDirectoryAtomically(path: root + "/out", files: [("fine.csv", [1]), (name, [2])])
        }
        #expect(entries(root).isEmpty)
    }

    @Test func destinationThatIsAFileIsRefused() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try AtomicOutput.writeFileAtomically(path: root + "/out", bytes: Array("file".utf8))
        do {
            try AtomicOutput.writeDirectoryAtomically(path: root + "/out", files: [("a", [1])])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .outputFailed)
            #expect(error.message.contains("is a regular file, not a directory"))
        }
        #expect(contents(root + "/out") == "file")
        #expect(entries(root) == ["out"])
    }

    @Test func symlinkedDestinationReplacesTarget() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try AtomicOutput.writeDirectoryAtomically(path: root + "/real", files: [("old", [1])])
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        try AtomicOutput.writeDirectoryAtomically(path: root + "/link", files: [("old", [2]), ("new", [3])])
        #expect(entries(root) == ["link", "real"])
        #expect(entries(root + "/link") == ["new", "old"])
        try AtomicOutput.writeDirectoryAtomically(path: root + "/link", files: [("old", [4]), ("new", [5])])
        #expect(entries(root + "/real") == ["new", "old"])
    }

    @Test func aFolderHoldingEntriesTheWriterDidNotPutThereIsNeverReplaced() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/home/docs", withIntermediateDirectories: true)
        try "mine".write(toFile: root + "/home/docs/thesis.txt", atomically: false, encoding: .utf8)
        try "report".write(toFile: root + "/home/a.csv", atomically: false, encoding: .utf8)
        do {
            try AtomicOutput.writeDirectoryAtomically(path: root + "/home", files: [("a.csv", [1])])
            Issue.record("a folder holding 'docs' was replaced")
        } catch {
            #expect(error.code == .outputFailed)
            #expect(error.message.contains("holds 'docs' that asn-migrate did not write there"), "\(error.message)")
        }
        #expect(entries(root + "/home") == ["a.csv", "docs"])
        #expect(contents(root + "/home/docs/thesis.txt") == "mine")
        #expect(entries(root) == ["home"], "no staging folder is left")
        // An empty folder, or one holding only the writer's own names, is replaced.
        try FileManager.default.removeItem(atPath: root + "/home/docs")
        try AtomicOutput.writeDirectoryAtomically(path: root + "/home", files: [("a.csv", [1]), ("b.csv", [2])])
        #expect(entries(root + "/home") == ["a.csv", "b.csv"])
    }

    @Test func staleLeftoversOfDeadProcessesAreRemoved() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let deadPID = Int32.max - 7 // above pid_max, so never a live process
        for leftover in [".out.tmp-\(deadPID)-abc", ".out.old-\(deadPID)-def"] {
            try FileManager.default.createDirectory(atPath: root + "/" + leftover, withIntermediateDirectories: false)
        }
        let liveSibling = ".out.tmp-\(getppid())-123"
        try FileManager.default.createDirectory(atPath: root + "/" + liveSibling, withIntermediateDirectories: false)
        try AtomicOutput.writeDirectoryAtomically(path: root + "/out", files: [("a", [1])])
        #expect(entries(root) == [liveSibling, "out"])
    }

    // MARK: - Paths

    static let pathCases: [(String, String, String)] = [
        ("out", ".", "out"),
        ("a/out/", "a", "out"),
        ("/out", "/", "out"),
        ("/x/y/z", "/x/y", "z")
    ]

    @Test(arguments: pathCases)
    func splitsPaths(path: String, parent: String, last: String) {
        #expect(FileSystem.parentDirectory(of: path) == parent)
        #expect(FileSystem.lastComponent(of: path) == last)
    }

    @Test func hiddenSiblingStaysInSameDirectory() {
        let sibling = FileSystem.hiddenSibling(of: "/data/reports/out", tag: "tmp")
        #expect(sibling.hasPrefix("/data/reports/.out.tmp-\(getpid())-"))
        #expect(FileSystem.hiddenSibling(of: "out", tag: "tmp").hasPrefix(".out.tmp-"))
    }
}

/// A mutable counter shared with a write hook.
private final class Counter: @unchecked Sendable {
    var value = 0
}
