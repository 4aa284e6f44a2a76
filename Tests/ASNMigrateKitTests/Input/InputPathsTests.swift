import Foundation
import Testing

@testable import ASNMigrateKit

@Suite struct InputPathsTests {
    @Test func fileIsTakenAsGivenAndArgumentOrderKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let b = try dir.write("b.jsonl", "{}")
        let a = try dir.write("a.jsonl", "{}")
        let files = try InputPaths.expand([b, "-", a])
        #expect(files.map(\.path) == [b, "stdin", a])
        #expect(files[1] == InputFile(path: "-"))
        #expect(files[1].descriptor == 0)
        #expect(files[0].descriptor == nil)
    }

    @Test func directoryIsWalkedRecursivelySortedBytewiseSkippingDotNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("root/b.json", "{}")
        try dir.write("root/B.json", "{}")
        try dir.write("root/a/z.json", "{}")
        try dir.write("root/a.json", "{}")
        try dir.write("root/a/b/c.json.gz", "{}")
        try dir.write("root/.hidden.json", "{}")
        try dir.write("root/.git/config", "{}")
        try dir.write("root/a/.DS_Store", "x")
        try dir.makeDirectory("root/empty")
        let root = dir.path + "/root"
        let files = try InputPaths.expand([root])
        // Byte order: "B" (0x42) < "a" (0x61), and "a.json" ('.' 0x2E) < "a/..." ('/' 0x2F); a locale sort would differ.
        #expect(
            files.map(\.path) == [
                root + "/B.json", root + "/a.json", root + "/a/b/c.json.gz", root + "/a/z.json", root + "/b.json"
            ])
        #expect(try InputPaths.expand([root + "/"]).map(\.path) == files.map(\.path))
    }

    @Test func emptyDirectoryYieldsNoFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let empty = try dir.makeDirectory("empty/nested")
        #expect(try InputPaths.expand([empty]).isEmpty)
        #expect(try InputPaths.expand([dir.path]).isEmpty)
    }

    @Test func missingPathSaysWhyAndWhatToDo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let missing = dir.path + "/nope.jsonl"
        let error = #expect(throws: ASNError.self) { try InputPaths.expand([missing]) }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message == "cannot read input '\(missing)': no such file or directory; check the path")
        #expect(error?.location?.path == missing)
    }

    @Test(.enabled(if: getuid() != 0, "root can read any file"))
    func unreadableFileIsReported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let locked = try dir.write("locked.jsonl", "{}")
        chmod(locked, 0)
        let error = #expect(throws: ASNError.self) { try InputPaths.expand([locked]) }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message == "cannot read input '\(locked)': permission denied; check its permissions")
    }

    @Test func standardInputMayAppearOnlyOnce() throws {
        #expect(try InputPaths.expand(["-"]) == [InputFile(path: "-")])
        let error = #expect(throws: ASNError.self) { try InputPaths.expand(["-", "-"]) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("more than once") == true)
    }

    // MARK: - Entries that are not regular files

    @Test func danglingLinksAndLoopsInsideADirectoryAreListedToBeRejectedWhenRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = try dir.write("in/a.jsonl", "{}")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/in/b-dangling.jsonl", withDestinationPath: dir.path + "/gone.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/in/c-loop", withDestinationPath: dir.path + "/in/c-loop")
        let selection = try InputPaths.select([dir.path + "/in"])
        #expect(selection.files.map(\.path) == [good, dir.path + "/in/b-dangling.jsonl", dir.path + "/in/c-loop"])
        #expect(selection.skipped.isEmpty)
        let dangling = #expect(throws: ASNError.self) { _ = try RecordReader(file: selection.files[1]).items() }
        #expect(dangling?.code == .unreadableInput)
        #expect(dangling?.message.contains("dangling") == true, "\(String(describing: dangling))")
        let loop = #expect(throws: ASNError.self) { _ = try RecordReader(file: selection.files[2]).items() }
        #expect(loop?.code == .unreadableInput)
        #expect(loop?.message.contains("symbolic link loop") == true, "\(String(describing: loop))")
    }

    @Test func aFIFOInsideADirectoryIsSkippedAndListedButNamedExplicitlyIsKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = try dir.write("in/a.jsonl", "{}")
        let fifo = dir.path + "/in/pipe.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        let selection = try InputPaths.select([dir.path + "/in"])
        #expect(selection.files.map(\.path) == [good])
        #expect(selection.skipped == [InputSelection.Skipped(path: fifo, kind: "FIFO")])
        #expect(selection.skippedSummary == "skipped (not a regular file) 1")
        #expect(selection.skipped[0].warning.contains("'\(fifo)': a FIFO, not a regular file"))
        #expect(try InputPaths.select([fifo]).files.map(\.path) == [fifo])
        #expect(try InputPaths.select([fifo]).skipped.isEmpty)
    }
}
