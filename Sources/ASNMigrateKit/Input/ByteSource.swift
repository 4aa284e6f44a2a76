#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A chunked reader of one input's raw bytes (plain or gzip-decompressed); the caller owns and reuses the buffer.
package protocol ByteSource: AnyObject {
    /// The path reported in errors (`-` for standard input).
    var name: String { get }

    /// Fills the start of `buffer` with the next bytes and returns how many; 0 means the end of the input.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Releases the descriptor or zlib stream; reading afterwards returns 0. Safe to call twice.
    func close()

    /// Trouble found after the last good byte once `readChunk` has returned 0 (bytes after a gzip stream), to be
    /// counted as one reject after the records read before it; nil when the input ended cleanly.
    var endProblem: ASNError? { get }
}

extension ByteSource {
    /// No trouble at the end, for sources that cannot have any.
    package var endProblem: ASNError? { nil }
}

// MARK: - Opening

extension InputFile {
    /// Opens this input for reading, undoing gzip or zstd compression found by the magic bytes (whatever the name),
    /// plain reading otherwise; archives are not opened (`forEachMember` does). Throws `.unreadableInput` naming the
    /// path and the reason.
    package func openByteSource() throws -> any ByteSource {
        let raw = try openRawSource()
        let buffer = SourceBuffer(raw, name: path)
        do {
            try buffer.fill(atLeast: 4)
            switch InputFormat.detect(buffer.pendingBytes) {
            case .gzip: return GzipByteSource(upstream: buffer, name: path)
            case .zstd: return try ZstdByteSource(upstream: buffer, name: path, reading: reading)
            default: return buffer
            }
        } catch {
            buffer.close()
            throw error
        }
    }
}

// MARK: - Errors

/// The errors byte sources throw, worded in one place.
enum ByteSourceErrors {
    /// Bytes after the end of a compressed stream that are not more of it (`format` "gzip" / "zstd", whose complete
    /// `parts` ("member" / "frame") were read); `tool` names the command that checks such a file.
    static func trailingData(
        _ name: String, count: Int, offset: Int, format: String, complete: Int, part: String, tool: String
    ) -> ASNError {
        ASNError(
            .unreadableInput,
            "\(count) byte\(count == 1 ? "" : "s") of trailing data at byte offset \(offset) of '\(ConsoleText.path(name))', after the end of its \(format) stream "
                + "(\(complete) complete \(part)\(complete == 1 ? "" : "s")), are not \(format) data and were not read; the records before them were read. "
                + "Check how the archive was written or copied (for example with '\(tool)')",
            at: SourceLocation(path: name))
    }

    /// A failed `read` on `path`.
    static func readFailed(_ path: String, errno code: Int32) -> ASNError {
        let reason = String(cString: strerror(code)).lowercased()
        return ASNError(
            .unreadableInput,
            "cannot read input '\(ConsoleText.path(path))': \(reason) while reading; check the disk or the producing process",
            at: SourceLocation(path: path))
    }

    /// A gzip stream zlib refused (corrupt or truncated), with zlib's own message as the cause.
    static func gzipFailed(_ path: String, zlibMessage: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "cannot read input '\(ConsoleText.path(path))': the gzip stream is corrupt or truncated; check the archive (for example with 'gzip -t') and restore a good copy",
            at: SourceLocation(path: path), cause: "zlib: \(zlibMessage)")
    }
}

// MARK: - System calls

/// `open(path, O_RDONLY | O_CLOEXEC)`.
func systemOpen(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}

/// `close(fd)`, named so that types with a `close()` method can call it.
func systemClose(_ fd: Int32) {
    _ = close(fd)
}

/// `read(fd, buffer, count)` retried on EINTR, named so that types with a `read` method can call it.
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n >= 0 || errno != EINTR { return n }
    }
}
