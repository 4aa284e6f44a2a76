import Foundation

@testable import ASNMigrateKit

/// A fresh directory under `TemporaryDirectory.defaultParent`, removed by `remove()`.
struct TemporaryDirectory {
    /// The directory's path, without a trailing slash.
    let path: String

    /// Where a test's directory goes by default: `/dev/shm` (memory) when it is writable and has 2 GiB free, so the
    /// tool's file syncs (atomic reports, SQLite commits) cost no disk waits while the test holds a thread of the
    /// runner; else the system temporary directory (a container's small default `/dev/shm` included).
    static let defaultParent: URL = {
        var stats = statvfs()
        guard access("/dev/shm", W_OK) == 0, statvfs("/dev/shm", &stats) == 0,
            UInt64(stats.f_bavail) * UInt64(stats.f_frsize) >= 2 << 30
        else { return FileManager.default.temporaryDirectory }
        return URL(fileURLWithPath: "/dev/shm")
    }()

    /// Creates a new, empty directory named with a UUID, under `parent` when given, else under `defaultParent`.
    init(under parent: String? = nil) throws {
        let base = parent.map { URL(fileURLWithPath: $0) } ?? Self.defaultParent
        let url = base.appendingPathComponent("asn-migrate-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `bytes` to `name` (which may contain subdirectories, created as needed) and returns the full path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let full = path + "/" + name
        let parent = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Writes the UTF-8 bytes of `text` to `name` and returns the full path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Writes `bytes` gzip-compressed to `name` with `GzipWriter` and returns the full path.
    @discardableResult
    func writeGzip(_ name: String, _ bytes: [UInt8]) throws -> String {
        let full = path + "/" + name
        try GzipWriter.write(bytes, to: full)
        return full
    }

    /// Creates the directory `name` (and its parents) and returns the full path.
    @discardableResult
    func makeDirectory(_ name: String) throws -> String {
        let full = path + "/" + name
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// The bytes of the file at `name`.
    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }
}
