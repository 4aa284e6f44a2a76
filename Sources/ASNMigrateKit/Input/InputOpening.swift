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
/// Regular files looked at in a sweep over many inputs would each hold a descriptor and the bytes looked at until
/// read; past `heldLimit` such descriptors a regular file's is closed after the look and its bytes let go, and the
/// reader opens it afresh (a regular file reads the same twice; FIFOs and devices are always kept open).
package final class InputOpening: @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `lock`.

    /// Guards everything below.
    private let lock = NSLock()
    /// The open descriptor, or -1.
    private var fd: Int32 = -1
    /// Whether `fd` is a regular file (which may be closed between a look and the read).
    private var regular = false
    /// Bytes read by looks and not yet handed to a reader.
    private var head: [UInt8] = []
    /// Whether a look reached the end of the input.
    private var headIsAll = false
    /// A regular file's descriptor opened by the caller (`FileSnapshot`) and its first `length` bytes, the only bytes
    /// read: with `pread` from `position`, so the descriptor's own offset never moves and the file is never opened
    /// by its path. The caller keeps and closes the descriptor.
    private var window: (descriptor: Int32, length: Int)?
    /// How many bytes of `window` the looks have read.
    private var position = 0

    /// How many descriptors of regular files looked at may stay open until they are read, process-wide.
    static let heldLimit = 64
    /// Descriptors of regular files held open after a look, process-wide (guarded by `heldLock`).
    nonisolated(unsafe) private static var held = 0
    /// Guards `held`.
    private static let heldLock = NSLock()

    /// A closed opening.
    package init() {}

    /// Reads the first `length` bytes of `descriptor`, a regular file the caller opened and keeps open, instead of
    /// opening the input's path: whatever is appended or replaced at the path after the caller's snapshot is not read.
    func adopt(descriptor: Int32, length: Int) {
        lock.lock()
        defer { lock.unlock() }
        window = (descriptor, max(0, length))
    }

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
            if opened { try open(file) }
            var chunk = [UInt8](repeating: 0, count: count - head.count)
            var filled = 0
            while filled < chunk.count {
                let n = chunk.withUnsafeMutableBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return readSome(into: base + filled, count: buffer.count - filled)
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
                // Past the limit, neither the descriptor nor the bytes are kept (a sweep over thousands of files
                // must not hold 64 KiB each): the reader opens the file afresh and reads it from its start.
                Self.changeHeld(by: -1)
                systemClose(fd)
                fd = -1
                let looked = Array(head.prefix(count))
                head = []
                headIsAll = false
                return looked
            }
        }
        return Array(head.prefix(count))
    }

    // MARK: - Reading

    /// The input's bytes for the reader: the bytes looked at, then the rest of the same descriptor (a regular file
    /// looked at past `heldLimit` is opened again here, from its start). The opening is closed again afterwards, so
    /// a second reading of a regular file starts over.
    func take(_ file: InputFile) throws -> PlainByteSource {
        lock.lock()
        defer { lock.unlock() }
        defer {
            head = []
            headIsAll = false
        }
        if fd < 0 {
            try open(file)
        } else if regular {
            Self.changeHeld(by: -1)
        }
        let source = PlainByteSource(
            descriptor: fd, owned: file.descriptor == nil && window == nil, name: file.path, prefix: head,
            prefixIsAll: headIsAll, window: window.map { (position, $0.length) })
        fd = -1
        return source
    }

    // MARK: - Private

    /// Opens `file` (or takes its descriptor) and notes whether it is a regular file.
    private func open(_ file: InputFile) throws {
        position = 0
        if let window {
            // Kept open, like a FIFO: closing it would leave nothing to read the same bytes from.
            fd = window.descriptor
            regular = false
            return
        }
        if let descriptor = file.descriptor {
            fd = descriptor
        } else {
            let opened = systemOpen(file.path)
            guard opened >= 0 else { throw InputPaths.unreadable(file.path, errno: errno) }
            fd = opened
        }
        var info = stat()
        regular = file.descriptor == nil && fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads up to `count` bytes for a look: from the window at `position`, or from the descriptor's offset.
    private func readSome(into base: UnsafeMutableRawPointer, count: Int) -> Int {
        guard let window else { return systemRead(fd, base, count) }
        let n = pread(fd, base, min(count, window.length - position), off_t(position))
        if n > 0 { position += n }
        return n
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
