/// Reads V2 notifications for `reconcile` from files in every form a team may keep them, streaming.
///
/// Each file is opened by its magic bytes (`InputMember`: gzip and zstd decompressed, tar and zip member by member).
/// A file or member whose name ends in `.csv` or `.csv.gz` is a table export read through the column map
/// (`V2ColumnMap`); every other one (JSON, a JSON array, JSON Lines, concatenated JSON, `.jws` files, standard input)
/// is split by `RecordReader` and decoded by `V2RecordDecoder`. Only the current record (or CSV row) and one chunk
/// are held in memory (and a compressed member until it is verified).
///
/// A bad record or row (a CSV row with the wrong number of fields included) becomes one `.rejected` outcome and
/// reading goes on. A file that fails part way (unreadable, a corrupt gzip stream) gives one `.rejected` outcome for
/// the rest of it, and the next file is read. Only a column map that does not fit a CSV header (a mapped column missing) throws,
/// because then no row of that file could be read.
package struct V2RecordReader: Sendable {
    /// The column map for `.csv` inputs, if one was given.
    package var columnMap: V2ColumnMap?
    /// The decoder for JSON and JWS records.
    package var decoder: V2RecordDecoder
    /// How many bytes each read asks for.
    package var chunkSize: Int

    /// A reader using `columnMap` for CSV files, reading 1 MiB at a time.
    package init(columnMap: V2ColumnMap? = nil) {
        self.init(columnMap: columnMap, chunkSize: 1 << 20)
    }

    /// A reader reading `chunkSize` bytes at a time (at least 1); small sizes exercise chunk boundaries in tests.
    package init(columnMap: V2ColumnMap?, chunkSize: Int) {
        self.columnMap = columnMap
        self.decoder = V2RecordDecoder()
        self.chunkSize = max(1, chunkSize)
    }

    // MARK: - Reading

    /// Calls `body` with the outcome of every record of `files`, in order. Errors thrown by `body` are rethrown as is.
    package func read(_ files: [InputFile], _ body: (V2ReadOutcome) throws -> Void) throws {
        for file in files {
            try read(file, body)
        }
    }

    /// Calls `body` with the outcome of every record of one file. Throws what `body` throws, or `.malformedCSV` when a
    /// mapped column is missing from the CSV header; every other failure is a `.rejected` outcome.
    package func read(_ file: InputFile, _ body: (V2ReadOutcome) throws -> Void) throws {
        do {
            try file.forEachMember { member in
                switch member {
                case .rejected(let error):
                    try forward(body, .rejected(error))
                case .stream(let name, let source):
                    if Self.isCSV(name) {
                        guard let columnMap else {
                            return try forward(
                                body,
                                .rejected(
                                    ASNError(
                                        .malformedCSV,
                                        "'\(ConsoleText.path(name))' is named as a CSV export but no column map was given; pass one (reconcile --v2-columns FILE, see Mappings/v2-columns.example.map), or rename the file if it holds JSON",
                                        at: SourceLocation(path: name))))
                        }
                        try readCSV(source, name: name, columnMap, limits: file.reading.limits, body)
                    } else {
                        try readJSON(source, name: name, file: file, body)
                    }
                case .partition(let name, let source):
                    try PartitionFile.read(source, name: name) { item in
                        switch item {
                        case .record(let record): for outcome in decoder.decode(record) { try forward(body, outcome) }
                        case .broken(let error): try forward(body, .rejected(error))
                        }
                    }
                }
            }
        } catch let error as CallerError {
            throw error.underlying
        } catch let error as ASNError where error.code == .unreadableInput {
            try body(.rejected(error))
        }
    }

    /// Whether `path` names a CSV export: `.csv` or `.csv.gz`, any case.
    package static func isCSV(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".csv") || lower.hasSuffix(".csv.gz")
    }

    // MARK: - Private

    /// An error thrown by the caller's `body`, carried through untouched.
    private struct CallerError: Error {
        /// What `body` threw.
        let underlying: any Error
    }

    /// Calls `body`, wrapping what it throws so that it is never mistaken for an input failure.
    private func forward(_ body: (V2ReadOutcome) throws -> Void, _ outcome: V2ReadOutcome) throws {
        do {
            try body(outcome)
        } catch {
            throw CallerError(underlying: error)
        }
    }

    /// JSON, JSON Lines, arrays and bare JWS through `RecordReader`.
    private func readJSON(
        _ source: any ByteSource, name: String, file: InputFile, _ body: (V2ReadOutcome) throws -> Void
    ) throws {
        try RecordReader.split(
            source, path: name, chunkSize: chunkSize, maxRecordBytes: file.reading.limits.maxRecordBytes,
            shape: file.shape, decided: file.notesShape(of: name)
        ) { item in
            switch item {
            case .record(let record):
                for outcome in decoder.decode(record) { try forward(body, outcome) }
            case .broken(let error):
                try forward(body, .rejected(error))
            }
        }
    }

    /// A CSV export through `CSVReader`, each row through the column map and the decoder. A malformed row is one
    /// `.rejected` outcome and reading goes on; a failed read is one `.rejected` outcome for the rest of the file.
    private func readCSV(
        _ source: any ByteSource, name: String, _ map: V2ColumnMap, limits: InputLimits,
        _ body: (V2ReadOutcome) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var csv = CSVReader(path: name, maxRowBytes: limits.maxRecordBytes)
        var binding: V2ColumnMap.Binding?

        /// Emits the outcomes of `rows`, binding the map to the header first when it has just been read.
        func emit(_ rows: [CSVRow]) throws {
            if binding == nil, let header = csv.header {
                binding = try map.bind(header: header, csvPath: name)
            }
            guard let binding else { return }
            for row in rows {
                let object: JSONObject
                do {
                    switch row {
                    case .record(let record):
                        object = try binding.object(of: record)
                        for outcome in decoder.decode(
                            .object(object), at: SourceLocation(path: name, line: record.line))
                        {
                            try forward(body, outcome)
                        }
                    case .malformed(let error):
                        throw error
                    }
                } catch let error as ASNError {
                    try forward(body, .rejected(error))
                }
            }
        }

        while true {
            let count: Int
            let rows: [CSVRow]
            do {
                count = try source.readChunk(into: buffer)
                rows =
                    count == 0
                    ? try csv.finishRows() : try csv.feedRows(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } catch let error as ASNError {
                // A failed read, or a header that cannot be read: one reject stands for the rest of the file.
                return try forward(body, .rejected(error))
            }
            try emit(rows)
            if count == 0 { break }
        }
        if let problem = source.endProblem { try forward(body, .rejected(problem)) }
    }
}
