import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a gzip file or descriptor through zlib (`gzdopen`/`gzread`); every member of a multi-member file is read.
public final class GzipByteSource: ByteSource {
    /// The path reported in errors.
    public let name: String
    /// The zlib stream, or nil once closed.
    private var stream: gzFile?

    /// zlib's own input buffer size; bigger than its 8 KiB default to make fewer `read` calls.
    private static let zlibBufferSize: UInt32 = 256 * 1024

    /// Reads `fd` through zlib; a descriptor that is not `owned` is duplicated first so that closing leaves it open.
    public init(descriptor fd: Int32, owned: Bool, name: String) throws {
        self.name = name
        let zlibFD = owned ? fd : dup(fd)
        guard zlibFD >= 0 else { throw ByteSourceErrors.readFailed(name, errno: errno) }
        guard let stream = gzdopen(zlibFD, "rb") else {
            if !owned { systemClose(zlibFD) }
            throw ByteSourceErrors.gzipFailed(name, zlibMessage: "cannot start decompressing (out of memory?)")
        }
        _ = gzbuffer(stream, Self.zlibBufferSize)
        self.stream = stream
    }

    deinit { close() }

    // MARK: - ByteSource

    /// Decompresses up to `buffer.count` bytes; throws `.unreadableInput` with zlib's message on a corrupt or truncated stream.
    public func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let stream, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let want = UInt32(min(buffer.count, Int(Int32.max)))
        let n = gzread(stream, base, want)
        if n > 0 { return Int(n) }
        var code: Int32 = 0
        let message = Self.withoutDescriptorPrefix(gzerror(stream, &code).map { String(cString: $0) } ?? "unknown error")
        if n < 0 || code != Z_OK {
            if code == Z_ERRNO {
                throw ByteSourceErrors.readFailed(name, errno: errno)
            }
            throw ByteSourceErrors.gzipFailed(name, zlibMessage: message)
        }
        return 0
    }

    /// zlib's message without the `<fd:N>: ` it puts first for streams opened with `gzdopen`.
    private static func withoutDescriptorPrefix(_ message: String) -> String {
        guard message.hasPrefix("<fd:"), let colon = message.range(of: ": ") else { return message }
        return String(message[colon.upperBound...])
    }

    /// Ends the zlib stream and closes its descriptor.
    public func close() {
        if let stream { _ = gzclose_r(stream) }
        stream = nil
    }
}
