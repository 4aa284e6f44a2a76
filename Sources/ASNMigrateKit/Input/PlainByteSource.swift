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
    /// Bytes already read from the descriptor (by a look at its format), handed out before reading it again.
    private let prefix: [UInt8]
    /// How many bytes of `prefix` were handed out.
    private var prefixUsed = 0
    /// Whether `prefix` holds the whole input (the look met its end), so the descriptor is not read again.
    private let prefixIsAll: Bool
    /// Where the next `pread` starts and where reading ends, when only a window of the descriptor is read (a
    /// `FileSnapshot`'s bytes); nil: `read` from the descriptor's offset to its end.
    private var window: (next: Int, end: Int)?

    /// Reads from `fd`, after the bytes `prefix` already read from it (all of it when `prefixIsAll`); closes it on
    /// `close()` only when `owned`; with a `window`, only its bytes, by `pread` from its `next` byte to its `end`.
    package init(
        descriptor fd: Int32, owned: Bool, name: String, prefix: [UInt8] = [], prefixIsAll: Bool = false,
        window: (next: Int, end: Int)? = nil
    ) {
        self.fd = fd
        self.owned = owned
        self.name = name
        self.prefix = prefix
        self.prefixIsAll = prefixIsAll
        self.window = window
        #if os(Linux)
            if fd >= 0 { _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL)) }
        #endif
    }

    /// Hands out `bytes` held in memory (the first bytes of an input, looked at), reported as `name`.
    package convenience init(bytes: [UInt8], name: String) {
        self.init(descriptor: -1, owned: false, name: name, prefix: bytes, prefixIsAll: true)
    }

    deinit { close() }

    // MARK: - ByteSource

    /// Reads up to `buffer.count` bytes; a short count does not mean the end, only 0 does.
    package func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if prefixUsed < prefix.count {
            let count = min(buffer.count, prefix.count - prefixUsed)
            prefix.withUnsafeBytes { kept in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: kept[prefixUsed..<(prefixUsed + count)]))
            }
            prefixUsed += count
            return count
        }
        guard !prefixIsAll, fd >= 0, let base = buffer.baseAddress else { return 0 }
        if let (next, end) = window {
            let n = pread(fd, base, min(buffer.count, end - next), off_t(next))
            guard n >= 0 else { throw ByteSourceErrors.readFailed(name, errno: errno) }
            window = (next + n, end)
            return n
        }
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
