/// Reads a tar archive (POSIX ustar, pax, GNU; plain or inside gzip or zstd) member by member, in order, streaming.
///
/// Regular-file members are handed on, named `archive.tar:member/path`; folders, links and devices are passed over.
/// Long names come from GNU `L` members or pax `path` records, sizes from the header (octal or GNU base-256) or a pax
/// `size` record. Each member's bytes are held (`HeldBytes`) until all of them have arrived, so a member cut short by
/// the end of the archive gives no record. A header whose checksum fails, or an archive that ends inside a member, is a
/// failure of the archive naming the byte offset: the members before it were read.
struct TarArchive {
    /// The archive's bytes (decompressed), read ahead.
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
        /// The end of the archive.
        case end
        /// A regular-file member and its bytes.
        case member(String, any ByteSource)
    }

    /// Calls `body` with every regular-file member (its location name and bytes), in order; `rejected` is never
    /// called (tar members have no check of their own) but keeps the shape of `ZipArchive`'s. Throws
    /// `InputMember.ReadFailure` when the archive is damaged, and whatever `body` throws.
    func forEachMember(_ body: (String, any ByteSource) throws -> Void, rejected: (ASNError) throws -> Void) throws {
        var pending = Pending()
        while true {
            let step: Step
            do {
                step = try next(&pending)
            } catch {
                throw InputMember.ReadFailure(error, name: name)
            }
            switch step {
            case .end: return
            case .member(let member, let source): try body(member, source)
            }
        }
    }

    // MARK: - Headers

    /// What extension headers said about the next member.
    private struct Pending {
        /// Its path, from a GNU `L` member or a pax `path` record.
        var path: String?
        /// Its size, from a pax `size` record.
        var size: Int?
    }

    /// Reads headers up to the next regular-file member and holds its bytes.
    private func next(_ pending: inout Pending) throws -> Step {
        while true {
            let offset = buffer.position
            let block = try buffer.read(TarHeader.blockSize)
            if block.isEmpty { return .end }
            guard block.count == TarHeader.blockSize else {
                throw damaged(
                    "the archive ends inside the header at byte offset \(offset) (\(block.count) of 512 bytes)")
            }
            let header = TarHeader(block: block)
            if header.isZero { return .end }
            guard header.checksumMatches else {
                throw damaged("the header at byte offset \(offset) fails its checksum")
            }
            guard let headerSize = header.size else {
                throw damaged("the header at byte offset \(offset) has an unreadable size")
            }
            let size = header.isRegularFile ? (pending.size ?? headerSize) : headerSize
            switch header.typeFlag {
            case UInt8(ascii: "L"):
                pending.path = TarHeader.text(try data(size, of: "a long name", at: offset)[...])
            case UInt8(ascii: "x"):
                readPax(try data(size, of: "a pax header", at: offset), into: &pending)
            case _ where header.isRegularFile:
                let path = pending.path ?? header.path
                pending = Pending()
                let member = name + ":" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
                let held = HeldBytes(memoryLimit: GzipByteSource.defaultHoldLimit)
                var copied = 0
                while copied < size {
                    try buffer.fill(atLeast: 1)
                    guard buffer.available > 0 else {
                        throw damaged(
                            "member '\(ConsoleText.path(path))' (header at byte offset \(offset)) is cut short: \(copied) of its \(size) bytes are in the archive, none was used"
                        )
                    }
                    let n = min(buffer.available, size - copied)
                    try held.append(UnsafeRawBufferPointer(start: buffer.pending, count: n), name: member)
                    buffer.consume(n)
                    copied += n
                }
                _ = try buffer.skip(Self.padding(size))
                return .member(member, HeldSource(held, name: member))
            default:
                // Folders, links, devices, GNU volume headers, pax global headers: passed over.
                if header.typeFlag != UInt8(ascii: "K") { pending = Pending() }
                _ = try data(size, of: "a member", at: offset, keep: false)
            }
        }
    }

    /// The `size` bytes after a header (and their padding); throws when the archive ends first.
    private func data(_ size: Int, of what: String, at offset: Int, keep: Bool = true) throws -> [UInt8] {
        let padded = size + Self.padding(size)
        if keep {
            guard size <= 1 << 20 else { throw damaged("\(what) at byte offset \(offset) claims \(size) bytes") }
            let bytes = try buffer.read(size)
            guard bytes.count == size else { throw damaged("the archive ends inside \(what) at byte offset \(offset)") }
            _ = try buffer.skip(padded - size)
            return bytes
        }
        guard try buffer.skip(padded) == padded || size == 0 else {
            throw damaged("the archive ends inside \(what) at byte offset \(offset)")
        }
        return []
    }

    /// Reads the `path` and `size` records of a pax extended header (`LENGTH KEY=VALUE\n` each).
    private func readPax(_ bytes: [UInt8], into pending: inout Pending) {
        var rest = bytes[...]
        while let space = rest.firstIndex(of: 0x20),
            let length = Int(String(decoding: rest[rest.startIndex..<space], as: UTF8.self)),
            length > 0, rest.count >= length
        {
            let record = rest[(space + 1)..<(rest.startIndex + length)]
            rest = rest[(rest.startIndex + length)...]
            guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: record[record.startIndex..<equals], as: UTF8.self)
            var value = record[(equals + 1)...]
            if value.last == 0x0A { value = value.dropLast() }
            if key == "path" { pending.path = String(decoding: value, as: UTF8.self) }
            if key == "size", let size = Int(String(decoding: value, as: UTF8.self)) { pending.size = size }
        }
    }

    /// Bytes of padding after `size` bytes of data, up to the next 512-byte block.
    private static func padding(_ size: Int) -> Int {
        (TarHeader.blockSize - size % TarHeader.blockSize) % TarHeader.blockSize
    }

    /// The error for a damaged archive.
    private func damaged(_ what: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "cannot read the tar archive '\(ConsoleText.path(name))': \(what); the members before it were read. Check the archive (for example with 'tar -tvf') and restore a good copy",
            at: SourceLocation(path: name))
    }
}
