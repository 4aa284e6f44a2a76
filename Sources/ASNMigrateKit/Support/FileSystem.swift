import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin POSIX helpers behind the atomic writers: paths, temp names, full writes, syncing and removal.
package enum FileSystem {
    /// A write(2)-like call: bytes written and, when that is negative, the errno.
    typealias WriteFunction = @Sendable (Int32, UnsafeRawBufferPointer) -> (written: Int, errorNumber: Int32)

    /// The real write(2).
    static let systemWrite: WriteFunction = { descriptor, buffer in
        let written = write(descriptor, buffer.baseAddress, buffer.count)
        return (written, written < 0 ? errno : 0)
    }

    // MARK: - Paths

    /// The path without trailing slashes (but `/` stays `/`).
    package static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// The directory holding `path`: `.` for a bare name.
    package static func parentDirectory(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// The last path component.
    static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `parent/.NAME.<tag>-<pid>-<random>`: a hidden sibling of `path` on the same file system, so rename(2) can move it into place.
    static func hiddenSibling(of path: String, tag: String) -> String {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let name = ".\(lastComponent(of: path)).\(tag)-\(getpid())-\(random)"
        return parentDirectory(of: path) == "." && !path.hasPrefix("./") ? name : parentDirectory(of: path) + "/" + name
    }

    /// The errno's text, such as `No such file or directory`.
    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// An `.outputFailed` error naming the path and the errno's text.
    static func failure(_ action: String, _ path: String, _ code: Int32) -> ASNError {
        ASNError(
            .outputFailed,
            "cannot \(action) '\(ConsoleText.path(path))'; check that the directory exists, is writable and has free space",
            cause: errnoText(code))
    }

    // MARK: - Operations

    /// Creates `path` and any missing parents (mode 0777 less the umask).
    package static func createDirectories(_ path: String) throws(ASNError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ASNError(
                    .outputFailed,
                    "'\(ConsoleText.path(path))' exists and is not a directory; remove it or choose another output path"
                )
            }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectories(parent) }
        if mkdir(path, 0o777) != 0, errno != EEXIST { throw failure("create directory", path, errno) }
    }

    /// Writes every byte, retrying short writes and EINTR.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String, using writeFunction: WriteFunction)
        throws(ASNError)
    {
        var failure: ASNError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let (written, code) = writeFunction(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if written < 0 {
                    if code == EINTR { continue }
                    failure = FileSystem.failure("write", path, code)
                    return
                }
                offset += written
            }
        }
        if let failure { throw failure }
    }

    /// fsync(2) of a directory so a rename in it survives a power cut; best effort (some file systems refuse).
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// Removes a file or a whole directory tree; best effort, for cleaning up after a failure.
    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// What is at `path` without following a final symlink: nil when nothing.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Removes hidden `.NAME.<tag>-<pid>-*` siblings of `path` whose process no longer runs: leftovers of a crash.
    static func removeStaleSiblings(of path: String, tag: String) {
        let parent = parentDirectory(of: path)
        let prefix = ".\(lastComponent(of: path)).\(tag)-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let pidText = entry.dropFirst(prefix.count).prefix(while: { $0 != "-" })
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            removeTree(parent + "/" + entry)
        }
    }
}
