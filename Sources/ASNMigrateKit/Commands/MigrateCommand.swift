import Foundation

/// `asn-migrate migrate PATH... [--out FILE] [--format jsonl|csv] [--rejects FILE] [--mappings DIR]`.
public enum MigrateCommand {
    /// The command's spec (options, help).
    public static let spec = CommandSpec(
        name: "migrate",
        abstract: "Read archived V1 notifications and write one V2-shaped decoded payload per notification. When standard error is a terminal, a progress line there shows bytes and records per second and the time left.",
        options: [
            .single("--out", short: "-o", valueName: "FILE", help: "Write the output here instead of standard output: a regular file is replaced atomically (a symbolic link is followed and kept), a character device or FIFO is written directly, '-' is standard output; never one of the inputs."),
            .single("--format", valueName: "FORMAT", help: "jsonl (one decoded V2 payload per line) or csv (the same as flat columns).",
                    defaultValue: "jsonl", valueKind: .choice(MigrationOutput.Format.allCases.map(\.rawValue))),
            .single("--csv-names", valueName: "NAMES", help: "With --format csv: dotted column names as the JSON paths (data.transactionInfo.productId), or snake (data_transaction_info_product_id), which SQL joins without quoting.",
                    defaultValue: "dotted", valueKind: .choice(MigrationOutput.CSVNames.allCases.map(\.rawValue))),
            .single("--rejects", valueName: "FILE", help: "Write rejected and unmapped records as CSV (side,source,line,reason; side is always v1 here), as --out writes its file; without it the first few go to standard error."),
            .single("--max-reject-rate", valueName: "RATE", help: SanityCheck.optionHelp + "; off unless given."),
            .single("--mappings", valueName: "DIR", help: "Use DIR/v1-to-v2.rules and DIR/v2-only.rules instead of the built-in mapping."),
            .single("--summary-json", valueName: "FILE", help: "Also write the summary figures (counts, routes, rejects by cause, run date, version, inputs) as one JSON object to FILE, atomically."),
            .single("--run-date", valueName: "YYYY-MM-DD", help: "The run date reported as run_date by --summary-json (default: today, UTC)."),
            .single("--shard", valueName: "K/N", help: "Write only the records of shard K of N (reconcile's subscription hash; rejects and records without originalTransactionId in shard 0); auto/N takes K from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID or CLOUD_RUN_TASK_INDEX."),
        ],
        positional: PositionalSpec(
            name: "PATH",
            help: "V1 archive: a file (JSON, JSON array, JSON Lines, .gz; a FIFO is read as a stream) or a directory (read recursively, sorted, links to folders followed once; FIFOs, sockets and devices in it are skipped with a warning), or '-' for standard input.",
            minCount: 1,
            acceptsStandardInput: true,
            missingHint: "give at least one input file or directory, or '-' for standard input"
        ),
        exitStatuses: ExitStatus.allCases
    )

    /// How many rejects are printed to standard error when `--rejects` is not given.
    static let rejectsShownOnConsole = 10

    /// Runs the command; all output goes through `console` or the named files.
    public static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        run(arguments, console: console, fastPath: true, workers: nil)
    }

    /// Runs the command with the fast or the reference per-record path on `workers` threads (default: one per core).
    public static func run(_ arguments: ParsedArguments, console: Console, fastPath: Bool, workers: Int?) -> ExitStatus {
        let name = "asn-migrate migrate"
        let format = MigrationOutput.Format(rawValue: arguments.value("--format") ?? "jsonl") ?? .jsonl
        let maxRejectRate: Double?
        let outPath = arguments.value("--out") ?? "-", rejectsPath = arguments.value("--rejects")
        let summaryPath = arguments.value("--summary-json")
        let outTarget: OutputTarget, rejectsTarget: OutputTarget?, summaryTarget: OutputTarget?
        let runDate: String
        let shard: ShardSelection?
        do throws(ASNError) {
            shard = try arguments.value("--shard").map { (text: String) throws(ASNError) in try ShardSelection.parse(text, environment: ProcessInfo.processInfo.environment) }
            maxRejectRate = arguments.value("--max-reject-rate") == nil ? nil : try SanityCheck.maxRejectRate(arguments)
            runDate = try ReconcileCommand.runDate(arguments, now: ReconcileCommand.currentTime())
            outTarget = try OutputTarget.resolve(outPath)
            rejectsTarget = try rejectsPath.map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
            summaryTarget = try summaryPath.map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
            if let rejectsTarget, rejectsTarget == outTarget {
                throw ASNError(.usage, "--out and --rejects name the same output ('\(rejectsPath ?? "")'); give them different files")
            }
            if let summaryTarget, summaryTarget == outTarget || summaryTarget == rejectsTarget {
                throw ASNError(.usage, "--summary-json names the same output as --out or --rejects ('\(summaryPath ?? "")'); give it its own file")
            }
        } catch {
            console.diagnostic("\(name): \(describe(error)); no output was written")
            return error.code == .usage ? .usage : .failure
        }
        // With --shard, the workers drop the records of other shards before they are rendered.
        var keep: (@Sendable (V1RecordOutcome) -> Bool)?
        if let shard {
            keep = { outcome in shard.holds(ShardHash.shard(of: outcome, count: shard.count)) }
        }
        let table: MappingTable
        let files: [InputFile]
        let selection: InputSelection
        do {
            table = try MappingLoader.load(arguments.value("--mappings"))
            selection = try InputPaths.select(arguments.positionals)
            files = selection.files
        } catch {
            console.diagnostic("\(name): \(describe(error))")
            return .failure
        }
        do throws(ASNError) {
            let outputs = [OutputPlan.Output("--out", outPath)] + [("--rejects", rejectsPath), ("--summary-json", summaryPath)]
                .compactMap { option, path in path.map { OutputPlan.Output(option, $0) } }
            try OutputPlan(outputs: outputs.flatMap(OutputPlan.withLock),
                           inputs: arguments.positionals.map { OutputPlan.Input("PATH", $0) }
                               + (arguments.value("--mappings").map { [OutputPlan.Input("--mappings", $0)] } ?? []),
                           inputFiles: files).check()
        } catch {
            console.diagnostic("\(name): \(error.message); no output was written")
            return error.code == .usage ? .usage : .failure
        }

        // Held for the whole run, so a second run on the same files fails at once instead of silently winning.
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) {
            for lockPath in [outTarget.lockPath, rejectsTarget?.lockPath, summaryTarget?.lockPath].compactMap({ $0 }) { locks.append(try RunLock.acquire(lockPath)) }
        } catch {
            console.diagnostic("\(name): \(describe(error)); no output was written")
            return error.code == .locked ? .locked : .failure
        }

        let mapper: any RecordMapping = fastPath ? FastRecordMapper(table: table) : V1RecordMapper(table: table)
        var summary = MigrationSummary()
        summary.files = files.count
        summary.skippedNotRegular = selection.skipped.count
        for entry in selection.skipped { console.diagnostic("asn-migrate migrate: \(entry.warning)") }
        if files.isEmpty {
            console.diagnostic("\(name): warning: no input files found under \(arguments.positionals.joined(separator: ", ")); nothing to do")
        }
        var consoleRejects = 0
        var outputs: [OutputFile] = []

        do {
            let outFile = try console.outputFile(outPath, target: outTarget)
            outputs.append(outFile)
            let rejectsFile = try rejectsPath.map { (path: String) throws(ASNError) in try console.outputFile(path, target: rejectsTarget ?? .standardOutput) }
            if let rejectsFile { outputs.append(rejectsFile) }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20)
            var csv = CSVWriter(header: MigrationOutput.csvColumns(MigrationOutput.CSVNames(rawValue: arguments.value("--csv-names") ?? "dotted") ?? .dotted))
            var rejects = CSVWriter(header: MigrationOutput.rejectColumns)
            if format == .csv { buffer.append(contentsOf: csv.drain()) }

            func reject(_ cells: [String]) throws(ASNError) {
                if rejectsFile != nil {
                    try rejects.appendRow(cells)
                } else if consoleRejects < rejectsShownOnConsole {
                    consoleRejects += 1
                    console.diagnostic("\(name): \(ConsoleText.line(cells[3])) at \(cells[1])\(cells[2].isEmpty ? "" : ":" + cells[2])")
                }
            }

            /// Counts one outcome and writes it; a JSON line comes pre-rendered in its batch.
            func handle(_ outcome: V1RecordOutcome) throws(ASNError) {
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

            // Records are split, mapped and rendered on every core; batches come back in input order, so output,
            // rejects and counts are those of a sequential run.
            let pipeline = MigrationPipeline(mapper: mapper, workers: workers)
            var progress = ProgressLine.standardError(files: files)
            defer { progress.finish() }
            try pipeline.run(files: files, renderJSONLines: format == .jsonl, keep: keep) { batch in
                progress.advance(bytes: batch.inputBytes, records: batch.outcomes.count)
                for outcome in batch.outcomes { try handle(outcome) }
                buffer.append(contentsOf: batch.jsonLines)
                if buffer.count >= 1 << 20 {
                    try outFile.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try outFile.write(buffer)
            if let rejectsFile {
                try rejectsFile.write(rejects.drain())
                try rejectsFile.commit()
            }
            try outFile.commit()
        } catch {
            for output in outputs where !output.isCommitted { output.abort() }
            console.diagnostic("\(name): \(describe(error)); \(outcomeOfFailure(outputs))")
            return .failure
        }

        let hidden = summary.rejected + summary.unmapped - consoleRejects
        if rejectsPath == nil, hidden > 0 {
            console.diagnostic("\(name): \(hidden) more rejected or unmapped record(s) not shown; use --rejects FILE to list them all")
        }
        console.diagnostic(summary.render())
        if let summaryPath {
            let run = RunInfo(runDate: runDate, toolVersion: ASNMigrateCLI.versionNumber,
                              inputs: arguments.positionals.map { RunInfo.Input(side: "v1", root: $0) })
            do {
                try OutputFile.writeWhole(SummaryJSON.render(metrics: summary.metrics + run.metrics, causes: summary.causes.causes,
                                                             extra: summary.breakdownJSON), to: summaryPath)
            } catch {
                console.diagnostic("\(name): \(error.description); the output was written, the summary JSON was not")
                return .failure
            }
        }
        if let maxRejectRate, let failed = SanityCheck.failures([.init(name: "input", read: summary.read, rejected: summary.rejected)],
                                                             maxRejectRate: maxRejectRate, pairedSides: false) {
            console.diagnostic("\(name): \(failed) (exit 3)")
            return .sanityCheckFailed
        }
        return summary.rejected + summary.unmapped > 0 ? .findings : .success
    }

    /// After a failed run: `no output was written` only when that is true, else what each output got.
    static func outcomeOfFailure(_ outputs: [OutputFile]) -> String {
        let touched = outputs.filter { $0.isCommitted || $0.bytesWritten > 0 }
        guard !touched.isEmpty else { return "no output was written" }
        return outputs.map(\.fate).joined(separator: "; ")
    }

    /// A one-line description of any error, for standard error.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? ASNError { return error.description }
        return String(describing: error)
    }
}

/// Loads the mapping table: built in, or from `--mappings DIR`.
public enum MappingLoader {
    /// The table for an optional `--mappings` directory.
    public static func load(_ directory: String?) throws(ASNError) -> MappingTable {
        if let directory { return try MappingTable.load(directory: directory) }
        return try MappingTable.builtIn()
    }
}
