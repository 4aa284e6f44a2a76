import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file opened once: its size and modification time taken from the open descriptor, its bytes mapped from
/// it, and the reading that follows (`input`) done through the same descriptor, up to that size. The bytes a caller
/// hashes are the bytes the reader reads: lines appended after the snapshot, or a new file renamed over the path, are
/// not read; a file rewritten in place while read shows in `changedSinceTaken()`.
package final class FileSnapshot {
    /// The path the file was opened at.
    package let path: String
    /// The open descriptor; closed when the snapshot goes.
    private let descriptor: Int32
    /// The size when opened, in bytes: how much is mapped and read.
    package let size: Int
    /// The modification time when opened, epoch ms.
    package let mtimeMs: Int64
    /// The file's first `size` bytes, mapped from the descriptor.
    package let data: Data

    /// Opens `path`, a regular file, and maps its bytes. Throws `.unreadableInput` when it cannot be opened, is not a
    /// regular file, or cannot be mapped.
    package init(path: String) throws(ASNError) {
        let fd = systemOpen(path)
        guard fd >= 0 else { throw InputPaths.unreadable(path, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            systemClose(fd)
            throw InputPaths.unreadable(path, errno: code)
        }
        let size = Int(info.st_size)
        var data = Data()
        if size > 0 {
            guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
                let code = errno
                systemClose(fd)
                throw ASNError(
                    .unreadableInput,
                    "cannot map '\(ConsoleText.path(path))' to fingerprint it: \(FileSystem.errnoText(code)); check that it is a readable regular file",
                    at: SourceLocation(path: path))
            }
            data = Data(
                bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        }
        self.path = path
        self.descriptor = fd
        self.size = size
        self.mtimeMs = Self.milliseconds(info)
        self.data = data
    }

    deinit { systemClose(descriptor) }

    /// The input to read this snapshot's bytes, reported under its path: the same descriptor, its first `size`
    /// bytes; read as `reading` reads.
    package func input(reading: InputReading) -> InputFile {
        let file = InputFile(path: path, reading: reading)
        file.opening.adopt(descriptor: descriptor, length: size)
        return file
    }

    /// Whether the file has been written since it was opened: its size or modification time, read from the same
    /// descriptor, differ from the snapshot's.
    package func changedSinceTaken() -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return true }
        return Int(info.st_size) != size || Self.milliseconds(info) != mtimeMs
    }

    /// Whether the file still holds `length` bytes whose SHA-1 (hex) is `sha1`, read again now in chunks through the
    /// same descriptor (not the mapping, which a shrunk file would fault on).
    package func stillHolds(length: Int, sha1: String) -> Bool {
        var hasher = SHA1()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < length {
            let n = buffer.withUnsafeMutableBytes { chunk -> Int in
                guard let base = chunk.baseAddress else { return 0 }
                return pread(descriptor, base, min(chunk.count, length - offset), off_t(offset))
            }
            if n <= 0 { return false }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += n
        }
        return SHA1.hex(hasher.finalize()) == sha1
    }

    /// A `stat`'s modification time in epoch ms.
    package static func milliseconds(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
    }
}
