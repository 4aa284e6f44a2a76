import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state database as a file: where it really is, whether it is this tool's, how a new one comes into being, and
/// the lock on its identity. Everything here looks before it writes: a file that is not a state is never opened for
/// writing, so it is left byte for byte as it was.
package enum StateFile {
    /// `PRAGMA application_id` of a state database: "ASNM".
    package static let applicationId: Int32 = 0x4153_4E4D

    /// What an existing path holds, found without writing to it.
    package enum Found: Equatable {
        /// Nothing: a first night creates the state.
        case absent
        /// A 0-byte file with no write-ahead log to recover: a first night killed before it wrote anything (by a
        /// release before the state was created by rename), or a truncated file.
        case empty
        /// This tool's state; `stamped` is false for one written before states carried their `application_id`.
        case state(stamped: Bool)
    }

    // MARK: - Where it is

    /// The state's real path: symbolic links followed (a dangling one to where it points, so a first night creates
    /// the file there) and the folder resolved, so every spelling of one state names one lock.
    package static func realPath(_ path: String) -> String {
        OutputPlan.canonicalPath((try? OutputTarget.followLinks(path)) ?? path)
    }

    // MARK: - Looking

    /// What `path` (a real path) holds; throws for a folder, a device or FIFO, a file that is not an SQLite
    /// database, or another program's SQLite database. Reads only: nothing at `path` is written.
    package static func inspect(_ path: String) throws(ASNError) -> Found {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return .absent }
            throw ASNError(
                .stateDatabase,
                "cannot examine the state file '\(path)': \(FileSystem.errnoText(code)); check the path and its folder's permissions",
                at: SourceLocation(path: path))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            throw ASNError(
                .usage,
                "--state '\(path)' is a directory; --state names the state database file, such as '\(FileSystem.trimmingTrailingSlashes(path))/state.sqlite'",
                at: SourceLocation(path: path))
        default:
            throw ASNError(
                .usage,
                "--state '\(path)' is not a regular file (a device, FIFO or socket); --state names the state database file",
                at: SourceLocation(path: path))
        }
        let header = try readHeader(path)
        // A 0-byte database beside a write-ahead log holds what that log committed: SQLite recovers it.
        if header.isEmpty, walSize(path) == 0 { return .empty }
        return try recognise(path, header: header)
    }

    /// Refuses a state this process may not write (the file, or the folder its `-wal` and `-shm` files go in): SQLite
    /// would open it read-only, leave those two files behind and fail at the night's first write.
    package static func checkWritable(_ path: String) throws(ASNError) {
        for (what, target) in [("state file", path), ("folder of the state file", FileSystem.parentDirectory(of: path))]
        where access(target, W_OK) != 0 {
            let code = errno
            throw ASNError(
                .stateDatabase,
                "the \(what) '\(target)' is not writable by this user (\(FileSystem.errnoText(code))); nightly writes its state every night: give the user running it write permission on the state file and its folder",
                at: SourceLocation(path: path))
        }
    }

    /// Refuses `header` unless it starts an SQLite database that is this tool's state: stamped with
    /// `applicationId`, or (written before the stamp) unstamped and holding the state's `meta`, `files` and `runs`.
    private static func recognise(_ path: String, header: [UInt8]) throws(ASNError) -> Found {
        if !header.isEmpty {
            guard header.count >= 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
                throw ASNError(
                    .stateDatabase,
                    "the state file '\(path)' is not an SQLite database; point --state at the state database, or move this file away to start a new state; the file is left unchanged",
                    at: SourceLocation(path: path))
            }
            let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if id == UInt32(bitPattern: applicationId) { return .state(stamped: true) }
            guard id == 0 else { throw foreign(path, "its application_id is \(id), not asn-migrate's") }
        }
        let tables = try tableNames(path)
        guard ["meta", "files", "runs"].allSatisfy(tables.contains) else {
            throw foreign(path, tables.isEmpty ? "it holds no tables" : "it has no asn-migrate state tables")
        }
        return .state(stamped: false)
    }

    /// The error for another program's SQLite database.
    private static func foreign(_ path: String, _ why: String) -> ASNError {
        ASNError(
            .stateDatabase,
            "the state file '\(path)' is an SQLite database but not an asn-migrate nightly state (\(why)); point --state at the state database, or at a new file to start one; the file is left unchanged",
            at: SourceLocation(path: path))
    }

    /// The first 100 bytes of `path` (fewer for a shorter file).
    private static func readHeader(_ path: String) throws(ASNError) -> [UInt8] {
        let descriptor = try openForReading(path, purpose: "")
        defer { _ = close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(
                    descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[count...]).baseAddress,
                    buffer.count - count, off_t(count))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return Array(bytes[0..<count])
    }

    /// A read-only descriptor of the state file, or the error naming it and `purpose` (such as " to lock it").
    private static func openForReading(_ path: String, purpose: String) throws(ASNError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw ASNError(
                .stateDatabase,
                "cannot open the state file '\(path)'\(purpose): \(FileSystem.errnoText(code)); check its permissions",
                at: SourceLocation(path: path))
        }
        return descriptor
    }

    /// The size of the write-ahead log beside `path` (0 when there is none).
    private static func walSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path + "-wal", &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The tables of the database at `path`, read through SQLite without writing anything: read-only, and immutable
    /// (no lock, no `-wal` or `-shm` file) when no write-ahead log is beside it.
    private static func tableNames(_ path: String) throws(ASNError) -> Set<String> {
        let database = try SQLiteDatabase(inspecting: path, immutable: walSize(path) == 0)
        defer { database.close() }
        var names: Set<String> = []
        do {
            try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").forEach { s in
                names.insert(s.text(0))
            }
        } catch {
            throw ASNError(
                .stateDatabase,
                "the state file '\(path)' cannot be read as an SQLite database (\(error.message)); point --state at the state database, or move this file away to start a new state; the file is left unchanged",
                at: SourceLocation(path: path))
        }
        return names
    }

    // MARK: - Creating

    /// Creates a state at `path` (a real path where nothing is, or a 0-byte file): a fresh database with the whole
    /// schema is written to a hidden sibling, synced and renamed into place, so a run killed at any moment leaves
    /// either no state or a whole one, never an empty file.
    package static func create(_ path: String) throws(ASNError) {
        FileSystem.removeStaleSiblings(of: path, tag: "new")
        let fresh = FileSystem.hiddenSibling(of: path, tag: "new")
        do {
            let database = try SQLiteDatabase(path: fresh)
            defer { database.close() }
            try StateSchema.create(database)
        } catch {
            unlink(fresh)
            unlink(fresh + "-journal")
            throw error
        }
        let descriptor = open(fresh, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            _ = close(descriptor)
        }
        guard rename(fresh, path) == 0 else {
            let code = errno
            unlink(fresh)
            throw FileSystem.failure("move the new state database into", path, code)
        }
        FileSystem.syncDirectory(FileSystem.parentDirectory(of: path))
    }

    // MARK: - Locking

    /// An exclusive `flock(2)` on the state file itself, held for the run: the lock beside the state is named by its
    /// path, so a second name for the same file (a hard link in another folder) takes another lock file, but both
    /// runs meet here, on the one inode. SQLite's own locks are `fcntl` locks, which `flock` does not touch.
    package final class IdentityLock {
        private var descriptor: Int32

        /// Takes the lock on the file at `path`, or throws `.locked` at once when another run holds it.
        package init(_ path: String) throws(ASNError) {
            let descriptor = try StateFile.openForReading(path, purpose: " to lock it")
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                _ = close(descriptor)
                guard code == EWOULDBLOCK else {
                    throw ASNError(
                        .stateDatabase, "cannot lock the state file '\(path)': \(FileSystem.errnoText(code))",
                        at: SourceLocation(path: path))
                }
                throw ASNError(
                    .locked,
                    "another asn-migrate run holds the state file '\(path)' (under another name: a hard link); wait for it to finish and run again (a lock left by a killed process is released by the system)"
                )
            }
            self.descriptor = descriptor
        }

        deinit {
            release()
        }

        /// Drops the lock; safe to call more than once.
        package func release() {
            guard descriptor >= 0 else { return }
            _ = flock(descriptor, LOCK_UN)
            _ = close(descriptor)
            descriptor = -1
        }
    }
}
