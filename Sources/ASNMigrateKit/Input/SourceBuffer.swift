/// A read-ahead buffer over another byte source, so that decompressors and archive readers can look at bytes before
/// using them (a format's magic bytes, a tar header, the rest of a zip member) and hand the unused ones on.
///
/// It is itself a `ByteSource`: bytes looked at but not consumed are read first, then the upstream's, straight into
/// the caller's buffer. `position` counts the bytes consumed from the start of the upstream, for error messages.
final class SourceBuffer: ByteSource {
    /// The name reported in errors.
    let name: String
    /// The source read from.
    let upstream: any ByteSource
    /// The buffer (`capacity` bytes); unread bytes start at `start`.
    private let storage: UnsafeMutableRawPointer
    /// The buffer size.
    let capacity: Int
    /// Where unread bytes start in `storage`, and how many there are.
    private var start = 0
    /// How many read-ahead bytes are not yet consumed.
    private(set) var available = 0
    /// Bytes read from the upstream so far.
    private var bytesRead = 0
    /// Whether the upstream has reported its end.
    private(set) var atEnd = false
    /// A failure of the upstream met while reading ahead, thrown once the bytes before it are used.
    private var deferredFailure: (any Error)?

    /// Reads `upstream` ahead by up to `capacity` bytes (at least 4 KiB); reports errors under `name`.
    init(_ upstream: any ByteSource, name: String? = nil, capacity: Int = 256 * 1024) {
        self.upstream = upstream
        self.name = name ?? upstream.name
        self.capacity = max(4096, capacity)
        storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 64)
    }

    deinit { storage.deallocate() }

    // MARK: - Looking ahead

    /// The first unread byte.
    var pending: UnsafeMutableRawPointer { storage + start }

    /// The unread bytes as a buffer.
    var pendingBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pending, count: available) }

    /// The offset, from the start of the upstream, of the first unread byte.
    var position: Int { bytesRead - available }

    /// Reads until at least `minimum` bytes (at most `capacity`) are unread or the upstream ends. A failure of the
    /// upstream after some bytes is kept until those bytes are used, so what came before it is read first.
    func fill(atLeast minimum: Int) throws {
        let wanted = min(minimum, capacity)
        if available == 0, let failure = deferredFailure {
            deferredFailure = nil
            throw failure
        }
        guard available < wanted, !atEnd else { return }
        if start > 0 {
            if available > 0 { storage.copyMemory(from: storage + start, byteCount: available) }
            start = 0
        }
        while available < wanted && !atEnd {
            let n: Int
            do {
                n = try upstream.readChunk(
                    into: UnsafeMutableRawBufferPointer(start: storage + available, count: capacity - available))
            } catch {
                guard available > 0 else { throw error }
                deferredFailure = error
                atEnd = true
                return
            }
            if n == 0 { atEnd = true }
            available += n
            bytesRead += n
        }
    }

    /// Up to `count` of the next bytes, without consuming them.
    func peek(_ count: Int) throws -> [UInt8] {
        try fill(atLeast: count)
        return Array(UnsafeRawBufferPointer(start: pending, count: min(count, available)))
    }

    /// Marks `n` unread bytes (at most `available`) as used.
    func consume(_ n: Int) {
        let n = min(n, available)
        start += n
        available -= n
    }

    /// Consumes and returns exactly `count` bytes, or fewer when the upstream ends first.
    func read(_ count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(count, capacity))
        while out.count < count {
            try fill(atLeast: min(count - out.count, capacity))
            if available == 0 { break }
            let n = min(available, count - out.count)
            out.append(contentsOf: UnsafeRawBufferPointer(start: pending, count: n))
            consume(n)
        }
        return out
    }

    /// Consumes `count` bytes without keeping them; returns how many were there (fewer when the upstream ends first).
    func skip(_ count: Int) throws -> Int {
        var skipped = 0
        while skipped < count {
            if available == 0 {
                try fill(atLeast: 1)
                if available == 0 { break }
            }
            let n = min(available, count - skipped)
            consume(n)
            skipped += n
        }
        return skipped
    }

    // MARK: - ByteSource

    /// Hands out the read-ahead bytes first, then reads the upstream straight into `buffer`.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if available > 0 {
            let n = min(available, buffer.count)
            out.copyMemory(from: pending, byteCount: n)
            consume(n)
            return n
        }
        if let failure = deferredFailure {
            deferredFailure = nil
            throw failure
        }
        guard !atEnd else { return 0 }
        let n = try upstream.readChunk(into: buffer)
        if n == 0 { atEnd = true }
        bytesRead += n
        return n
    }

    /// Closes the upstream.
    func close() {
        upstream.close()
        available = 0
        atEnd = true
    }

    /// The upstream's trouble at its end, if any.
    var endProblem: ASNError? { upstream.endProblem }
}
