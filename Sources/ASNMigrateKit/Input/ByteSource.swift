#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A chunked reader of one input's raw bytes (plain or gzip-decompressed); the caller owns and reuses the buffer.
public protocol ByteSource: AnyObject {
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
    public var endProblem: ASNError? { nil }
}

// MARK: - Opening

extension InputFile {
    /// Opens this input for reading, choosing gzip decompression when the bytes start with the gzip magic 0x1f 0x8b
    /// (whatever the name), plain reading otherwise. Throws `.unreadableInput` naming the path and the reason.
    public func openByteSource() throws -> any ByteSource {
        if let descriptor {
            return try Self.open(descriptor: descriptor, owned: false, name: path)
        }
        let fd = systemOpen(path)
        guard fd >= 0 else { throw InputPaths.unreadable(path, errno: errno) }
        do {
            return try Self.open(descriptor: fd, owned: true, name: path)
        } catch {
            systemClose(fd)
            throw error
        }
    }

    /// Picks the source for an open descriptor; a non-seekable one (pipe) goes through zlib, which itself detects
    /// the gzip magic and passes other bytes through unchanged, because the peeked bytes cannot be put back.
    private static func open(descriptor fd: Int32, owned: Bool, name: String) throws -> any ByteSource {
        let offset = lseek(fd, 0, SEEK_CUR)
        guard offset >= 0 else {
            return try GzipByteSource(descriptor: fd, owned: owned, name: name)
        }
        var magic: (UInt8, UInt8) = (0, 0)
        let count = withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 2, offset) }
        guard count >= 0 else { throw ByteSourceErrors.readFailed(name, errno: errno) }
        if count == 2 && magic == (0x1f, 0x8b) {
            return try GzipByteSource(descriptor: fd, owned: owned, name: name)
        }
        return PlainByteSource(descriptor: fd, owned: owned, name: name)
    }
}

// MARK: - Errors

/// The errors byte sources throw, worded in one place.
enum ByteSourceErrors {
    /// A failed `read` on `path`.
    static func readFailed(_ path: String, errno code: Int32) -> ASNError {
        let reason = String(cString: strerror(code)).lowercased()
        return ASNError(
            .unreadableInput, "cannot read input '\(path)': \(reason) while reading; check the disk or the producing process",
            at: SourceLocation(path: path))
    }

    /// A gzip stream zlib refused (corrupt or truncated), with zlib's own message as the cause.
    static func gzipFailed(_ path: String, zlibMessage: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "cannot read input '\(path)': the gzip stream is corrupt or truncated; check the archive (for example with 'gzip -t') and restore a good copy",
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
