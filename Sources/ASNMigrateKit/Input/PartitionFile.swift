#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file format `asn-migrate partition` writes: the items a `RecordReader` split from the original inputs, each
/// with its original location, so that reading a partition gives every reader the very records (bytes and
/// locations) and broken items reading the originals gave, and reports name the original files and lines.
///
/// Layout: the magic `ASNPART1`, then entries one after another. An entry is a kind byte (`R` a record, `B` a broken
/// item), the location (path, line + 1 or 0, index + 1 or 0), then a record's byte count and bytes, or a broken
/// item's code, message, key, cause and group (each optional text is 0, or its byte count + 1, then its bytes). Counts
/// are LEB128 varints (`Varint`). A partition file may be gzip-compressed as a whole; readers find either by its
/// first bytes.
package enum PartitionFile {
    /// The first bytes of every partition file.
    package static let magic: [UInt8] = Array("ASNPART1".utf8)

    /// Appends `item`'s entry to `out`.
    package static func append(_ item: InputItem, to out: inout [UInt8]) {
        switch item {
        case .record(let record):
            out.append(UInt8(ascii: "R"))
            appendLocation(record.location, to: &out)
            Varint.append(UInt64(record.bytes.count), to: &out)
            out.append(contentsOf: record.bytes)
        case .broken(let error):
            out.append(UInt8(ascii: "B"))
            appendLocation(error.location ?? SourceLocation(path: ""), to: &out)
            appendText(error.code.rawValue, to: &out)
            appendText(error.message, to: &out)
            appendOptional(error.location?.key, to: &out)
            appendOptional(error.cause, to: &out)
            appendOptional(error.group, to: &out)
        }
    }

    /// Calls `body` with every item of the partition file whose bytes `source` gives (magic first), reading
    /// `chunkSize` bytes at a time. A file cut short or damaged ends with one broken item naming it.
    static func read(
        _ source: any ByteSource, name: String, chunkSize: Int = 1 << 20, _ body: (InputItem) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var pending: [UInt8] = []
        var start = 0
        var sawMagic = false
        var offset = 0
        while true {
            let count = try source.readChunk(into: buffer)
            if count == 0 { break }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if !sawMagic {
                guard pending.count >= magic.count else { continue }
                guard Array(pending[0..<magic.count]) == magic else { return try body(.broken(damaged(name, at: 0))) }
                sawMagic = true
                start = magic.count
            }
            while let (item, end) = entry(pending, at: start) {
                try body(item)
                start = end
            }
            if start > 0 && start >= pending.count / 2 {
                offset += start
                pending.removeFirst(start)
                start = 0
            }
        }
        if !sawMagic || start < pending.count {
            try body(.broken(damaged(name, at: offset + start)))
        }
    }

    /// The size and SHA-1 (hex) of the file at `path`, read 1 MiB at a time (not mapped: a partition file may be
    /// gigabytes, and mapped pages would count against the process's memory).
    package static func measure(_ path: String) throws(ASNError) -> (bytes: Int64, sha1: String) {
        let fd = systemOpen(path)
        guard fd >= 0 else { throw InputPaths.unreadable(path, errno: errno) }
        let source = PlainByteSource(descriptor: fd, owned: true, name: path)
        defer { source.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var hasher = SHA1()
        var total: Int64 = 0
        while true {
            let n: Int
            do {
                n = try source.readChunk(into: buffer)
            } catch {
                throw (error as? ASNError) ?? ASNError(.unreadableInput, ASNError.describe(error))
            }
            if n == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            total += Int64(n)
        }
        return (total, SHA1.hex(hasher.finalize()))
    }

    // MARK: - Private

    /// The error of a partition file that does not read to its end.
    private static func damaged(_ name: String, at byte: Int) -> ASNError {
        ASNError(
            .unreadableInput,
            "'\(ConsoleText.path(name))' is a partition file damaged or cut short at byte \(byte); run asn-migrate partition again for its slice",
            at: SourceLocation(path: name))
    }

    /// The entry starting at `start`, and where the next begins; nil when `bytes` end before it does (or it is damaged,
    /// which the caller tells by bytes left over at the end).
    private static func entry(_ bytes: [UInt8], at start: Int) -> (InputItem, Int)? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBytes { all -> (InputItem, Int)? in
            var reader = Varint.Reader(UnsafeRawBufferPointer(rebasing: all[start...]))
            guard let kind = reader.byte(), let path = text(&reader), let line = reader.next(),
                let index = reader.next()
            else { return nil }
            var location = SourceLocation(
                path: path, line: line == 0 ? nil : Int(line - 1), index: index == 0 ? nil : Int(index - 1))
            let item: InputItem
            switch kind {
            case UInt8(ascii: "R"):
                guard let count = reader.next(), let record = reader.bytes(count) else { return nil }
                item = .record(RawRecord(location: location, bytes: Array(record)))
            case UInt8(ascii: "B"):
                guard let codeText = text(&reader), let code = ASNError.Code(rawValue: codeText),
                    let message = text(&reader), let key = optional(&reader), let cause = optional(&reader),
                    let group = optional(&reader)
                else { return nil }
                location.key = key
                item = .broken(
                    ASNError(
                        code, message, at: path.isEmpty && location.line == nil ? nil : location, cause: cause,
                        group: group))
            default:
                return nil
            }
            return (item, start + reader.position)
        }
    }

    private static func appendLocation(_ location: SourceLocation, to out: inout [UInt8]) {
        appendText(location.path, to: &out)
        Varint.append(location.line.map { UInt64($0) + 1 } ?? 0, to: &out)
        Varint.append(location.index.map { UInt64($0) + 1 } ?? 0, to: &out)
    }

    private static func appendText(_ text: String, to out: inout [UInt8]) {
        Varint.append(UInt64(text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    private static func appendOptional(_ text: String?, to out: inout [UInt8]) {
        guard let text else { return Varint.append(0, to: &out) }
        Varint.append(UInt64(text.utf8.count) + 1, to: &out)
        out.append(contentsOf: text.utf8)
    }

    private static func text(_ reader: inout Varint.Reader) -> String? {
        guard let count = reader.next(), let bytes = reader.bytes(count) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An optional text: `.some(nil)` when absent, nil when the bytes end first.
    private static func optional(_ reader: inout Varint.Reader) -> String?? {
        guard let count = reader.next() else { return nil }
        guard count > 0 else { return .some(nil) }
        guard let bytes = reader.bytes(count - 1) else { return nil }
        return .some(String(decoding: bytes, as: UTF8.self))
    }
}
