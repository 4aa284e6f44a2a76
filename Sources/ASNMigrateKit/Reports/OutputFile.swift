#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One output FILE of a run, written the way its `OutputTarget` needs: atomically for a regular file, directly for a
/// character device, a FIFO or standard output.
///
/// `commit()` publishes an atomic file (a direct stream is complete once written); `abort()` or dropping it uncommitted
/// leaves an atomic destination as it was. `bytesWritten` counts the bytes that reached a direct stream, partial writes
/// included, so a failure can say how much of the output exists. Not thread-safe: use from one task.
package final class OutputFile: ByteSink {
    /// The path as given (`-` for standard output).
    package let path: String
    /// Where the bytes go.
    package let target: OutputTarget
    /// Bytes that reached a direct stream (always 0 for an atomic file, whose bytes appear only on commit).
    package private(set) var bytesWritten = 0
    /// Whether the output is complete: an atomic file committed, or a stream finished without error.
    package private(set) var isCommitted = false

    private let backing: Backing

    /// How bytes are written.
    private enum Backing {
        case atomic(AtomicFile)
        case descriptor(Int32, owned: Bool)
        case console(@Sendable ([UInt8]) throws(ASNError) -> Void)
    }

    /// Opens `path` for writing; `-` goes to `standardOutput`, or to descriptor 1 when that is nil.
    ///
    /// A FIFO is opened for writing here, which waits until a reader opens it (as a shell redirection does).
    package convenience init(path: String, standardOutput: (@Sendable ([UInt8]) throws(ASNError) -> Void)? = nil)
        throws(ASNError)
    {
        try self.init(path: path, target: try OutputTarget.resolve(path), standardOutput: standardOutput)
    }

    /// Opens an already resolved target; `.standardOutput` goes to `standardOutput`, or to `descriptor` when that is nil.
    package init(
        path: String, target: OutputTarget, standardOutput: (@Sendable ([UInt8]) throws(ASNError) -> Void)? = nil,
        descriptor standardDescriptor: Int32 = 1
    ) throws(ASNError) {
        self.path = path
        self.target = target
        switch target {
        case .standardOutput:
            backing = standardOutput.map { .console($0) } ?? .descriptor(standardDescriptor, owned: false)
        case .file(let resolved):
            backing = .atomic(try AtomicFile(path: resolved))
        case .inherited(let descriptor):
            backing = .descriptor(descriptor, owned: false)
        case .stream(let resolved):
            var descriptor: Int32
            repeat {
                descriptor = open(resolved, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            } while descriptor < 0 && errno == EINTR
            guard descriptor >= 0 else { throw FileSystem.failure("open the output", resolved, errno) }
            backing = .descriptor(descriptor, owned: true)
        }
    }

    /// Writes a whole small output (a metrics or summary file, say) the way its target needs, and publishes it; the
    /// caller takes the run lock (`OutputTarget.resolve(path).lockPath`) when it wants one.
    package static func writeWhole(_ bytes: [UInt8], to path: String) throws(ASNError) {
        let file = try OutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    deinit {
        if case .descriptor(let descriptor, owned: true) = backing { _ = close(descriptor) }
    }

    /// True when the output goes straight to its destination (standard output, a device or a FIFO).
    package var isDirect: Bool {
        if case .atomic = backing { return false }
        return true
    }

    // MARK: - Writing

    /// Appends bytes; for a direct stream, every byte written before a failure is counted in `bytesWritten`.
    package func write(_ bytes: [UInt8]) throws(ASNError) {
        switch backing {
        case .atomic(let file):
            try file.write(bytes)
        case .console(let output):
            try output(bytes)
            bytesWritten += bytes.count
        case .descriptor(let descriptor, _):
            let (count, failure) = Self.writeAll(bytes, to: descriptor)
            bytesWritten += count
            if let failure {
                let what =
                    bytesWritten == 0
                    ? "nothing was written there" : "after \(bytesWritten) byte(s); the output there is incomplete"
                throw ASNError(
                    .outputFailed,
                    "cannot write to \(displayName): \(what) (check free space, or whether its reader stopped early)",
                    cause: FileSystem.errnoText(failure))
            }
        }
    }

    /// Publishes the output: renames an atomic file into place; a direct stream is already complete.
    package func commit() throws(ASNError) {
        if case .atomic(let file) = backing { try file.commit() }
        isCommitted = true
    }

    /// Discards an uncommitted atomic file; a direct stream keeps what it was sent.
    package func abort() {
        if case .atomic(let file) = backing { file.abort() }
    }

    /// What became of this output, for the message after a failed run: complete, left as it was, or incomplete.
    package var fate: String {
        if isCommitted { return "'\(path)' was written in full" }
        if !isDirect { return "'\(path)' was not written (left as it was)" }
        return bytesWritten == 0
            ? "nothing reached \(displayName)" : "\(displayName) got \(bytesWritten) byte(s) and is incomplete"
    }

    // MARK: - Internals

    /// `standard output` or `'path'`.
    private var displayName: String { path == "-" ? "standard output" : "'\(path)'" }

    /// Writes every byte (retrying short writes and EINTR): how many were written, and the errno that stopped it.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> (written: Int, failure: Int32?) {
        bytes.withUnsafeBytes { raw -> (Int, Int32?) in
            guard let base = raw.baseAddress else { return (0, nil) }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return (offset, errno)
                }
                offset += n
            }
            return (offset, nil)
        }
    }
}

extension OutputFile {
    /// After a failed run: `no output was written` only when that is true, else what each output got.
    static func outcomeOfFailure(_ outputs: [OutputFile]) -> String {
        let touched = outputs.filter { $0.isCommitted || $0.bytesWritten > 0 }
        guard !touched.isEmpty else { return "no output was written" }
        return outputs.map(\.fate).joined(separator: "; ")
    }
}
