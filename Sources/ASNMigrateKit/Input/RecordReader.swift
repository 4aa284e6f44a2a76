/// Splits one input's bytes into records, streaming: only the current record and one chunk are held in memory.
///
/// After a UTF-8 BOM and leading whitespace, `[` splits the elements of a top-level array; otherwise the file's first
/// lines are sampled and `FileShape` decides, once for the file, between JSON Lines (every non-blank line is one
/// record, whatever damage came before it) and multi-line JSON (one pretty-printed object, or several one after
/// another). Inside a multi-line value, a `{` opening a line indented no deeper than the value's first line starts
/// a new record (pretty-printers indent nested values deeper), so a cut-short or unbalanced record is one broken item
/// wherever it sits and the records after it are read; a top-level line that is not an object, array or string is
/// one record (to be rejected) however many words it holds.
/// Structural trouble (a value cut off by the end of the file, junk between array elements, an array never closed)
/// yields a `.broken` item and splitting goes on where it can; so do bytes after the end of a gzip stream (code
/// `unreadable_input`, after every record before them). Extra commas in an array lose nothing and pass silently.
package struct RecordReader: Sendable {
    /// The input to read.
    package var file: InputFile
    /// How many bytes each read asks for; the one buffer is reused.
    package var chunkSize: Int

    /// A reader of `file` reading `chunkSize` bytes at a time (default 1 MiB; at least 1).
    package init(file: InputFile, chunkSize: Int = 1 << 20) {
        self.file = file
        self.chunkSize = max(1, chunkSize)
    }

    // MARK: - Reading

    /// Calls `body` with every record or broken item of the file, in order: of each text stream in it (the file
    /// itself, decompressed, or each member of a tar or zip archive, located as `archive.tar:member`). A part in a
    /// format that is not read, or an archive member that fails its check, is one broken item. Throws
    /// `.unreadableInput` when the file cannot be opened or read (a corrupt gzip or zstd stream, a damaged archive),
    /// after the items found before the failure.
    package func forEach(_ body: (InputItem) throws -> Void) throws {
        try file.forEachMember { member in
            switch member {
            case .rejected(let error): try body(.broken(error))
            case .stream(let name, let source):
                try Self.split(
                    source, path: name, chunkSize: chunkSize, maxRecordBytes: file.reading.limits.maxRecordBytes,
                    shape: file.shape, decided: file.notesShape(of: name), body)
            case .partition(let name, let source):
                try PartitionFile.read(source, name: name, chunkSize: chunkSize, body)
            }
        }
    }

    /// Splits the bytes of `source` into items located in `path`, a record longer than `maxRecordBytes` one reject:
    /// in `shape` when it is known beforehand, otherwise in the shape its first lines say, which `decided` is told
    /// at the end.
    static func split(
        _ source: any ByteSource, path: String, chunkSize: Int, maxRecordBytes: Int, shape: FileShape? = nil,
        decided: ((FileShape?) -> Void)? = nil, _ body: (InputItem) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var splitter = RecordSplitter(path: path, maxRecordBytes: maxRecordBytes, shape: shape)
        while true {
            let count: Int
            do {
                count = try source.readChunk(into: buffer)
            } catch {
                // The records read before the failure still count, as they would without sampling.
                try splitter.endSample(emit: body)
                throw error
            }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count]).bindMemory(to: UInt8.self)
            try splitter.feed(chunk, emit: body)
        }
        try splitter.finish(emit: body)
        decided?(splitter.shape)
        // Bytes after the end of a gzip or zstd stream: one broken item after the records before them.
        if let problem = source.endProblem { try body(.broken(problem)) }
    }

    /// Every item of the file in an array; for tests and small inputs only, since it holds all records.
    package func items() throws -> [InputItem] {
        var items: [InputItem] = []
        try forEach { items.append($0) }
        return items
    }

    /// Reads `files` one after another in order, calling `body` with every item; stops at the first file that
    /// cannot be read (callers that want to go on past it read each file with its own reader).
    package static func forEach(in files: [InputFile], chunkSize: Int = 1 << 20, _ body: (InputItem) throws -> Void)
        throws
    {
        for file in files {
            try RecordReader(file: file, chunkSize: chunkSize).forEach(body)
        }
    }
}
