import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a gzip file or descriptor through zlib's `inflate`, member after member, and passes other bytes from a
/// pipe through unchanged (a pipe cannot be peeked at, so the choice is made here from its first two bytes).
///
/// After the last complete member: end of input, or all-zero padding (as tape and block devices add; ignored, as
/// `gzip -d` does), or anything else, which is trailing data: reading ends cleanly with `endProblem` naming the file
/// and the byte offset, so the records before it are read and the trailing bytes cost one reject. A corrupt or
/// truncated member (the first or a later one) throws `.unreadableInput` naming the offset where that member starts.
///
/// Compressed data is data only once verified: a member's decompressed bytes are held back (`HeldBytes`: in memory up
/// to `holdLimit`, the rest in an unnamed temporary file) until zlib has checked the member's CRC-32 and length, and
/// only then handed out. A member that fails its check hands out nothing, so no record of it can be output: damage
/// that still inflates (a flipped bit in a stored block or a literal) is caught by the checksum before any record is
/// split from it. The cost: a member's records reach the caller only after the whole member is read (one member of a
/// plain `gzip` file is the whole file), with memory bounded by `holdLimit` and temporary disk space up to the
/// member's decompressed size beyond it.
package final class GzipByteSource: ByteSource {
    /// The path reported in errors.
    package let name: String
    /// Trailing data found after the last complete gzip member, once reading has ended.
    package private(set) var endProblem: ASNError?

    /// Where reading stands.
    private enum Phase {
        case start, member, replay, betweenMembers, passThrough, done
    }

    /// The compressed bytes, read ahead.
    private let input: SourceBuffer
    /// Whether the source is closed.
    private var closed = false
    /// The zlib stream (at a fixed address, as zlib requires), once inflating has begun.
    private var stream: UnsafeMutablePointer<z_stream>?
    /// Where reading stands.
    private var phase = Phase.start
    /// The byte offset where the current member starts, and how many members came before it.
    private var memberStart = 0, membersBefore = 0

    /// The current member's decompressed bytes, held until its checksum passes.
    private let held: HeldBytes
    /// Where zlib writes decompressed bytes before they are held (`inputSize` bytes).
    private let scratch: UnsafeMutableRawPointer

    /// The compressed-input buffer size.
    private static let inputSize = 256 * 1024
    /// How many decompressed bytes of a member are held in memory before the rest goes to a temporary file.
    package static let defaultHoldLimit = 32 << 20

    /// Reads `fd`; closes it on `close()` only when `owned`. A member's bytes beyond `holdLimit` wait in a temporary file.
    package convenience init(descriptor fd: Int32, owned: Bool, name: String, holdLimit: Int = defaultHoldLimit) throws
    {
        self.init(
            upstream: SourceBuffer(PlainByteSource(descriptor: fd, owned: owned, name: name)), name: name,
            holdLimit: holdLimit)
    }

    /// Decompresses the bytes of `upstream` (a file, or an archive member); byte offsets in errors count from its start.
    init(upstream: SourceBuffer, name: String, holdLimit: Int = defaultHoldLimit) {
        self.name = name
        input = upstream
        scratch = UnsafeMutableRawPointer.allocate(byteCount: Self.inputSize, alignment: 64)
        held = HeldBytes(memoryLimit: holdLimit)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    // MARK: - ByteSource

    /// Decompresses up to `buffer.count` bytes; throws `.unreadableInput` with zlib's message on a corrupt or
    /// truncated member, or a failed read.
    package func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !closed, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            switch phase {
            case .done:
                return 0
            case .start:
                try fill(atLeast: 2)
                if available == 0 {
                    phase = .done
                } else if startsMember() {
                    try beginMember()
                } else {
                    phase = .passThrough
                }
            case .passThrough:
                let n = try input.readChunk(into: buffer)
                if n == 0 { phase = .done }
                return n
            case .member:
                let produced = try inflateSome(into: scratch, count: Self.inputSize)
                try held.append(UnsafeRawBufferPointer(start: scratch, count: produced), name: name)
            case .replay:
                let n = try held.read(into: out, count: buffer.count)
                if n > 0 { return n }
                held.reset()
                phase = .betweenMembers
            case .betweenMembers:
                try fill(atLeast: 2)
                if available == 0 {
                    phase = .done
                } else if startsMember() {
                    membersBefore += 1
                    try beginMember()
                } else {
                    try endWithTrailingData()
                }
            }
        }
    }

    /// Ends the zlib stream and closes the descriptor if this source owns it.
    package func close() {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        stream = nil
        if !closed { input.close() }
        closed = true
        phase = .done
    }

    // MARK: - Members

    /// Inflates from the current member into `out`; returns the bytes produced (0: call again).
    private func inflateSome(into out: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard let stream else { return 0 }
        if available == 0 {
            try fill(atLeast: 1)
            if available == 0 { throw failure("unexpected end of file") }
        }
        stream.pointee.next_in = pending.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = uInt(available)
        stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(min(count, Int(UInt32.max)))
        let before = available
        let code = inflate(stream, Z_NO_FLUSH)
        consume(before - Int(stream.pointee.avail_in))
        let produced = min(count, Int(UInt32.max)) - Int(stream.pointee.avail_out)
        switch code {
        case Z_STREAM_END:
            // zlib has checked the trailer (CRC-32 and length): the held bytes are good.
            phase = .replay
        case Z_OK, Z_BUF_ERROR:
            break
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "inflate error \(code)"
            throw failure(message)
        }
        return produced
    }

    /// Starts inflating a member at the current position.
    private func beginMember() throws {
        memberStart = position
        if let stream {
            inflateReset(stream)
        } else {
            let fresh = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            fresh.initialize(to: z_stream())
            guard inflateInit2_(fresh, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                fresh.deinitialize(count: 1)
                fresh.deallocate()
                throw ByteSourceErrors.gzipFailed(name, zlibMessage: "cannot start decompressing (out of memory?)")
            }
            stream = fresh
        }
        phase = .member
    }

    /// After the last complete member: ignores all-zero padding to the end, or records the trailing data as `endProblem`.
    private func endWithTrailingData() throws {
        let offset = position
        var count = 0
        var allZero = true
        while true {
            if available == 0 {
                try fill(atLeast: 1)
                if available == 0 { break }
            }
            if allZero {
                let bytes = UnsafeRawBufferPointer(start: pending, count: available)
                allZero = !bytes.contains { $0 != 0 }
            }
            count += available
            consume(available)
        }
        phase = .done
        guard !allZero else { return }
        let members = membersBefore + 1
        endProblem = ByteSourceErrors.trailingData(
            name, count: count, offset: offset, format: "gzip", complete: members, part: "member", tool: "gzip -t")
    }

    /// The error for a member zlib cannot finish, naming where it starts.
    private func failure(_ zlibMessage: String) -> ASNError {
        var error = ByteSourceErrors.gzipFailed(name, zlibMessage: zlibMessage)
        let which = membersBefore == 0 ? "the gzip stream" : "gzip member \(membersBefore + 1)"
        error.message =
            "cannot read input '\(ConsoleText.path(name))': \(which) starting at byte offset \(memberStart) is corrupt or truncated"
            + (membersBefore == 0
                ? ""
                : " (the records of the \(membersBefore) member\(membersBefore == 1 ? "" : "s") before it were read)")
            + "; none of its data was used (\(held.count) byte\(held.count == 1 ? "" : "s") in \(held.lineFeeds) line\(held.lineFeeds == 1 ? "" : "s") decompressed before the failure, unverified)"
            + "; check the archive (for example with 'gzip -t') and restore a good copy"
        return error
    }

    // MARK: - Input buffer

    /// How many compressed bytes are read ahead and not yet used.
    private var available: Int { input.available }

    /// The first unread compressed byte.
    private var pending: UnsafeMutableRawPointer { input.pending }

    /// The byte offset in the file of the first unread compressed byte.
    private var position: Int { input.position }

    /// Whether the unread bytes start with the gzip magic 0x1f 0x8b.
    private func startsMember() -> Bool {
        available >= 2 && pending.load(as: UInt8.self) == 0x1f
            && pending.load(fromByteOffset: 1, as: UInt8.self) == 0x8b
    }

    /// Marks `n` unread bytes as used.
    private func consume(_ n: Int) {
        input.consume(n)
    }

    /// Reads until at least `minimum` bytes are unread or the input ends.
    private func fill(atLeast minimum: Int) throws {
        try input.fill(atLeast: minimum)
    }
}
