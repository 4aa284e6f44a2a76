#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file and whole-directory writes that readers never see half done, even after a crash.
///
/// Everything is written into a hidden sibling (`.NAME.tmp-<pid>-<random>`) on the same file system, synced, then
/// moved into place with rename(2). Leftover hidden siblings of dead processes are removed on the next write.
public enum AtomicOutput {
    // MARK: - Files

    /// Replaces (or creates) the file at `path` with `bytes` atomically, creating missing parent directories.
    public static func writeFileAtomically(path: String, bytes: [UInt8]) throws(ASNError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    // MARK: - Directories

    /// Replaces (or creates) the directory at `path` so it holds exactly `files`, atomically.
    public static func writeDirectoryAtomically(path: String, files: [(name: String, bytes: [UInt8])]) throws(ASNError) {
        try writeDirectoryAtomically(path: path) { (staging: StagingDirectory) throws(ASNError) in
            for file in files { try staging.write(name: file.name, bytes: file.bytes) }
        }
    }

    /// Replaces (or creates) the directory at `path` with what `fill` writes into a fresh staging directory.
    ///
    /// If `fill` throws, or any step fails, the staging directory is removed, `path` is left as it was, and the
    /// error is thrown (`.outputFailed` naming the path and the errno text for file system failures). An existing
    /// destination is renamed aside, the new one renamed in, then the old one deleted; a crash between the two renames
    /// leaves no destination but both complete copies as hidden siblings — never a half-written one. A symbolic link
    /// at `path` is followed: the directory it points to is replaced.
    public static func writeDirectoryAtomically(path: String, _ fill: (StagingDirectory) throws(ASNError) -> Void) throws(ASNError) {
        let destination = try resolvedDestination(path)
        let parent = FileSystem.parentDirectory(of: destination)
        try FileSystem.createDirectories(parent)
        if let type = FileSystem.fileType(destination), type != S_IFDIR {
            throw ASNError(.outputFailed, "'\(path)' exists and is not a directory; remove it or choose another output directory")
        }
        FileSystem.removeStaleSiblings(of: destination, tag: "tmp")
        let staging = FileSystem.hiddenSibling(of: destination, tag: "tmp")
        guard mkdir(staging, 0o777) == 0 else { throw FileSystem.failure("create a temporary directory for", destination, errno) }
        do throws(ASNError) {
            try fill(StagingDirectory(path: staging))
            FileSystem.syncDirectory(staging)
            try swapIntoPlace(staging, destination)
            FileSystem.removeStaleSiblings(of: destination, tag: "old")
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
        FileSystem.syncDirectory(parent)
    }

    // MARK: - Internals

    /// `path` itself, or the target when it is a symbolic link.
    private static func resolvedDestination(_ path: String) throws(ASNError) -> String {
        let trimmed = FileSystem.trimmingTrailingSlashes(path)
        guard !trimmed.isEmpty else { throw ASNError(.outputFailed, "empty output path; give a directory name") }
        guard FileSystem.fileType(trimmed) == S_IFLNK else { return trimmed }
        guard let resolved = realpath(trimmed, nil) else { throw FileSystem.failure("follow the symbolic link", trimmed, errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Moves `staging` to `destination`, setting an existing destination aside first and deleting it afterwards.
    private static func swapIntoPlace(_ staging: String, _ destination: String) throws(ASNError) {
        guard FileSystem.fileType(destination) != nil else {
            guard rename(staging, destination) == 0 else { throw FileSystem.failure("move the new directory to", destination, errno) }
            return
        }
        let aside = FileSystem.hiddenSibling(of: destination, tag: "old")
        guard rename(destination, aside) == 0 else { throw FileSystem.failure("move aside the existing", destination, errno) }
        guard rename(staging, destination) == 0 else {
            let code = errno
            _ = rename(aside, destination)
            throw FileSystem.failure("move the new directory to", destination, code)
        }
        FileSystem.removeTree(aside)
    }
}
