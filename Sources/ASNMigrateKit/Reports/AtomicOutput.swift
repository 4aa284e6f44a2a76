import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file and whole-directory writes that readers never see half done, even after a crash.
///
/// Everything is written into a hidden sibling (`.NAME.tmp-<pid>-<random>`) on the same file system, synced, then
/// moved into place with rename(2). Leftover hidden siblings of dead processes are removed on the next write.
package enum AtomicOutput {
    // MARK: - Files

    /// Replaces (or creates) the file at `path` with `bytes` atomically, creating missing parent directories.
    package static func writeFileAtomically(path: String, bytes: [UInt8]) throws(ASNError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    // MARK: - Directories

    /// Replaces (or creates) the directory at `path` so it holds exactly `files`, atomically. An existing directory is
    /// replaced only when it is empty or holds nothing but entries with these names (an earlier run's output).
    package static func writeDirectoryAtomically(path: String, files: [(name: String, bytes: [UInt8])]) throws(ASNError)
    {
        try writeDirectoryAtomically(path: path, replacing: Set(files.map(\.name))) {
            (staging: StagingDirectory) throws(ASNError) in
            for file in files { try staging.write(name: file.name, bytes: file.bytes) }
        }
    }

    /// `writeDirectoryAtomically(path:_:)` that replaces an existing directory only when every entry in it has one of
    /// `names` (what this writer puts there), so a folder given by mistake (a home folder, `.`) is never deleted: a
    /// foreign entry is an `.outputFailed` error naming it, thrown before anything is written.
    package static func writeDirectoryAtomically(
        path: String, replacing names: Set<String>,
        _ fill: (StagingDirectory) throws(ASNError) -> Void
    ) throws(ASNError) {
        try writeDirectoryAtomically(path: path, exchange: systemExchange, replacing: names, fill)
    }

    /// Replaces (or creates) the directory at `path` with what `fill` writes into a fresh staging directory.
    ///
    /// If `fill` throws, or any step fails, the staging directory is removed, `path` is left as it was, and the
    /// error is thrown (`.outputFailed` naming the path and the errno text for file system failures). An existing
    /// destination is swapped with the new one in one step (Linux `renameat2(RENAME_EXCHANGE)`), so the path is never
    /// absent, then the old one deleted. Where that call is unavailable (ENOSYS, or EINVAL from a file system without it)
    /// the old one is renamed aside and the new one renamed in; a crash between those two renames leaves no destination
    /// but both complete copies as hidden siblings — never a half-written one. A symbolic link at `path` (a chain of
    /// them) is followed: the directory it points to is replaced and the link kept. Something at `path` that is not a
    /// directory is an error, never replaced.
    package static func writeDirectoryAtomically(path: String, _ fill: (StagingDirectory) throws(ASNError) -> Void)
        throws(ASNError)
    {
        try writeDirectoryAtomically(path: path, exchange: systemExchange, fill)
    }

    /// `writeDirectoryAtomically(path:_:)` with the swap call given, so tests can make it fail or be unavailable.
    static func writeDirectoryAtomically(
        path: String, exchange: ExchangeFunction, replacing names: Set<String>? = nil,
        _ fill: (StagingDirectory) throws(ASNError) -> Void
    ) throws(ASNError) {
        let destination = try OutputTarget.resolveDirectory(path)
        if let names { try checkOnlyOwnEntries(in: destination, names: names, given: path) }
        let parent = FileSystem.parentDirectory(of: destination)
        try FileSystem.createDirectories(parent)
        FileSystem.removeStaleSiblings(of: destination, tag: "tmp")
        let staging = FileSystem.hiddenSibling(of: destination, tag: "tmp")
        guard mkdir(staging, 0o777) == 0 else {
            throw FileSystem.failure("create a temporary directory for", destination, errno)
        }
        do throws(ASNError) {
            try fill(StagingDirectory(path: staging))
            FileSystem.syncDirectory(staging)
            try swapIntoPlace(staging, destination, exchange: exchange)
            FileSystem.removeStaleSiblings(of: destination, tag: "old")
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
        FileSystem.syncDirectory(parent)
    }

    // MARK: - Internals

    /// Throws `.outputFailed` when the existing directory `destination` holds an entry whose name is not in `names`.
    private static func checkOnlyOwnEntries(in destination: String, names: Set<String>, given path: String)
        throws(ASNError)
    {
        guard FileSystem.fileType(destination) == S_IFDIR,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: destination)
        else { return }
        // A lock file nobody holds is a leftover of a run that died (or of an older version that put one here): it
        // goes with the old folder, never blocking every later run.
        let foreign = entries.filter { entry in
            !names.contains(entry) && !(RunLock.isLockName(entry) && !RunLock.isHeld(destination + "/" + entry))
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard let first = foreign.first else { return }
        let more = foreign.count > 1 ? " and \(foreign.count - 1) other entr\(foreign.count == 2 ? "y" : "ies")" : ""
        throw ASNError(
            .outputFailed,
            "output folder '\(path)' holds '\(first)'\(more) that asn-migrate did not write there; the folder's content "
                + "is replaced whole, so asn-migrate only replaces an empty folder or its own earlier output, never "
                + "deleting what it did not create: choose a new or empty folder, or move those entries away",
            at: SourceLocation(path: path))
    }

    /// Moves `staging` to `destination`, setting an existing destination aside first and deleting it afterwards.
    private static func swapIntoPlace(_ staging: String, _ destination: String, exchange: ExchangeFunction)
        throws(ASNError)
    {
        guard FileSystem.fileType(destination) != nil else {
            guard rename(staging, destination) == 0 else {
                throw FileSystem.failure("move the new directory to", destination, errno)
            }
            return
        }
        switch exchange(staging, destination) {
        case 0:
            // `staging` now names the old directory.
            FileSystem.removeTree(staging)
            return
        case ENOSYS, EINVAL:
            break
        case let code:
            throw FileSystem.failure("swap the new directory into", destination, code)
        }
        let aside = FileSystem.hiddenSibling(of: destination, tag: "old")
        guard rename(destination, aside) == 0 else {
            throw FileSystem.failure("move aside the existing", destination, errno)
        }
        guard rename(staging, destination) == 0 else {
            let code = errno
            _ = rename(aside, destination)
            throw FileSystem.failure("move the new directory to", destination, code)
        }
        FileSystem.removeTree(aside)
    }

    /// The `renameat2(2)` signature; Glibc's Swift module does not export it, so it is looked up at run time.
    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// `renameat2`, when the C library has it.
    private static let renameAt2: RenameAt2? = {
        #if os(Linux)
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
            return nil
        #endif
    }()

    /// `RENAME_EXCHANGE` from <linux/fs.h>.
    private static let renameExchange: UInt32 = 1 << 1

    /// Swaps two existing paths atomically: 0 on success, else the errno (ENOSYS when the call is unavailable).
    typealias ExchangeFunction = @Sendable (String, String) -> Int32

    /// The real swap: `renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)`.
    static let systemExchange: ExchangeFunction = { first, second in
        guard let renameAt2 else { return ENOSYS }
        return renameAt2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 ? 0 : errno
    }
}
