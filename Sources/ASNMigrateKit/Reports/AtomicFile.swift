#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written in the background and moved into place whole: appends go to a hidden temp file next to `path`,
/// `commit()` syncs it and rename(2)s it over `path`, `abort()` (or dropping it uncommitted) deletes it.
///
/// Appends are buffered and written in blocks of about `blockSize` bytes, so it suits large JSONL output.
/// After a failed write the file refuses to commit. Not thread-safe: use from one task.
package final class AtomicFile: ByteSink {
    /// The destination path.
    package let path: String
    /// The hidden temp file being written.
    package let temporaryPath: String
    /// Bytes buffered before a write(2).
    package let blockSize: Int
    /// Whether `commit()` has moved the file into place.
    package var isCommitted: Bool { state == .committed }

    /// The write(2) used, replaceable in tests to inject failures.
    var writeFunction: FileSystem.WriteFunction = FileSystem.systemWrite

    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var state = State.open

    /// Opens a fresh temp file beside `path`, creating missing parent directories.
    package init(path: String, blockSize: Int = 1 << 20) throws(ASNError) {
        self.path = FileSystem.trimmingTrailingSlashes(path)
        self.blockSize = max(1, blockSize)
        let parent = FileSystem.parentDirectory(of: self.path)
        try FileSystem.createDirectories(parent)
        FileSystem.removeStaleSiblings(of: self.path, tag: "tmp")
        temporaryPath = FileSystem.hiddenSibling(of: self.path, tag: "tmp")
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileSystem.failure("create a temporary file for", self.path, errno) }
        buffer.reserveCapacity(self.blockSize)
    }

    deinit {
        if state != .committed { abort() }
    }

    // MARK: - Writing

    /// Appends bytes, writing full blocks to the temp file.
    package func write(_ bytes: [UInt8]) throws(ASNError) {
        try checkOpen()
        buffer.append(contentsOf: bytes)
        if buffer.count >= blockSize { try flush() }
    }

    /// Appends text as UTF-8.
    package func write(_ text: String) throws(ASNError) {
        try write(Array(text.utf8))
    }

    /// Writes what is buffered, syncs, and renames the temp file over `path`; on failure the temp file is removed.
    package func commit() throws(ASNError) {
        try checkOpen()
        do throws(ASNError) {
            try flush()
            guard fsync(descriptor) == 0 else { throw FileSystem.failure("sync", temporaryPath, errno) }
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else { throw FileSystem.failure("close", temporaryPath, errno) }
            guard rename(temporaryPath, path) == 0 else {
                throw FileSystem.failure("move the finished file to", path, errno)
            }
        } catch {
            abort()
            throw error
        }
        state = .committed
        FileSystem.syncDirectory(FileSystem.parentDirectory(of: path))
    }

    /// Discards the temp file; `path` is left as it was. Safe to call more than once.
    package func abort() {
        guard state != .committed, state != .aborted else { return }
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        _ = unlink(temporaryPath)
        buffer = []
        state = .aborted
    }

    // MARK: - Internals

    /// Lifecycle of the temp file.
    private enum State {
        case open, failed, committed, aborted
    }

    /// Throws unless appends are still allowed.
    private func checkOpen() throws(ASNError) {
        switch state {
        case .open: return
        case .failed: throw ASNError(.outputFailed, "an earlier write to '\(path)' failed, so it is not committed")
        case .committed, .aborted:
            throw ASNError(.outputFailed, "'\(path)' was already committed or aborted; this is a bug, please report it")
        }
    }

    /// Writes the buffer out; marks the file failed on error.
    private func flush() throws(ASNError) {
        guard !buffer.isEmpty else { return }
        do throws(ASNError) {
            try FileSystem.writeAll(descriptor, buffer, path: temporaryPath, using: writeFunction)
        } catch {
            state = .failed
            throw error
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
