/// Writes `migrate`'s mapped batches: JSON lines (rendered on the workers) or CSV rows to `--out`, rejected and
/// unmapped records to `--rejects` or, without it, the first few to standard error; counts every outcome.
struct MigrateWriter {
    /// The output format.
    let format: MigrationOutput.Format
    /// `--out`.
    let out: OutputFile
    /// `--rejects`, when given.
    let rejects: OutputFile?
    /// Where rejects go without `--rejects`.
    let console: Console
    /// How many rejects standard error shows at most.
    let shownLimit: Int
    /// How many rejects standard error showed.
    private(set) var shownOnConsole = 0
    /// Bytes for `--out` not yet written, after `held`.
    private var buffer: [UInt8] = []
    /// Whole arrays for `--out` not yet written, in order (batches' JSON lines, kept rather than copied).
    private var held: [[UInt8]] = []
    /// How many bytes `held` has.
    private var heldBytes = 0
    /// The CSV output's rows.
    private var csv: CSVWriter
    /// The rejects CSV's rows.
    private var rejectRows = CSVWriter(header: MigrationOutput.rejectColumns)

    /// A writer for `format`; a CSV output starts with its header.
    init(
        format: MigrationOutput.Format, csvNames: MigrationOutput.CSVNames, out: OutputFile, rejects: OutputFile?,
        console: Console, shownLimit: Int
    ) {
        self.format = format
        self.out = out
        self.rejects = rejects
        self.console = console
        self.shownLimit = shownLimit
        csv = CSVWriter(header: MigrationOutput.csvColumns(csvNames))
        buffer.reserveCapacity(1 << 20)
        if format == .csv { buffer.append(contentsOf: csv.drain()) }
    }

    /// The routes of records the pipeline wrote straight from their bytes (`MigrationBatch.directRoutes`).
    var directRoutes: [MigrationSummary.Route] = []

    /// Counts and writes one batch, in its order.
    mutating func write(_ batch: MigrationBatch, summary: inout MigrationSummary) throws(ASNError) {
        for (route, times) in batch.directRoutes.enumerated() where times > 0 {
            summary.count(migrated: directRoutes[route], times: times)
        }
        for outcome in batch.outcomes {
            summary.count(outcome)
            switch outcome {
            case .migrated(let payload):
                if format == .csv {
                    try csv.appendRow(MigrationOutput.csvRow(payload))
                    buffer.append(contentsOf: csv.drain())
                }
            case .unmapped(let u):
                try reject(MigrationOutput.unmappedRow(u))
            case .rejected(let e):
                try reject(MigrationOutput.rejectRow(e))
            }
        }
        if !batch.jsonLines.isEmpty {
            if !buffer.isEmpty {
                hold(buffer)
                buffer = []
            }
            hold(batch.jsonLines)
        }
        if heldBytes + buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is left and commits the rejects, then the output.
    mutating func commit() throws(ASNError) {
        try flush()
        if let rejects {
            try rejects.write(rejectRows.drain())
            try rejects.commit()
        }
        try out.commit()
    }

    /// Keeps `bytes` to write after what is held already.
    private mutating func hold(_ bytes: [UInt8]) {
        held.append(bytes)
        heldBytes += bytes.count
    }

    /// Writes what is held, then the buffer (at least once, so an empty output is still written to).
    private mutating func flush() throws(ASNError) {
        for bytes in held { try out.write(bytes) }
        held.removeAll(keepingCapacity: true)
        heldBytes = 0
        try out.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// One rejects row: to `--rejects`, or to standard error while fewer than `shownLimit` were shown.
    private mutating func reject(_ cells: [String]) throws(ASNError) {
        if rejects != nil {
            try rejectRows.appendRow(cells)
        } else if shownOnConsole < shownLimit {
            shownOnConsole += 1
            console.diagnostic(
                "asn-migrate migrate: \(ConsoleText.line(cells[3])) at \(cells[1])\(cells[2].isEmpty ? "" : ":" + cells[2])"
            )
        }
    }
}
