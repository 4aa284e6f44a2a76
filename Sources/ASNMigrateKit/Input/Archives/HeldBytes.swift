#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes held back until they are known to be good (a gzip member's, until its checksum passes), then handed out in
/// order: the first `memoryLimit` bytes in memory, the rest in an unnamed temporary file in `TMPDIR` (unlinked at once,
/// so the system removes it when it is closed), so holding a member of any size costs bounded memory.
final class HeldBytes {
    /// How many bytes are kept in memory before the rest goes to the temporary file.
    let memoryLimit: Int
    /// The bytes held in memory.
    private var memory: [UInt8] = []
    /// The temporary file for the bytes beyond `memoryLimit`, once needed.
    private var spill: UnsafeMutablePointer<FILE>?
    /// How many bytes the temporary file holds.
    private var spilled = 0
    /// How many bytes have been handed out by `read`.
    private var handedOut = 0
    /// How many line feeds the held bytes contain.
    private(set) var lineFeeds = 0

    /// Holds up to `memoryLimit` bytes in memory.
    init(memoryLimit: Int) {
        self.memoryLimit = max(1, memoryLimit)
    }

    deinit {
        if let spill { fclose(spill) }
    }

    /// How many bytes are held in all.
    var count: Int { memory.count + spilled }

    /// How many held bytes `read` has still to hand out.
    var remaining: Int { count - handedOut }

    /// Holds `bytes`; throws `.unreadableInput` naming `name` when the temporary file cannot be written.
    func append(_ bytes: UnsafeRawBufferPointer, name: String) throws {
        guard bytes.count > 0 else { return }
        for byte in bytes where byte == 0x0A { lineFeeds += 1 }
        let intoMemory = spill == nil ? min(bytes.count, memoryLimit - memory.count) : 0
        if intoMemory > 0 { memory.append(contentsOf: bytes[0..<intoMemory]) }
        guard intoMemory < bytes.count, let base = bytes.baseAddress else { return }
        if spill == nil { spill = try Self.temporaryFile(name) }
        let rest = bytes.count - intoMemory
        guard let spill, fwrite(base + intoMemory, 1, rest, spill) == rest else { throw Self.failure(name) }
        spilled += rest
    }

    /// Hands out the next held bytes into `out`; returns how many (0 once all are handed out).
    func read(into out: UnsafeMutableRawPointer, count wanted: Int) throws -> Int {
        guard remaining > 0, wanted > 0 else { return 0 }
        if handedOut < memory.count {
            let n = min(wanted, memory.count - handedOut)
            memory.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { out.copyMemory(from: base + handedOut, byteCount: n) }
            }
            handedOut += n
            return n
        }
        guard let spill else { return 0 }
        if handedOut == memory.count {
            fflush(spill)
            rewind(spill)
        }
        let n = fread(out, 1, min(wanted, remaining), spill)
        guard n > 0 else {
            throw ASNError(
                .unreadableInput,
                "cannot read back held input from the temporary file; check the space in the temporary folder (TMPDIR)")
        }
        handedOut += n
        return n
    }

    /// Forgets every held byte (keeping the memory's capacity) for the next member.
    func reset() {
        memory.removeAll(keepingCapacity: true)
        if let spill { fclose(spill) }
        spill = nil
        spilled = 0
        handedOut = 0
        lineFeeds = 0
    }

    /// A new temporary file in `TMPDIR` (else `/tmp`), removed from its folder at once so the system deletes it when
    /// it is closed, however the run ends (`tmpfile` would ignore `TMPDIR`).
    private static func temporaryFile(_ name: String) throws -> UnsafeMutablePointer<FILE> {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/.asn-migrate-held-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw failure(name) }
        template.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { unlink(base) }
        }
        guard let file = fdopen(fd, "w+") else {
            close(fd)
            throw failure(name)
        }
        return file
    }

    /// The error for a temporary file that cannot be made or written.
    private static func failure(_ name: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "cannot hold the decompressed data of '\(ConsoleText.path(name))' until its gzip checksum is checked: the temporary file cannot be written (\(String(cString: strerror(errno)))); "
                + "free space in the temporary folder (TMPDIR) or point TMPDIR elsewhere",
            at: SourceLocation(path: name))
    }
}
