import CZlib

/// Writes a gzip file through zlib (`gzopen`/`gzwrite`/`gzclose`); failures are `.outputFailed` naming the path.
package final class GzipWriter {
    /// The path being written.
    package let path: String
    /// The zlib stream, or nil once closed.
    private var stream: gzFile?

    /// The largest slice handed to one `gzwrite` call (its length is 32-bit).
    private static let maxWrite = 1 << 30

    // MARK: - Opening

    /// Creates (or truncates) `path` for gzip output at compression `level` (0…9, default 6).
    package init(path: String, level: Int = 6) throws {
        self.path = path
        let clamped = max(0, min(9, level))
        guard let stream = gzopen(path, "wb\(clamped)") else {
            throw ASNError(
                .outputFailed,
                "cannot create gzip file '\(ConsoleText.path(path))'; check that the directory exists and is writable",
                at: SourceLocation(path: path))
        }
        self.stream = stream
    }

    deinit {
        if let stream { _ = gzclose_w(stream) }
    }

    // MARK: - Writing

    /// Compresses and appends `bytes`.
    package func write(_ bytes: some Sequence<UInt8>) throws {
        let contiguous = Array(bytes)
        try contiguous.withUnsafeBytes { try write(raw: $0) }
    }

    /// Compresses and appends the UTF-8 bytes of `text`.
    package func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Compresses and appends the bytes in `buffer`.
    package func write(raw buffer: UnsafeRawBufferPointer) throws {
        guard let stream else {
            throw ASNError(
                .outputFailed, "cannot write to gzip file '\(ConsoleText.path(path))': it is already closed",
                at: SourceLocation(path: path))
        }
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let length = min(Self.maxWrite, buffer.count - offset)
            let written = gzwrite(stream, base + offset, UInt32(length))
            guard written > 0 else { throw failure("cannot write to gzip file", stream) }
            offset += Int(written)
        }
    }

    /// Flushes and closes the file; the file is complete only after this returns without throwing.
    package func close() throws {
        guard let stream else { return }
        self.stream = nil
        let code = gzclose_w(stream)
        guard code == Z_OK else {
            throw ASNError(
                .outputFailed,
                "cannot finish gzip file '\(ConsoleText.path(path))' (zlib code \(code)); check free disk space",
                at: SourceLocation(path: path))
        }
    }

    // MARK: - Convenience

    /// Writes `bytes` as the whole gzip file at `path`.
    package static func write(_ bytes: some Sequence<UInt8>, to path: String, level: Int = 6) throws {
        let writer = try GzipWriter(path: path, level: level)
        try writer.write(bytes)
        try writer.close()
    }

    /// The error for a failed zlib call, with zlib's message as the cause.
    private func failure(_ what: String, _ stream: gzFile) -> ASNError {
        var code: Int32 = 0
        let message = gzerror(stream, &code).map { String(cString: $0) } ?? "unknown error"
        return ASNError(
            .outputFailed, "\(what) '\(ConsoleText.path(path))'; check free disk space and permissions",
            at: SourceLocation(path: path), cause: "zlib: \(message)")
    }
}
