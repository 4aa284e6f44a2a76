import Foundation

/// `fetch`'s checkpoint, `DIR/.fetch-checkpoint.jsonl`: an append-only journal of every answer kept and every id
/// finished, from which the output folders are built and a re-run continues.
///
/// Each entry is one header line (a JSON object: `kind`, `environment`, `id`, `generation`, …, and `bytes`, the length
/// of the answer line that follows, when there is one) and then the answer body exactly as Apple sent it (raw line
/// breaks, which JSON allows only as whitespace, turned into spaces). An entry is appended with one write and synced
/// before the next request for its id, so a SIGKILL loses at most the requests in flight; a torn last entry is cut
/// off when the checkpoint is opened again. The name starts with a dot, so `reconcile --v2 DIR` never reads it.
///
/// `@unchecked Sendable`: appends and the entry list are guarded by `lock`; reads use pread on the same descriptor.
package final class FetchCheckpoint: @unchecked Sendable {
    /// The journal's file name inside the fetch folder.
    package static let fileName = FetchFolder.checkpointName

    /// One journal entry.
    package struct Entry: Sendable, Equatable {
        /// `run` (an `--update` generation begins), `history`, `statuses`, `statusesNotFound`, `notFound`, `done`,
        /// `covered` (not asked: a smaller id's answers already hold it), `notifications`, `notificationsDone`, `end`
        /// (a run finished every id).
        package var kind: String
        /// `Production` / `Sandbox`.
        package var environment: String = ""
        /// The originalTransactionId asked for (empty for notifications).
        package var id: String = ""
        /// 0 for the first fetch, one more for each `--update`.
        package var generation: Int = 0
        /// The revision (history) or pagination token (notifications) the request was made with.
        package var after: String?
        /// The revision Apple returned (history pages, `done`).
        package var revision: String?
        /// Whether Apple said more pages follow.
        package var hasMore: Bool?
        /// Apple's error code (`notFound`).
        package var errorCode: Int?
        /// The other originalTransactionIds the id's answers hold (`done`: the same customer's), or the id that
        /// held this one (`covered`).
        package var covers: [String] = []
        /// The notification history's start (epoch ms).
        package var startDate: Int64?
        /// The notification history's end (epoch ms).
        package var endDate: Int64?
        /// The night an `--update` generation was begun for (`run`, by `nightly --fetch`): another night begins its own.
        package var night: String?
        /// Where the answer body starts in the journal.
        package var bodyOffset: Int = 0
        /// The answer body's length.
        package var bodyLength: Int = 0

        /// Creates an entry.
        package init(kind: String, environment: String = "", id: String = "", generation: Int = 0) {
            self.kind = kind
            self.environment = environment
            self.id = id
            self.generation = generation
        }
    }

    /// The journal's path.
    package let path: String
    /// Every complete entry, in order.
    package private(set) var entries: [Entry] = []
    /// The descriptor appended to.
    private let descriptor: Int32
    /// Bytes in the file.
    private var size: Int
    /// Serialises appends.
    private let lock = NSLock()

    /// Opens (or creates) the journal in `directory`, reading its entries and cutting off a torn last one.
    package init(directory: String) throws(ASNError) {
        path = (directory.hasSuffix("/") ? directory : directory + "/") + Self.fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.failure("open the fetch checkpoint", path, errno) }
        descriptor = fd
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw FileSystem.failure("read the fetch checkpoint", path, errno)
        }
        // Mapped, not read: a large fetch's journal holds every answer, and only its header lines are parsed here.
        let length = Int(info.st_size)
        var parsed: (entries: [Entry], complete: Int) = ([], 0)
        if length > 0 {
            guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
                close(fd)
                throw FileSystem.failure("read the fetch checkpoint", path, errno)
            }
            parsed = Self.parse(UnsafeRawBufferPointer(start: mapped, count: length))
            munmap(mapped, length)
        }
        let complete = parsed.complete
        self.entries = parsed.entries
        if complete < length {
            guard ftruncate(fd, off_t(complete)) == 0 else {
                close(fd)
                throw FileSystem.failure("cut the torn end off the fetch checkpoint", path, errno)
            }
        }
        size = complete
        guard lseek(fd, off_t(complete), SEEK_SET) >= 0 else {
            close(fd)
            throw FileSystem.failure("seek in the fetch checkpoint", path, errno)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Appends `entry` with its answer `body`, whole, and syncs it to disk.
    package func append(_ entry: Entry, body: [UInt8]? = nil) throws(ASNError) {
        var header = JSONObjectBuilder()
        header.add("kind", entry.kind)
        if !entry.environment.isEmpty { header.add("environment", entry.environment) }
        if !entry.id.isEmpty { header.add("id", entry.id) }
        header.add("generation", entry.generation)
        header.add("after", entry.after)
        header.add("revision", entry.revision)
        header.add("hasMore", entry.hasMore)
        header.add("errorCode", entry.errorCode)
        if !entry.covers.isEmpty { header.add("covers", json: .array(entry.covers.map { .string($0) })) }
        header.add("startDate", entry.startDate)
        header.add("endDate", entry.endDate)
        header.add("night", entry.night)
        let line = body.map(Self.oneLine)
        if let line { header.add("bytes", line.count) }
        var record = JSONWriter.bytes(.object(header.object))
        record.append(0x0A)
        let headerLength = record.count
        if let line {
            record += line
            record.append(0x0A)
        }
        lock.lock()
        defer { lock.unlock() }
        try FileSystem.writeAll(descriptor, record, path: path, using: FileSystem.systemWrite)
        guard fdatasync(descriptor) == 0 else { throw FileSystem.failure("sync the fetch checkpoint", path, errno) }
        var stored = entry
        if let line {
            stored.bodyOffset = size + headerLength
            stored.bodyLength = line.count
        }
        size += record.count
        entries.append(stored)
    }

    /// The answer body of `entry`, read back from the journal.
    package func body(of entry: Entry) throws(ASNError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: entry.bodyLength)
        var done = 0
        while done < entry.bodyLength {
            let n = bytes.withUnsafeMutableBytes { raw in
                pread(
                    descriptor, raw.baseAddress.map { $0 + done }, entry.bodyLength - done,
                    off_t(entry.bodyOffset + done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FileSystem.failure("read the fetch checkpoint", path, n < 0 ? errno : EIO) }
            done += n
        }
        return bytes
    }

    // MARK: - Reading

    /// The complete entries of `bytes` and the length of the complete part (anything after it is a torn append).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> (entries: [Entry], complete: Int) {
        var entries: [Entry] = []
        var offset = 0
        let parser = JSONParser()
        while offset < bytes.count {
            guard let end = bytes[offset...].firstIndex(of: 0x0A),
                let value = try? parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])),
                case .object(let object) = value,
                var entry = entry(object)
            else { break }
            var next = end + 1
            if case .number(let literal)? = object["bytes"], let length = Int(literal) {
                guard length >= 0, next + length < bytes.count, bytes[next + length] == 0x0A else { break }
                entry.bodyOffset = next
                entry.bodyLength = length
                next += length + 1
            }
            entries.append(entry)
            offset = next
        }
        return (entries, offset)
    }

    /// An entry from its header object.
    private static func entry(_ object: JSONObject) -> Entry? {
        let reader = V2FieldReader(object)
        guard let kind = reader.string("kind") else { return nil }
        var entry = Entry(
            kind: kind, environment: reader.string("environment") ?? "", id: reader.string("id") ?? "",
            generation: reader.int("generation") ?? 0)
        entry.after = reader.string("after")
        entry.revision = reader.string("revision")
        if case .bool(let value)? = object["hasMore"] { entry.hasMore = value }
        entry.errorCode = reader.int("errorCode")
        if case .array(let covers)? = object["covers"] { entry.covers = covers.compactMap(\.stringValue) }
        entry.startDate = reader.int64("startDate")
        entry.endDate = reader.int64("endDate")
        entry.night = reader.string("night")
        return entry
    }

    /// `body` on one line: CR and LF (only ever whitespace between JSON tokens) become spaces.
    static func oneLine(_ body: [UInt8]) -> [UInt8] {
        body.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
    }
}
