#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory `flock(2)` on a lock file beside an output, held for a whole run so two runs never write the same output.
///
/// The holder writes its pid into the lock file; a second `acquire` of the same file fails at once with
/// `ASNError(.locked, …)` naming that pid. The kernel drops the lock when the holder exits, however it dies, so a lock
/// left by a killed process never blocks: only the `flock` decides, never the pid text. The lock file stays after the
/// run (it is empty then); deleting it while a run holds it would let a third run lock a fresh file, so it is never removed.
package final class RunLock {
    /// The lock file's path.
    package let path: String

    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    // MARK: - Acquiring

    /// Takes the lock at `lockPath` (created with its parent directories when missing), or throws `.locked` at once.
    package static func acquire(_ lockPath: String) throws(ASNError) -> RunLock {
        try FileSystem.createDirectories(FileSystem.parentDirectory(of: lockPath))
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else { throw FileSystem.failure("open the lock file", lockPath, errno) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let holder = code == EWOULDBLOCK ? holderPid(descriptor) : nil
            _ = close(descriptor)
            guard code == EWOULDBLOCK else { throw FileSystem.failure("lock", lockPath, code) }
            let who = holder.map { "process \($0)" } ?? "another process (its pid is not written yet)"
            throw ASNError(
                .locked,
                "another asn-migrate run (\(who)) is writing this output and holds the lock '\(lockPath)'; "
                    + "wait for it to finish and run again (a lock left by a killed process is released by the system)")
        }
        let lock = RunLock(path: lockPath, descriptor: descriptor)
        let pid = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0,
            pid.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == pid.count
        else {
            let code = errno
            lock.release()
            throw FileSystem.failure("write the pid into the lock file", lockPath, code)
        }
        return lock
    }

    /// The lock file for an output at `outputPath`: `.<name>.lock` in the same directory, so never inside a report folder.
    package static func lockPath(besideOutput outputPath: String) -> String {
        let trimmed = FileSystem.trimmingTrailingSlashes(outputPath)
        let name = ".\(FileSystem.lastComponent(of: trimmed)).lock"
        let parent = FileSystem.parentDirectory(of: trimmed)
        if parent == "/" { return "/" + name }
        return parent == "." && !trimmed.hasPrefix("./") ? name : parent + "/" + name
    }

    /// Whether `name` has the form of a lock file's name (`.NAME.lock`).
    package static func isLockName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".lock") && name.count >= ".x.lock".count
    }

    /// Whether a live process holds the lock at `lockPath`; false for a lock file left by a process that died (the
    /// kernel dropped its `flock`) or for something that is not a lock file.
    package static func isHeld(_ lockPath: String) -> Bool {
        let descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        guard FileSystem.fileType(lockPath) == S_IFREG else { return false }
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK
        }
        _ = flock(descriptor, LOCK_UN)
        return false
    }

    // MARK: - Releasing

    /// Empties the lock file and drops the lock; safe to call more than once.
    package func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        _ = close(descriptor)
        descriptor = -1
    }

    // MARK: - Internals

    /// The pid written by the current holder, if it has written one yet.
    private static func holderPid(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = bytes[0..<count].prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int32(String(decoding: digits, as: UTF8.self))
    }
}
