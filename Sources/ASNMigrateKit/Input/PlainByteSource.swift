#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an uncompressed file or descriptor with POSIX `read`, straight into the caller's buffer.
package final class PlainByteSource: ByteSource {
    /// The path reported in errors.
    package let name: String
    /// The descriptor, or -1 once closed.
    private var fd: Int32
    /// Whether `close()` closes the descriptor (false for standard input and descriptors passed in).
    private let owned: Bool

    /// Reads from `fd`; closes it on `close()` only when `owned`.
    package init(descriptor fd: Int32, owned: Bool, name: String) {
        self.fd = fd
        self.owned = owned
        self.name = name
        #if os(Linux)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close() }

    // MARK: - ByteSource

    /// Reads up to `buffer.count` bytes; a short count does not mean the end, only 0 does.
    package func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard fd >= 0, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let n = systemRead(fd, base, buffer.count)
        guard n >= 0 else { throw ByteSourceErrors.readFailed(name, errno: errno) }
        return n
    }

    /// Closes the descriptor if this source owns it.
    package func close() {
        if fd >= 0 && owned { systemClose(fd) }
        fd = -1
    }
}
