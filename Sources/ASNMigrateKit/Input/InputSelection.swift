#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the command-line input arguments expand to: the files to read, in order, and the entries of input
/// directories that were skipped because they are not regular files (each to be warned about and counted).
package struct InputSelection: Sendable, Equatable {
    /// An entry of an input directory that is not a regular file, directory or symbolic link to one, or a link to a
    /// directory already read.
    package struct Skipped: Sendable, Equatable {
        /// The `kind` of a symbolic link to a directory that was already read (a link loop, or a second path to it).
        package static let directoryAlreadyRead = "symbolic link to a directory already read"

        /// The entry's path, as joined under its directory argument.
        package var path: String
        /// What it is: `FIFO`, `socket`, `character device`, `block device` or `directoryAlreadyRead`.
        package var kind: String

        /// Creates a skipped entry.
        package init(path: String, kind: String) {
            self.path = path
            self.kind = kind
        }

        /// The warning printed for it, after the command's name.
        package var warning: String {
            if kind == Self.directoryAlreadyRead {
                return
                    "warning: skipped '\(ConsoleText.path(path))': a symbolic link to a directory already read under this input (a link loop, or a second path to the same directory); its files are read once"
            }
            return
                "warning: skipped '\(ConsoleText.path(path))': a \(kind), not a regular file; input directories are read for regular files only (name a FIFO or device explicitly to read it as a stream)"
        }
    }

    /// The files to read, in order.
    package var files: [InputFile]
    /// The directory entries skipped, sorted byte-wise by path within each argument.
    package var skipped: [Skipped]

    /// Creates a selection.
    package init(files: [InputFile] = [], skipped: [Skipped] = []) {
        self.files = files
        self.skipped = skipped
    }

    /// The input that is the same regular file as `path` (same device and inode, however it is named or linked), or
    /// nil: an output written over an input would replace the archive being read.
    package func input(sameFileAs path: String) -> InputFile? {
        var target = stat()
        guard stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { return nil }
        return files.first { file in
            var info = stat()
            let found = file.descriptor.map { fstat($0, &info) == 0 } ?? (stat(file.path, &info) == 0)
            return found && info.st_dev == target.st_dev && info.st_ino == target.st_ino
        }
    }

    /// The summary line counting the skipped entries, or nil when there are none.
    package var skippedSummary: String? {
        skipped.isEmpty ? nil : "skipped (not a regular file) \(skipped.count)"
    }
}
