import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands command-line input arguments (files, directories, `-`) into the ordered list of files to read.
public enum InputPaths {
    // MARK: - Expanding

    /// Expands `arguments` in order: a file is taken as is, a directory is walked recursively (regular files only,
    /// names starting with `.` skipped, the whole tree sorted byte-wise by full path), and `-` means standard input
    /// (allowed once). Throws `.unreadableInput` for a path that does not exist or cannot be read, `.usage` for a repeated `-`.
    public static func expand(_ arguments: [String]) throws -> [InputFile] {
        var files: [InputFile] = []
        var sawStandardInput = false
        for argument in arguments {
            if argument == "-" {
                if sawStandardInput {
                    throw ASNError(.usage, "standard input '-' is given more than once; name it at most once")
                }
                sawStandardInput = true
                files.append(.standardInput)
                continue
            }
            let info = try status(of: argument)
            if info.isDirectory {
                files += try walk(directory: argument).map { InputFile(path: $0) }
            } else {
                try checkReadable(argument)
                files.append(InputFile(path: argument))
            }
        }
        return files
    }

    // MARK: - Walking

    /// All regular, non-hidden files under `directory`, sorted byte-wise by full path.
    private static func walk(directory: String) throws -> [String] {
        var found: [String] = []
        var pending = [directory]
        while let current = pending.popLast() {
            try checkReadable(current)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: current)
            } catch {
                throw ASNError(
                    .unreadableInput,
                    "cannot read input directory '\(current)': its entries cannot be listed; check its permissions",
                    at: SourceLocation(path: current), cause: "\(error)")
            }
            for name in names where !name.hasPrefix(".") {
                let path = join(current, name)
                let info = try status(of: path)
                if info.isDirectory {
                    if !info.isSymbolicLink { pending.append(path) }
                } else if info.isRegular {
                    try checkReadable(path)
                    found.append(path)
                }
            }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `directory/name` without doubling a trailing slash.
    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    // MARK: - File status

    /// What `stat` says about a path (following symbolic links), and whether the path itself is a link.
    private struct Status {
        var isDirectory: Bool
        var isRegular: Bool
        var isSymbolicLink: Bool
    }

    /// The status of `path`, or `.unreadableInput` naming the reason.
    private static func status(of path: String) throws -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadable(path, errno: errno) }
        var linkInfo = stat()
        let isLink = lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK
        let kind = info.st_mode & S_IFMT
        return Status(isDirectory: kind == S_IFDIR, isRegular: kind == S_IFREG, isSymbolicLink: isLink)
    }

    /// Throws `.unreadableInput` unless the process may read `path`.
    private static func checkReadable(_ path: String) throws {
        guard access(path, R_OK) == 0 else { throw unreadable(path, errno: errno) }
    }

    /// The error for an input that cannot be read, with the system's reason and a hint.
    static func unreadable(_ path: String, errno code: Int32) -> ASNError {
        let reason = String(cString: strerror(code)).lowercased()
        let hint: String
        switch code {
        case ENOENT, ENOTDIR: hint = "check the path"
        case EACCES, EPERM: hint = "check its permissions"
        default: hint = "check the path and that the file is accessible"
        }
        return ASNError(
            .unreadableInput, "cannot read input '\(path)': \(reason); \(hint)",
            at: SourceLocation(path: path))
    }
}
