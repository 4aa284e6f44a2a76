import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every path a run writes (reports, rejects, summary JSON, metrics, state, locks), checked together before anything
/// is written: against each other and against every input path and root, by resolved path and by file identity
/// (device and inode, so a hard link, a symbolic link or a second mount of the same folder counts).
///
/// Refused, as usage errors (exit 64) naming both paths: an output that is an input, or lies inside an input folder
/// (the run would replace the archive it reads, or the next run would read the output as input); an input inside an
/// output folder (replacing the folder would delete it); two outputs that are the same file, or one inside the other;
/// a dangling symbolic link as an output whose target's folder does not exist. Standard output, devices and FIFOs
/// are written through, never replaced, so they are not checked against files.
package struct OutputPlan: Sendable {
    /// Whether an output is one file or a folder the run fills.
    package enum Kind: Sendable, Equatable {
        /// One file, replaced atomically.
        case file
        /// A folder whose content the run replaces (a report folder) or creates entries in (a reports root).
        case folder
    }

    /// One path the run writes.
    package struct Output: Sendable, Equatable {
        /// The option that names it (`--out`), or a description (`the lock of --out`).
        package var option: String
        /// The path as given.
        package var path: String
        /// File or folder.
        package var kind: Kind

        /// Creates an output.
        package init(_ option: String, _ path: String, kind: Kind = .file) {
            self.option = option
            self.path = path
            self.kind = kind
        }
    }

    /// One path the run reads: an input root (file or folder) or a settings file.
    package struct Input: Sendable, Equatable {
        /// The option that names it (`--v1`, `PATH`, `--mappings`).
        package var option: String
        /// The path as given.
        package var path: String

        /// Creates an input.
        package init(_ option: String, _ path: String) {
            self.option = option
            self.path = path
        }
    }

    /// The outputs, in the order they are reported.
    package var outputs: [Output]
    /// The input roots and settings files.
    package var inputs: [Input]
    /// The input files found under the roots (hard links to them count as the input).
    package var inputFiles: [InputFile]

    /// A plan over `outputs`, `inputs` and the files found under the inputs.
    package init(outputs: [Output], inputs: [Input], inputFiles: [InputFile] = []) {
        self.outputs = outputs
        self.inputs = inputs
        self.inputFiles = inputFiles
    }

    /// An output with the lock file beside it (`.NAME.lock`), which the run writes too.
    package static func withLock(_ output: Output) -> [Output] {
        if output.path == "-" { return [output] }
        let lock = { (path: String) in Output("the lock of \(output.option)", RunLock.lockPath(besideOutput: path)) }
        if output.kind == .folder { return [output, lock((try? OutputTarget.followLinks(output.path)) ?? output.path)] }
        guard case .file(let path)? = try? OutputTarget.resolve(output.path) else { return [output] }
        return [output, lock(path)]
    }

    // MARK: - Checking

    /// Throws a `.usage` error naming both paths for the first conflict; returns when there is none.
    package func check() throws(ASNError) {
        var resolved: [Resolved] = []
        for output in outputs {
            if let found = try Self.resolve(output) { resolved.append(found) }
        }
        let known = resolved.isEmpty ? [:] : identitiesOfInputs()
        for output in resolved {
            if let identity = output.own, let input = known[identity] {
                throw conflict(
                    output, "is the input \(input.name)",
                    advice: "writing it would replace the archive being read; give another output path")
            }
            if let input = output.folders.lazy.compactMap({ known[$0] }).first {
                throw conflict(
                    output, "is inside the input \(input.isFolder ? "folder " : "")\(input.name)",
                    advice:
                        "the run would write into the archive it reads, and the next run would read the output as input; write it outside the input folders"
                )
            }
            guard output.output.kind == .folder, let identity = output.own else { continue }
            for input in inputs where input.path != "-" && Self.chain(input.path).dropFirst().contains(identity) {
                throw conflict(
                    output, "holds the input '\(input.path)' (\(input.option))",
                    advice: "replacing the folder would delete the input; give an output folder outside the inputs")
            }
        }
        let files = resolved.filter { !$0.isStream || $0.isDescribedFile }
        for (i, first) in files.enumerated() {
            for second in files[(i + 1)...] {
                let same = first.canonical == second.canonical || (first.own != nil && first.own == second.own)
                let inside =
                    first.canonical.hasPrefix(second.canonical + "/")
                    || second.canonical.hasPrefix(first.canonical + "/")
                    || second.own.map { first.folders.contains($0) } == true
                    || first.own.map { second.folders.contains($0) } == true
                guard same || inside else { continue }
                throw ASNError(
                    .usage,
                    "\(first.output.option) '\(first.output.path)' and \(second.output.option) '\(second.output.path)' "
                        + (same ? "name the same file" : "overlap (one is inside the other)")
                        + "; give each output its own path")
            }
        }
    }

    /// Every input's identity, with how to name it in a message: each input root and settings file, every file found
    /// under an input folder (`inputFiles`, as the run selected them; a caller that has not selected them yet has the
    /// folders walked here, so a hard link or a descriptor naming any of their files counts), and standard input when
    /// it is a file or FIFO.
    private func identitiesOfInputs() -> [Identity: KnownInput] {
        var known: [Identity: KnownInput] = [:]
        for file in inputFiles {
            if let identity = Self.identity(of: file) {
                known[identity] =
                    known[identity] ?? KnownInput(name: "'\(ConsoleText.path(file.path))'", isFolder: false)
            }
        }
        for input in inputs {
            if input.path == "-" {
                if let identity = Self.describedIdentity(0) {
                    known[identity] = KnownInput(name: "standard input (\(input.option) -)", isFolder: false)
                }
                continue
            }
            guard let found = Self.identity(input.path) else { continue }
            known[found.identity] =
                known[found.identity]
                ?? KnownInput(name: "'\(ConsoleText.path(input.path))' (\(input.option))", isFolder: found.isDirectory)
            guard found.isDirectory, inputFiles.isEmpty, let walk = FileManager.default.enumerator(atPath: input.path)
            else { continue }
            while let entry = walk.nextObject() as? String {
                let path = FileSystem.trimmingTrailingSlashes(input.path) + "/" + entry
                guard let file = Self.identity(path), !file.isDirectory else { continue }
                known[file.identity] =
                    known[file.identity]
                    ?? KnownInput(name: "'\(ConsoleText.path(path))' (under \(input.option))", isFolder: false)
            }
        }
        return known
    }

    /// An input as a conflict message names it.
    private struct KnownInput {
        /// `'path' (--v1)`, `'path'`, or `standard input`.
        var name: String
        /// Whether it is an input folder.
        var isFolder: Bool
    }

    // MARK: - Internals

    /// A device and inode.
    struct Identity: Hashable, Sendable {
        /// `st_dev`.
        var device: UInt64
        /// `st_ino`.
        var inode: UInt64
    }

    /// An output with its canonical path and the identities of it (when it exists) and its existing folders up to `/`.
    private struct Resolved {
        var output: Output
        var canonical: String
        /// The output's own identity, when it exists.
        var own: Identity?
        /// The identities of the existing folders above it, nearest first.
        var folders: [Identity]
        /// Written through, never replaced (standard output, a descriptor, a device or a FIFO): checked against the
        /// inputs by identity only.
        var isStream = false
        /// A descriptor (or standard output) open on a regular file: checked against the other outputs too.
        var isDescribedFile = false
    }

    /// The output resolved; nil for a character device (written through, and never the same as an input: a terminal
    /// may be both standard input and standard output).
    private static func resolve(_ output: Output) throws(ASNError) -> Resolved? {
        if let descriptor = output.path == "-" ? 1 : OutputTarget.inheritedDescriptor(output.path) {
            return described(output, descriptor: descriptor)
        }
        let final = try OutputTarget.followLinks(output.path)
        let type = FileSystem.fileType(final)
        if type == S_IFCHR { return nil }
        if type == S_IFIFO {
            return Resolved(
                output: output, canonical: canonicalPath(final), own: identity(final)?.identity, folders: [],
                isStream: true)
        }
        let parent = FileSystem.parentDirectory(of: final)
        if type == nil, FileSystem.fileType(FileSystem.trimmingTrailingSlashes(output.path)) == S_IFLNK,
            FileSystem.fileType(parent) == nil
        {
            throw ASNError(
                .usage,
                "\(output.option) '\(output.path)' is a symbolic link to '\(final)', which does not exist, "
                    + "and its folder '\(parent)' does not exist either; point the link at a file in an existing folder or give another output path"
            )
        }
        return Resolved(
            output: output, canonical: canonicalPath(final), own: identity(final)?.identity, folders: chain(parent))
    }

    /// An output named by one of this process's descriptors (`-`, `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`):
    /// what the descriptor has open, found with fstat(2), so a file the shell opened (`3<>in.jsonl`, `>> in.jsonl`)
    /// is compared with the inputs; nil for a character device or a descriptor that is not open.
    private static func described(_ output: Output, descriptor: Int32) -> Resolved? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFCHR else { return nil }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let isFile = info.st_mode & S_IFMT == S_IFREG
        // Linux names the open file's path through /proc; elsewhere the folder checks fall back to the identity.
        let opened = OutputTarget.readLink("/proc/self/fd/\(descriptor)").flatMap { $0.hasPrefix("/") ? $0 : nil }
        return Resolved(
            output: output, canonical: opened ?? "/dev/fd/\(descriptor)", own: identity,
            folders: isFile ? opened.map { chain(FileSystem.parentDirectory(of: $0)) } ?? [] : [],
            isStream: true, isDescribedFile: isFile)
    }

    /// The identity of what `descriptor` has open, when it is a regular file or a FIFO.
    private static func describedIdentity(_ descriptor: Int32) -> Identity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFIFO
        else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `path` made absolute with symbolic links resolved, as far as it exists: the nearest existing folder's real
    /// path followed by the components not created yet (so `new` and `new/s.json` compare even before `new` exists).
    static func canonicalPath(_ path: String) -> String {
        var missing: [String] = []
        var current = path
        while true {
            if let real = realPath(current) {
                return ([real == "/" ? "" : real] + missing.reversed()).joined(separator: "/")
            }
            let parent = FileSystem.parentDirectory(of: current)
            guard parent != current else { return path }
            missing.append(FileSystem.lastComponent(of: current))
            current = parent
        }
    }

    /// The identities of the existing folder at `path` (or its nearest existing ancestor) and every folder above it.
    static func chain(_ path: String) -> [Identity] {
        var current = realPath(path) ?? path
        var seen: [Identity] = []
        while true {
            if let found = identity(current) { seen.append(found.identity) }
            if current == "/" || current.isEmpty || current == "." { break }
            let parent = FileSystem.parentDirectory(of: current)
            if parent == current { break }
            current = parent
        }
        return seen
    }

    /// The identity of the file at `path` (symbolic links followed) and whether it is a directory; nil if absent.
    static func identity(_ path: String) -> (identity: Identity, isDirectory: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// The identity of an input file (by its descriptor when it has one), when it is a regular file or a FIFO.
    private static func identity(of file: InputFile) -> Identity? {
        var info = stat()
        let found = file.descriptor.map { fstat($0, &info) == 0 } ?? (stat(file.path, &info) == 0)
        guard found, (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFIFO else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// realpath(3), or nil when the path does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The usage error for `output` in conflict with an input.
    private func conflict(_ output: Resolved, _ what: String, advice: String) -> ASNError {
        ASNError(.usage, "\(output.output.option) '\(output.output.path)' \(what); \(advice)")
    }
}
