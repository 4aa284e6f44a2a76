#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an output path leads to, decided before anything is written: how to write it and whether to lock it.
///
/// A regular file (or nothing yet) is replaced atomically; a symbolic link is followed to the end of its chain and its
/// final target replaced, so the link stays; a character device, a FIFO or `-` is written directly, in order; anything
/// else (a directory, a block device, a socket) is refused, never replaced.
package enum OutputTarget: Sendable, Equatable {
    /// `-`: the process's standard output.
    case standardOutput
    /// A regular file, or nothing yet, at this path (symbolic links resolved): written atomically by rename.
    case file(path: String)
    /// A character device or FIFO at this path (symbolic links resolved): opened and written directly.
    case stream(path: String)
    /// A descriptor this process inherited, named as `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`: written
    /// directly, at the descriptor's own offset, never reopened or replaced (it may be a file opened for appending).
    case inherited(descriptor: Int32)

    /// How many symbolic links are followed before giving up (as the kernel's ELOOP limit).
    static let maximumLinks = 40

    // MARK: - Resolving

    /// Classifies the output FILE at `path`, following symbolic links; throws `.outputFailed` for what must not be replaced.
    package static func resolve(_ path: String) throws(ASNError) -> OutputTarget {
        if path == "-" { return .standardOutput }
        if let descriptor = inheritedDescriptor(path) {
            return descriptor == 1 ? .standardOutput : .inherited(descriptor: descriptor)
        }
        let final = try followLinks(path)
        switch FileSystem.fileType(final) {
        case nil, S_IFREG: return .file(path: final)
        case S_IFCHR, S_IFIFO: return .stream(path: final)
        case S_IFDIR:
            throw ASNError(
                .outputFailed,
                "output '\(path)' is a directory; give a file name (such as '\(FileSystem.trimmingTrailingSlashes(path))/out.jsonl')"
            )
        case let type?:
            throw ASNError(
                .outputFailed,
                "output '\(path)' is \(describe(type)), not a regular file, character device or FIFO; "
                    + "asn-migrate never replaces it: choose another output path")
        }
    }

    /// Resolves the report FOLDER at `path` (following symbolic links); throws when it exists and is not a directory.
    package static func resolveDirectory(_ path: String) throws(ASNError) -> String {
        let trimmed = FileSystem.trimmingTrailingSlashes(path)
        guard !trimmed.isEmpty else { throw ASNError(.outputFailed, "empty output path; give a directory name") }
        guard trimmed != "-" else {
            throw ASNError(
                .outputFailed, "a report folder cannot be standard output ('-'); give a directory name with --out")
        }
        let final = try followLinks(trimmed)
        if let type = FileSystem.fileType(final), type != S_IFDIR {
            throw ASNError(
                .outputFailed,
                "report folder '\(path)' exists and is \(describe(type)), not a directory; "
                    + "remove it or choose another output directory")
        }
        return final
    }

    /// The lock file guarding this output for a run, or nil when none is taken (standard output, devices, FIFOs).
    package var lockPath: String? {
        guard case .file(let path) = self else { return nil }
        return RunLock.lockPath(besideOutput: path)
    }

    // MARK: - Internals

    /// The descriptor a path names when it is one of this process's own (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
    /// `/proc/self/fd/N`, `/proc/PID/fd/N` for this pid), reached directly or through symbolic links; else nil.
    /// Following such a link leads to the open file's path (or `pipe:[…]`), and replacing that would destroy what the
    /// caller opened, perhaps for appending.
    static func inheritedDescriptor(_ path: String) -> Int32? {
        var current = FileSystem.trimmingTrailingSlashes(path)
        for _ in 0..<maximumLinks {
            switch current {
            case "/dev/stdout": return 1
            case "/dev/stderr": return 2
            case "/dev/stdin": return 0
            default: break
            }
            for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where current.hasPrefix(prefix) {
                if let descriptor = Int32(current.dropFirst(prefix.count)) { return descriptor }
            }
            guard FileSystem.fileType(current) == S_IFLNK, let target = readLink(current) else { return nil }
            current = FileSystem.trimmingTrailingSlashes(
                target.hasPrefix("/") ? target : FileSystem.parentDirectory(of: current) + "/" + target)
        }
        return nil
    }

    /// The end of the symbolic link chain starting at `path` (which itself may not exist).
    static func followLinks(_ path: String) throws(ASNError) -> String {
        var current = FileSystem.trimmingTrailingSlashes(path)
        for _ in 0..<maximumLinks {
            guard FileSystem.fileType(current) == S_IFLNK else { return current }
            guard let target = readLink(current) else {
                throw FileSystem.failure("read the symbolic link", current, errno)
            }
            current = target.hasPrefix("/") ? target : FileSystem.parentDirectory(of: current) + "/" + target
            current = FileSystem.trimmingTrailingSlashes(current)
        }
        throw ASNError(
            .outputFailed,
            "output '\(path)' is a chain of more than \(maximumLinks) symbolic links (a loop?); point it at a file")
    }

    /// readlink(2) as a String.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `a block device`, `a socket`, … for error messages.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file"
        }
    }
}
