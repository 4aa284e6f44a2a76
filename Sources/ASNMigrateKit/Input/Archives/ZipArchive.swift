import CZlib

/// Reads a zip archive member by member from its local headers, in order, streaming (so a zip on standard input
/// reads too): stored and deflate members (zlib raw inflate), with data descriptors and zip64 sizes.
///
/// Each member's bytes are held (`HeldBytes`) until its CRC-32 and size are checked; a member that fails them, is
/// encrypted or uses another compression method (bzip2, lzma, zstd …) is one `.rejected` naming it, and the next
/// member is read. Folders are passed over. Reading stops at the central directory. A local header that is not where
/// one should be, or a damaged member whose end cannot be found (no size before a data descriptor), is a failure of
/// the archive naming the byte offset: the members before it were read.
struct ZipArchive {
    /// The archive's bytes, read ahead.
    let buffer: SourceBuffer
    /// The archive's name in locations.
    let name: String

    /// Reads the archive in `buffer`, named `name`.
    init(_ buffer: SourceBuffer, name: String) {
        self.buffer = buffer
        self.name = name
    }

    /// What one step of reading found.
    private enum Step {
        /// The end of the members.
        case end
        /// A checked member and its bytes.
        case member(String, any ByteSource)
        /// A member that is not used, and why.
        case rejected(ASNError)
        /// A folder, passed over.
        case skipped
    }

    /// Calls `body` with every checked file member (its location name and bytes) and `rejected` with every member
    /// that fails, in order. Throws `InputMember.ReadFailure` when the archive is damaged, and whatever they throw.
    func forEachMember(_ body: (String, any ByteSource) throws -> Void, rejected: (ASNError) throws -> Void) throws {
        let inflater = RawInflater()
        while true {
            let step: Step
            do {
                step = try next(inflater)
            } catch {
                throw InputMember.ReadFailure(error, name: name)
            }
            switch step {
            case .end: return
            case .skipped: continue
            case .member(let member, let source): try body(member, source)
            case .rejected(let error): try rejected(error)
            }
        }
    }

    // MARK: - Members

    /// The fixed part of a local file header.
    private struct LocalHeader {
        /// General-purpose flags (bit 0: encrypted; bit 3: sizes and CRC in a data descriptor after the data).
        var flags: Int
        /// 0 stored, 8 deflate, others not read.
        var method: Int
        /// CRC-32 and sizes (zero when a data descriptor follows).
        var crc: UInt32, compressedSize: Int, size: Int
        /// Whether the sizes are zip64 (8 bytes in the data descriptor).
        var zip64 = false

        /// Whether a data descriptor follows the data.
        var hasDescriptor: Bool { flags & 0x08 != 0 }
    }

    /// Reads the next local header and its member.
    private func next(_ inflater: RawInflater) throws -> Step {
        let offset = buffer.position
        let signature = try buffer.peek(4)
        if signature.isEmpty { return .end }
        guard signature.count == 4, signature[0] == 0x50, signature[1] == 0x4B else {
            throw damaged("no zip header at byte offset \(offset)")
        }
        switch (signature[2], signature[3]) {
        case (3, 4): break
        case (1, 2), (5, 6), (6, 6), (6, 7): return .end // The central directory: every member has been read.
        default: throw damaged("no zip header at byte offset \(offset)")
        }
        let fixed = try buffer.read(30)
        guard fixed.count == 30 else { throw damaged("the archive ends inside the header at byte offset \(offset)") }
        var header = LocalHeader(
            flags: Self.u16(fixed, 6), method: Self.u16(fixed, 8), crc: UInt32(Self.u32(fixed, 14)),
            compressedSize: Self.u32(fixed, 18), size: Self.u32(fixed, 22))
        let nameBytes = try buffer.read(Self.u16(fixed, 26))
        let extra = try buffer.read(Self.u16(fixed, 28))
        guard nameBytes.count == Self.u16(fixed, 26), extra.count == Self.u16(fixed, 28) else {
            throw damaged("the archive ends inside the header at byte offset \(offset)")
        }
        readZip64(extra, into: &header)
        let path = String(decoding: nameBytes, as: UTF8.self)
        let member = name + ":" + path

        if path.hasSuffix("/") && header.compressedSize == 0 && !header.hasDescriptor { return .skipped }
        let cannot: String? =
            header.flags & 0x01 != 0
            ? "it is encrypted"
            : header.method != 0 && header.method != 8
                ? "it uses compression method \(header.method) (\(Self.methodName(header.method))), which asn-migrate does not read; only stored and deflate members are"
                : header.method == 0 && header.hasDescriptor && header.compressedSize == 0
                    ? "it is stored with a data descriptor, so its end cannot be found in a stream"
                    : nil
        if let cannot {
            guard !header.hasDescriptor else {
                throw damaged(
                    "member '\(ConsoleText.path(path))' (header at byte offset \(offset)) cannot be read: \(cannot), and the members after it cannot be found"
                )
            }
            guard try buffer.skip(header.compressedSize) == header.compressedSize else {
                throw damaged(
                    "the archive ends inside member '\(ConsoleText.path(path))' (header at byte offset \(offset))")
            }
            return .rejected(memberRejected(member, cannot))
        }

        let held = HeldBytes(memoryLimit: GzipByteSource.defaultHoldLimit)
        var crc = UInt32(0)
        if header.method == 0 {
            var copied = 0
            while copied < header.compressedSize {
                try buffer.fill(atLeast: 1)
                guard buffer.available > 0 else {
                    throw damaged(
                        "the archive ends inside member '\(ConsoleText.path(path))' (header at byte offset \(offset)): \(copied) of its \(header.compressedSize) bytes are in it, none was used"
                    )
                }
                let n = min(buffer.available, header.compressedSize - copied)
                let bytes = UnsafeRawBufferPointer(start: buffer.pending, count: n)
                crc = Self.crc32(crc, bytes)
                try held.append(bytes, name: member)
                buffer.consume(n)
                copied += n
            }
        } else {
            let start = buffer.position
            if let problem = try inflater.inflate(from: buffer, into: held, crc: &crc, name: member) {
                guard !header.hasDescriptor else {
                    throw damaged(
                        "member '\(ConsoleText.path(path))' (header at byte offset \(offset)) is damaged (\(problem)), and the members after it cannot be found"
                    )
                }
                let used = buffer.position - start
                guard used <= header.compressedSize,
                    try buffer.skip(header.compressedSize - used) == header.compressedSize - used
                else {
                    throw damaged(
                        "member '\(ConsoleText.path(path))' (header at byte offset \(offset)) is damaged (\(problem)) and the archive ends inside it"
                    )
                }
                return .rejected(
                    memberRejected(
                        member, "its compressed data is damaged (zlib: \(problem)); none of its data was used"))
            }
        }
        if header.hasDescriptor {
            let mark = try buffer.peek(4)
            if mark == [0x50, 0x4B, 0x07, 0x08] { buffer.consume(4) }
            let width = header.zip64 ? 8 : 4
            let descriptor = try buffer.read(4 + 2 * width)
            guard descriptor.count == 4 + 2 * width else {
                throw damaged("the archive ends inside the data descriptor of member '\(ConsoleText.path(path))'")
            }
            header.crc = UInt32(Self.u32(descriptor, 0))
            header.size = width == 8 ? Self.u64(descriptor, 4 + width) : Self.u32(descriptor, 4 + width)
        }
        guard crc == header.crc, held.count == header.size else {
            let what =
                crc != header.crc
                ? "its CRC-32 is \(Self.hex(crc)) where the archive says \(Self.hex(header.crc))"
                : "it holds \(held.count) bytes where the archive says \(header.size)"
            return .rejected(
                memberRejected(
                    member,
                    "\(what), so it is damaged; none of its data was used. Check the archive (for example with 'unzip -t') and restore a good copy"
                ))
        }
        return .member(member, HeldSource(held, name: member))
    }

    /// Takes the zip64 sizes from the extra field (id 1) when the header's are 0xFFFFFFFF.
    private func readZip64(_ extra: [UInt8], into header: inout LocalHeader) {
        var at = 0
        while at + 4 <= extra.count {
            let id = Self.u16(extra, at)
            let length = Self.u16(extra, at + 2)
            if id == 1 {
                header.zip64 = true
                var field = at + 4
                if header.size == 0xFFFF_FFFF, field + 8 <= extra.count {
                    header.size = Self.u64(extra, field)
                    field += 8
                }
                if header.compressedSize == 0xFFFF_FFFF, field + 8 <= extra.count {
                    header.compressedSize = Self.u64(extra, field)
                }
            }
            at += 4 + length
        }
    }

    // MARK: - Helpers

    /// A little-endian 16-bit number at `at`.
    private static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    /// A little-endian 32-bit number at `at`.
    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) | u16(bytes, at + 2) << 16 }

    /// A little-endian 64-bit number at `at` (sizes above `Int.max` are clamped).
    private static func u64(_ bytes: [UInt8], _ at: Int) -> Int {
        let high = u32(bytes, at + 4)
        return high >= 1 << 31 ? Int.max : u32(bytes, at) | high << 32
    }

    /// zlib's CRC-32 of `bytes`, continuing `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var value = UInt(crc)
        var at = 0
        while at < bytes.count {
            let n = min(bytes.count - at, Int(UInt32.max >> 1))
            value = CZlib.crc32(value, (base + at).assumingMemoryBound(to: Bytef.self), uInt(n))
            at += n
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// A CRC-32 as eight hex digits.
    private static func hex(_ value: UInt32) -> String {
        ByteTables.hexText(UInt64(value), digits: 8)
    }

    /// The name of a zip compression method.
    private static func methodName(_ method: Int) -> String {
        [9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd", 95: "xz", 98: "ppmd", 99: "AES encryption"][method]
            ?? "unknown"
    }

    /// The reject for a member that is not used.
    private func memberRejected(_ member: String, _ why: String) -> ASNError {
        ASNError(
            .unreadableInput, "zip member '\(ConsoleText.path(member))' is not read: \(why)",
            at: SourceLocation(path: member),
            group: "a zip member that is not read")
    }

    /// The error for a damaged archive.
    private func damaged(_ what: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "cannot read the zip archive '\(ConsoleText.path(name))': \(what); the members before it were read. Check the archive (for example with 'unzip -t') and restore a good copy",
            at: SourceLocation(path: name))
    }
}
