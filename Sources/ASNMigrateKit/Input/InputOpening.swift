import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input's one descriptor, shared by every copy of its `InputFile`: opened by the first look at its first bytes
/// (format detection, the swapped-sides check) or by the reader, whichever comes first. The bytes looked at are kept
/// and handed to the reader ahead of the rest of the same descriptor, so a FIFO or a device is opened once and loses
/// nothing to a look.
///
/// Regular files looked at in a sweep over many inputs would each hold a descriptor until read; past
/// `heldLimit` such descriptors a regular file's is closed after the look and opened again by the reader, which
/// checks it is still the same file (device and inode) and reads on after the bytes kept.
package final class InputOpening: @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `lock`.

    /// Guards everything below.
    private let lock = NSLock()
    /// The open descriptor, or -1.
    private var fd: Int32 = -1
    /// Whether `fd` is a regular file (which may be closed between a look and the read).
    private var regular = false
    /// Device and inode of the file looked at, to check a reopened regular file against.
    private var identity: (device: UInt64, inode: UInt64)?
    /// Bytes read by looks and not yet handed to a reader.
    private var head: [UInt8] = []
    /// Whether a look reached the end of the input.
    private var headIsAll = false

    /// How many descriptors of regular files looked at may stay open until they are read, process-wide.
    static let heldLimit = 64
    /// Descriptors of regular files held open after a look, process-wide (guarded by `heldLock`).
    nonisolated(unsafe) private static var held = 0
    /// Guards `held`.
    private static let heldLock = NSLock()

    /// A closed opening.
    package init() {}

    deinit {
        if fd >= 0 {
            systemClose(fd)
            if regular { Self.changeHeld(by: -1) }
        }
    }

    // MARK: - Looking

    /// Up to `count` first bytes of `file` (fewer at its end), opening it if it is not open yet; the bytes stay
    /// kept for the reader. Throws `.unreadableInput` when it cannot be opened or read.
    func look(_ file: InputFile, count: Int) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if head.count < count && !headIsAll {
            let opened = fd < 0
            if opened { try reopen(file) }
            var chunk = [UInt8](repeating: 0, count: count - head.count)
            var filled = 0
            while filled < chunk.count {
                let n = chunk.withUnsafeMutableBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return systemRead(fd, base + filled, buffer.count - filled)
                }
                if n < 0 { throw ByteSourceErrors.readFailed(file.path, errno: errno) }
                if n == 0 {
                    headIsAll = true
                    break
                }
                filled += n
            }
            head += chunk[0..<filled]
            if regular && opened && Self.changeHeld(by: 1) > Self.heldLimit {
                Self.changeHeld(by: -1)
                systemClose(fd)
                fd = -1
            }
        }
        return Array(head.prefix(count))
    }

    // MARK: - Reading

    /// The input's bytes for the reader: the bytes looked at, then the rest of the same descriptor (or of the same
    /// file opened again, checked by device and inode). The opening is closed again afterwards, so a second reading
    /// of a regular file starts over.
    func take(_ file: InputFile) throws -> PlainByteSource {
        lock.lock()
        defer { lock.unlock() }
        defer {
            head = []
            headIsAll = false
            identity = nil
        }
        if fd < 0 {
            try reopen(file)
        } else if regular {
            Self.changeHeld(by: -1)
        }
        let source = PlainByteSource(
            descriptor: fd, owned: file.descriptor == nil, name: file.path, prefix: head, prefixIsAll: headIsAll)
        fd = -1
        return source
    }

    // MARK: - Private

    /// Opens `file` (or takes its descriptor) and notes whether it is a regular file and which one.
    private func open(_ file: InputFile) throws {
        if let descriptor = file.descriptor {
            fd = descriptor
        } else {
            let opened = systemOpen(file.path)
            guard opened >= 0 else { throw InputPaths.unreadable(file.path, errno: errno) }
            fd = opened
        }
        var info = stat()
        regular = file.descriptor == nil && fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        identity = regular ? (UInt64(info.st_dev), UInt64(info.st_ino)) : nil
    }

    /// Opens `file` when its descriptor was closed after a look (or never opened); when bytes are kept from an
    /// earlier opening, checks it is still the same file and reads on after them.
    private func reopen(_ file: InputFile) throws {
        let before = identity
        try open(file)
        guard let before, !head.isEmpty else { return }
        guard let now = identity, now == before else {
            systemClose(fd)
            fd = -1
            throw ASNError(
                .unreadableInput,
                "input '\(ConsoleText.path(file.path))' was replaced while it was being read; run again once nothing replaces it",
                at: SourceLocation(path: file.path))
        }
        if lseek(fd, off_t(head.count), SEEK_SET) < 0 {
            let code = errno
            systemClose(fd)
            fd = -1
            throw ByteSourceErrors.readFailed(file.path, errno: code)
        }
    }

    /// Adds `delta` to the count of held regular-file descriptors and returns the new count.
    @discardableResult
    private static func changeHeld(by delta: Int) -> Int {
        heldLock.lock()
        defer { heldLock.unlock() }
        held += delta
        return held
    }
}
