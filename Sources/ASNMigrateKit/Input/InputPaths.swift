import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands command-line input arguments (files, directories, `-`) into the ordered list of files to read.
package enum InputPaths {
    // MARK: - Expanding

    /// Expands `arguments` in order: a file is taken as is (a FIFO or device named explicitly, such as bash's
    /// `<(zcat x.gz)`, is read as a stream), a directory is walked recursively (names starting with `.` skipped, links to
    /// directories followed once, the whole tree sorted byte-wise by full path), and `-` means standard input (allowed once). Inside a directory, an
    /// entry that cannot be examined or read (a dangling symbolic link, a link loop, no permission) is still listed,
    /// so that reading it gives one counted `unreadable_input` reject naming it; a FIFO, socket or device is skipped
    /// and listed in `skipped`. Throws `.unreadableInput` for an argument that does not exist or cannot be read,
    /// `.usage` for a repeated `-`. Every file is read by `reading`, the run's (one of its own by default).
    package static func select(_ arguments: [String], reading: InputReading = InputReading()) throws -> InputSelection {
        var selection = InputSelection()
        var sawStandardInput = false
        for argument in arguments {
            if argument == "-" {
                if sawStandardInput {
                    throw ASNError(.usage, "standard input '-' is given more than once; name it at most once")
                }
                sawStandardInput = true
                selection.files.append(InputFile(path: "-", reading: reading))
                continue
            }
            let info = try status(of: argument)
            if info.isDirectory {
                let (found, skipped) = try walk(directory: argument)
                selection.files += found.map { InputFile(path: $0, reading: reading) }
                selection.skipped += skipped
            } else {
                try checkReadable(argument)
                selection.files.append(InputFile(path: argument, reading: reading))
            }
        }
        return selection
    }

    /// The files `select` finds, without the skipped entries (for callers that do not report them).
    package static func expand(_ arguments: [String], reading: InputReading = InputReading()) throws -> [InputFile] {
        try select(arguments, reading: reading).files
    }

    // MARK: - Walking

    /// The non-hidden files under `directory` sorted byte-wise by full path, and the entries skipped as not regular files.
    /// A symbolic link to a directory is followed (its files are records like any others), after every real
    /// subdirectory, so a directory is read once, under its real path when it has one: a link to a directory already
    /// read (a link loop such as `sub/up -> ..`, or a second path to the same directory) is skipped with a warning.
    private static func walk(directory: String) throws -> (found: [String], skipped: [InputSelection.Skipped]) {
        var found: [String] = []
        var skipped: [InputSelection.Skipped] = []
        var pending = [directory]
        var linkedDirectories: [String] = []
        var visited: Set<DirectoryIdentity> = []
        if let root = try? status(of: directory) { visited.insert(root.identity) }
        while true {
            guard let current = pending.popLast() else {
                // Every real subdirectory is read: follow the next symbolic link to a directory, unless it was read.
                guard !linkedDirectories.isEmpty else { break }
                let link = linkedDirectories.removeFirst()
                guard let info = try? status(of: link) else {
                    found.append(link)
                    continue
                }
                if visited.insert(info.identity).inserted {
                    pending.append(link)
                } else {
                    skipped.append(
                        InputSelection.Skipped(path: link, kind: InputSelection.Skipped.directoryAlreadyRead))
                }
                continue
            }
            let names: [String]
            do {
                try checkReadable(current)
                names = try FileManager.default.contentsOfDirectory(atPath: current)
            } catch {
                guard current == directory else {
                    // A subdirectory that cannot be listed: reading it gives one counted reject naming it.
                    found.append(current)
                    continue
                }
                if let error = error as? ASNError { throw error }
                throw ASNError(
                    .unreadableInput,
                    "cannot read input directory '\(current)': its entries cannot be listed; check its permissions",
                    at: SourceLocation(path: current), cause: "\(error)")
            }
            for name in names where !name.hasPrefix(".") {
                let path = join(current, name)
                guard let info = try? status(of: path) else {
                    // A dangling symbolic link or a link loop: opening it fails, which is one counted reject.
                    found.append(path)
                    continue
                }
                if info.isDirectory {
                    if info.isSymbolicLink {
                        linkedDirectories.append(path)
                    } else if visited.insert(info.identity).inserted {
                        pending.append(path)
                    } else {
                        // A real directory reached again through a followed link (a link to an ancestor).
                        skipped.append(
                            InputSelection.Skipped(path: path, kind: InputSelection.Skipped.directoryAlreadyRead))
                    }
                } else if info.isRegular {
                    found.append(path)
                } else {
                    skipped.append(InputSelection.Skipped(path: path, kind: info.kind))
                }
            }
            if pending.isEmpty {
                linkedDirectories.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
        }
        let byteWise = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
        return (found.sorted(by: byteWise), skipped.sorted { byteWise($0.path, $1.path) })
    }

    /// `directory/name` without doubling a trailing slash.
    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    // MARK: - File status

    /// What `stat` says about a path (following symbolic links), and whether the path itself is a link.
    private struct Status {
        var identity: DirectoryIdentity
        var isDirectory: Bool
        var isRegular: Bool
        var isSymbolicLink: Bool
        var kind: String
    }

    /// A file's identity on the system (device and inode), to read each directory once however it is reached.
    private struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The status of `path`, or `.unreadableInput` naming the reason.
    private static func status(of path: String) throws -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadable(path, errno: errno) }
        var linkInfo = stat()
        let isLink = lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK
        let kind = info.st_mode & S_IFMT
        let name: String
        switch kind {
        case S_IFIFO: name = "FIFO"
        case S_IFSOCK: name = "socket"
        case S_IFCHR: name = "character device"
        case S_IFBLK: name = "block device"
        default: name = "special file"
        }
        return Status(
            identity: DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
            isDirectory: kind == S_IFDIR, isRegular: kind == S_IFREG, isSymbolicLink: isLink, kind: name)
    }

    /// Throws `.unreadableInput` unless the process may read `path`.
    private static func checkReadable(_ path: String) throws {
        guard access(path, R_OK) == 0 else { throw unreadable(path, errno: errno) }
    }

    /// The error for an input that cannot be read, with the system's reason and a hint.
    static func unreadable(_ path: String, errno code: Int32) -> ASNError {
        var reason = String(cString: strerror(code)).lowercased()
        var linkInfo = stat()
        if code == ENOENT, lstat(path, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
            reason = "a symbolic link whose target does not exist (dangling link)"
        } else if code == ELOOP {
            reason += " (a symbolic link loop)"
        }
        let hint: String
        switch code {
        case ENOENT, ENOTDIR: hint = "check the path"
        case EACCES, EPERM: hint = "check its permissions"
        default: hint = "check the path and that the file is accessible"
        }
        return ASNError(
            .unreadableInput, "cannot read input '\(ConsoleText.path(path))': \(reason); \(hint)",
            at: SourceLocation(path: path))
    }
}
