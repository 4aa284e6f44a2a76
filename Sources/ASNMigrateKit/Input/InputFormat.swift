/// What the first bytes of an input say it is (never its name): a compression to undo, an archive to open, text
/// to split into records, or a binary format this tool does not read.
enum InputFormat: Equatable, Sendable {
    /// gzip (0x1f 0x8b).
    case gzip
    /// zstd (0x28 0xb5 0x2f 0xfd, or a skippable frame first).
    case zstd
    /// A tar archive: ustar or GNU magic at offset 257 and a valid header checksum.
    case tar
    /// A zip archive (`PK\3\4`, or `PK\5\6` for an empty one).
    case zip
    /// Anything that reads as text: JSON, JSON Lines, JWS, CSV (damaged or not: the splitter judges it).
    case text
    /// A file `asn-migrate partition` wrote (`PartitionFile`): records already split, with their original locations.
    case partition
    /// A format that is not read, named, with what to do (`bzip2`: "decompress it first (bunzip2)").
    case unsupported(name: String, advice: String)

    /// How many bytes `detect` wants to see (fewer at the end of a short input).
    static let sampleSize = 4096

    /// The format of an input starting with `head` (up to `sampleSize` bytes).
    static func detect(_ head: UnsafeRawBufferPointer) -> InputFormat {
        func starts(_ magic: [UInt8]) -> Bool {
            head.count >= magic.count && Swift.zip(head, magic).allSatisfy { $0 == $1 }
        }
        if starts(PartitionFile.magic) { return .partition }
        if starts([0x1f, 0x8b]) { return .gzip }
        if starts([0x28, 0xb5, 0x2f, 0xfd]) { return .zstd }
        if head.count >= 4, head[0] & 0xF0 == 0x50, head[1] == 0x2A, head[2] == 0x4D, head[3] == 0x18 { return .zstd }
        if starts(Array("PK\u{3}\u{4}".utf8)) || starts(Array("PK\u{5}\u{6}".utf8)) { return .zip }
        if TarHeader.looksLikeHeader(head) { return .tar }
        for known in knownBinary where starts(known.magic) {
            return .unsupported(name: known.name, advice: known.advice)
        }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) {
            return .unsupported(name: "UTF-16 text", advice: "convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)")
        }
        if isBinary(head) && !opensJSON(head) {
            return .unsupported(
                name: "binary data of an unknown format",
                advice:
                    "check that the path names the archive you meant; asn-migrate reads JSON, JSON Lines, JWS and CSV text, plain or in gzip, zstd, tar or zip"
            )
        }
        return .text
    }

    // MARK: - Binary formats

    /// A binary format recognised by its magic bytes.
    private struct Known {
        /// The first bytes.
        let magic: [UInt8]
        /// The format's name.
        let name: String
        /// What to do.
        let advice: String
    }

    /// Formats seen in archives that are not read, with the command that turns each into something that is.
    private static let knownBinary: [Known] = [
        Known(
            magic: Array("BZh".utf8), name: "bzip2",
            advice: "decompress it first (bunzip2 -k FILE), or recompress it with gzip or zstd"),
        Known(
            magic: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], name: "xz",
            advice: "decompress it first (xz -dk FILE), or recompress it with gzip or zstd"),
        Known(
            magic: [0x5D, 0x00, 0x00], name: "lzma",
            advice: "decompress it first (unlzma -k FILE), or recompress it with gzip or zstd"),
        Known(
            magic: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], name: "7-Zip",
            advice: "extract it first (7z x FILE), or repack it as tar or zip"),
        Known(
            magic: Array("Rar!\u{1A}\u{7}".utf8), name: "RAR",
            advice: "extract it first (unrar x FILE), or repack it as tar or zip"),
        Known(
            magic: [0x04, 0x22, 0x4D, 0x18], name: "lz4",
            advice: "decompress it first (lz4 -d FILE), or recompress it with gzip or zstd"),
        Known(
            magic: Array("%PDF-".utf8), name: "PDF",
            advice: "this is a document, not a notification archive; check the path"),
        Known(
            magic: [0x7F, 0x45, 0x4C, 0x46], name: "ELF executable",
            advice: "this is a program, not a notification archive; check the path"),
        Known(
            magic: Array("SQLite format 3\u{0}".utf8), name: "SQLite database",
            advice:
                "export the table as JSON Lines or CSV first (see Reports/operations.md, 'Getting data out of your database')"
        ),
        Known(
            magic: Array("PAR1".utf8), name: "Parquet",
            advice: "export it as JSON Lines or CSV first (for example with DuckDB: COPY … TO 'x.csv')"),
        Known(
            magic: [0x89, 0x50, 0x4E, 0x47], name: "PNG image",
            advice: "this is an image, not a notification archive; check the path"),
        Known(
            magic: [0xFF, 0xD8, 0xFF], name: "JPEG image",
            advice: "this is an image, not a notification archive; check the path")
    ]

    /// Whether the first byte after a UTF-8 BOM and whitespace opens a JSON object or array: then the JSON reader
    /// judges the file, however damaged (each damaged line one reject of its own).
    static func opensJSON(_ head: UnsafeRawBufferPointer) -> Bool {
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        return i < head.count && (head[i] == UInt8(ascii: "{") || head[i] == UInt8(ascii: "["))
    }

    /// Whether `head` is mostly not text: at least 30% of its bytes are NULs, control characters other than tab,
    /// line feed, form feed, carriage return and escape, or bytes that do not form UTF-8 (`ByteTables.utf8Sequence`). Text with a few damaged
    /// bytes stays text (its damaged lines are rejects of their own); random or compressed bytes are about 60%.
    static func isBinary(_ head: UnsafeRawBufferPointer) -> Bool {
        guard head.count >= 16 else { return head.contains(0) }
        var suspicious = 0
        var i = 0
        while i < head.count {
            let byte = head[i]
            if byte < 0x80 {
                if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D && byte != 0x1B)
                    || byte == 0x7F
                {
                    suspicious += 1
                }
                i += 1
                continue
            }
            guard let base = head.baseAddress?.assumingMemoryBound(to: UInt8.self) else { break }
            switch ByteTables.utf8Sequence(base, at: i, end: head.count) {
            case .valid(let length): i += length
            case .truncated: i = head.count // a sequence cut by the end of the sample counts as valid
            case .invalidLead, .invalidContinuation:
                suspicious += 1
                i += 1
            }
        }
        return suspicious * 10 >= head.count * 3
    }
}
