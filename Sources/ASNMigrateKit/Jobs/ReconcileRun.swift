import Foundation

/// The `reconcile` job in named steps: find the inputs and check them, plan and lock the outputs, check the
/// databases, judge every record in one pass (or shard by shard), then write the report folder, the summary JSON and
/// the console summary, and judge the run. The command only parses its flags into `Settings`.
package struct ReconcileRun {
    /// What one run does, as parsed from the command line.
    package struct Settings: Sendable {
        /// `--max-record-bytes` and `--require-checksums`.
        package var inputLimits = InputLimits()
        /// The judging options (window, period, fields, run date and inputs).
        package var options: ReconcileOptions
        /// The report folder as given (or the default).
        package var outDirectory: String
        /// `--max-reject-rate`.
        package var maxRejectRate: Double
        /// `--fail-on` / `--warn-on`.
        package var thresholds: ThresholdCheck
        /// How the run is split into shards.
        package var sharding: ShardPlan = .whole
        /// `--v1` roots (files, folders, `-`, or one database URI).
        package var v1Roots: [String] = []
        /// `--v2` roots.
        package var v2Roots: [String] = []
        /// The V1 side's database, when it is one.
        package var v1Database: PostgresSource?
        /// The V2 side's database, when it is one.
        package var v2Database: PostgresSource?
        /// The signature checks, with `--verify-signatures`.
        package var signatures: SignaturePolicy?
        /// `--root-certificate` files (inputs the outputs must not overwrite).
        package var rootCertificates: [String] = []
        /// `--mappings`.
        package var mappingsDirectory: String?
        /// `--v2-columns`.
        package var v2ColumnsPath: String?
        /// `--summary-json`.
        package var summaryJSONPath: String?
        /// `--html`.
        package var html = false
        /// `--force`: run even when the sides look swapped.
        package var force = false
        /// `--partition DIR`: the partition folder read as one shard (its files are the inputs, its manifests give
        /// the unsharded run's spans and input roots).
        package var partition: PartitionFolder?

        /// Settings with `options`, the report folder, the reject limit and the thresholds; the rest as the flags'
        /// defaults.
        package init(options: ReconcileOptions, outDirectory: String, maxRejectRate: Double, thresholds: ThresholdCheck)
        {
            self.options = options
            self.outDirectory = outDirectory
            self.maxRejectRate = maxRejectRate
            self.thresholds = thresholds
        }
    }

    /// How a run is split: not at all, one shard of N (`--shard`), or N shards in turn (`--shards`, `--memory-limit`).
    package enum ShardPlan: Sendable, Equatable {
        /// The whole input in one pass (no sharding option).
        case whole
        /// `--shard K/N`: this shard only, written with `shard.csv`.
        case one(ShardSelection)
        /// `--shards N`: every shard in turn, merged.
        case inTurn(Int)
        /// `--memory-limit SIZE` (bytes): shards in turn, N from the input's size.
        case memoryLimit(Int64)
    }

    /// What the run reads, found and checked before anything is written.
    struct Inputs {
        /// The V1 → V2 rules.
        var table: MappingTable
        /// The rules for V2-only transactions (Apple's API view).
        var transactionRules: V2OnlyTransactionRules
        /// The V1 files found.
        var v1: InputSelection
        /// The V2 files found.
        var v2: InputSelection
        /// The V2 files that are records (a fetch folder's own files are not).
        var v2Files: [InputFile]
        /// `--v2-columns`, loaded.
        var columnMap: V2ColumnMap?
    }

    /// The files a reconcile report folder may hold (its report files and a shard's `shard.csv`), so a rerun replaces
    /// a shard folder's manifest too and never anything else.
    static let reportNames = Set(ReconciliationReport.fileNames + [ShardManifest.fileName, HTMLReport.fileName])
    /// The prefix of every message.
    static let name = "asn-migrate reconcile"

    /// The run's settings.
    package let settings: Settings
    /// Where diagnostics go.
    package let console: Console
    /// How this run reads its inputs: `settings.inputLimits`, and the zstd frames its readers found unverified.
    let reading: InputReading

    /// A run of `settings` reporting through `console`.
    package init(settings: Settings, console: Console) {
        self.settings = settings
        self.console = console
        self.reading = InputReading(settings.inputLimits)
    }

    /// Runs every step and returns the exit status.
    package func run() -> ExitStatus {
        let destination: String
        do { destination = try resolveDestination() } catch {
            // An output that is an input is the usage error to report, whatever else is wrong with it.
            do throws(ASNError) { try checkOutputs([]) } catch  where error.code == .usage {
                console.diagnostic("\(Self.name): \(error.message); no report written")
                return .usage
            } catch {}
            console.diagnostic("\(Self.name): \(error.description); no report written")
            return .failure
        }
        let inputs: Inputs
        do { inputs = try readInputs() } catch {
            console.diagnostic("\(Self.name): \(ASNError.describe(error)); no report written")
            return ExitStatus(stoppedBy: error)
        }
        if let problem = ReconcileRun.inputProblem(
            v1Files: inputs.v1.files, v2Files: inputs.v2Files, columnMap: inputs.columnMap,
            force: settings.force)
        {
            console.diagnostic("\(Self.name): \(problem.message); no report written")
            return .usage
        }
        do throws(ASNError) { try checkOutputs(inputs.v1.files + inputs.v2Files) } catch {
            console.diagnostic("\(Self.name): \(error.message); no report written")
            return ExitStatus(stoppedBy: error)
        }
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) { locks = try lock(destination) } catch {
            console.diagnostic("\(Self.name): \(error.description); no report written")
            return ExitStatus(stoppedBy: error)
        }
        if let status = checkDatabases() { return status }
        warnAboutMissingInputs(inputs)
        return execute(inputs, destination: destination)
    }

    /// Reconciles the inputs whole, or in the shards `--shard`, `--shards` or `--memory-limit` ask for, and writes
    /// and judges the report.
    private func execute(_ inputs: Inputs, destination: String) -> ExitStatus {
        let pass = ReconcilePass(settings: settings, inputs: inputs)
        var sharding = settings.sharding
        if case .memoryLimit(let limit) = sharding {
            sharding = .inTurn(
                MemoryBudget.passes(inputBytes: MemoryBudget.inputBytes(inputs.v1.files + inputs.v2Files), limit: limit)
            )
        }
        if sharding != .whole { return runSharded(sharding, pass: pass, table: inputs.table, destination: destination) }
        switch pass.run(nil) {
        case .success(let result): return finish(result, inputs: inputs, destination: destination)
        case .failure(let error):
            console.diagnostic("\(Self.name): \(ASNError.describe(error)); no report written")
            return ExitStatus(stoppedBy: error)
        }
    }

    // MARK: - Steps before reading

    /// The report folder (a symbolic link to a folder followed), and `--summary-json`'s target checked.
    private func resolveDestination() throws(ASNError) -> String {
        let destination = try OutputTarget.resolveDirectory(settings.outDirectory)
        _ = try settings.summaryJSONPath.map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
        return destination
    }

    /// Loads the rules and the column map and finds the input files.
    private func readInputs() throws -> Inputs {
        let table = try MappingLoader.load(settings.mappingsDirectory)
        let transactionRules = try V2OnlyTransactionRules.load(directory: settings.mappingsDirectory)
        var v1 = try InputPaths.select(settings.v1Database == nil ? settings.v1Roots : [], reading: reading)
        var v2 = try InputPaths.select(settings.v2Database == nil ? settings.v2Roots : [], reading: reading)
        if let partition = settings.partition {
            // The partition's records were placed by the rules they were partitioned with: others would place them
            // elsewhere.
            guard partition.mappingDigest == String(table.digest) else {
                throw ASNError(
                    .badShards,
                    "'\(partition.path)' was partitioned under mapping rules with digest \(partition.mappingDigest), not these (\(table.digest)); reconcile it with the same --mappings, or partition again",
                    at: SourceLocation(path: partition.path))
            }
            v1 = InputSelection(files: partition.v1Files)
            v2 = InputSelection(files: partition.v2Files)
        }
        // A fetch folder's own files (its summary and not-found list) are not Apple's answers: never read as records.
        let v2Files = v2.files.filter { !FetchFolder.isOwnFile($0.path) }
        let columnMap = try settings.v2ColumnsPath.map { (path: String) throws(ASNError) in
            try V2ColumnMap.load(path: path)
        }
        return Inputs(
            table: table, transactionRules: transactionRules, v1: v1, v2: v2, v2Files: v2Files, columnMap: columnMap)
    }

    /// Refuses an output that is one of the inputs (`inputFiles`, or any file under the roots) or inside an input root.
    private func checkOutputs(_ inputFiles: [InputFile]) throws(ASNError) {
        let outputs =
            [OutputPlan.Output("--out", settings.outDirectory, kind: .folder)]
            + (settings.summaryJSONPath.map { [OutputPlan.Output("--summary-json", $0)] } ?? [])
        let named =
            [("--v2-columns", settings.v2ColumnsPath), ("--mappings", settings.mappingsDirectory)]
            .compactMap { option, path in path.map { OutputPlan.Input(option, $0) } }
            + settings.rootCertificates.map { OutputPlan.Input("--root-certificate", $0) }
        let roots =
            settings.v1Roots.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v1", $0) }
            + settings.v2Roots.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v2", $0) }
        try OutputPlan(
            outputs: outputs.flatMap(OutputPlan.withLock), inputs: roots + named,
            inputFiles: inputFiles
        ).check()
    }

    /// Locks the report folder (beside it, never inside) and the summary JSON for the whole run, so a second run
    /// fails at once instead of silently winning.
    private func lock(_ destination: String) throws(ASNError) -> [RunLock] {
        var locks = [try RunLock.acquire(RunLock.lockPath(besideOutput: destination))]
        do throws(ASNError) {
            let target = try settings.summaryJSONPath.map { (path: String) throws(ASNError) in
                try OutputTarget.resolve(path)
            }
            if let lockPath = target?.lockPath { locks.append(try RunLock.acquire(lockPath)) }
        } catch {
            for lock in locks { lock.release() }
            throw error
        }
        return locks
    }

    /// A database that cannot be reached or is set up wrong fails here, before anything is read; nil when all is well.
    private func checkDatabases() -> ExitStatus? {
        for source in [settings.v1Database, settings.v2Database].compactMap({ $0 }) {
            do {
                try PostgresReader(source: source).checkConnection()
            } catch {
                console.diagnostic("\(Self.name): --\(source.side): \(error.message); no report written")
                return ExitStatus(stoppedBy: error)
            }
        }
        return nil
    }

    /// Warns about a side with no input files, and about what the folders held that is not read.
    private func warnAboutMissingInputs(_ inputs: Inputs) {
        let database = [InputFile(path: "database")]
        for (side, roots, found) in [
            ("--v1", settings.v1Roots, settings.v1Database == nil ? inputs.v1.files : database),
            ("--v2", settings.v2Roots, settings.v2Database == nil ? inputs.v2Files : database)
        ] where found.isEmpty {
            console.diagnostic(
                "\(Self.name): warning: no input files found under \(side) \(roots.joined(separator: ", "))")
        }
        for entry in inputs.v1.skipped + inputs.v2.skipped { console.diagnostic("\(Self.name): \(entry.warning)") }
    }

    // MARK: - Steps after judging

    /// Writes the report folder and the summary JSON, prints the summary and judges the run.
    private func finish(_ judged: ReconciliationResult, inputs: Inputs, destination: String) -> ExitStatus {
        var result = judged
        result.summary.unverifiedFrames = warnUnverifiedFrames()
        let crossings = settings.thresholds.crossings(ThresholdFigures.reconcile(result))
        if !settings.thresholds.rules.isEmpty { result.summary.thresholds = settings.thresholds.counts(crossings) }
        let (status, sanity) = judge(result, crossings: crossings)
        do {
            let verdict = HTMLReport.reconcileVerdict(
                result, status: status, maxRejectRate: settings.maxRejectRate,
                notes: (sanity.map { [$0] } ?? []) + crossings.map(\.line),
                failOnRules: settings.thresholds.decidesFindings)
            let files =
                ReconciliationReport.files(result)
                + (settings.html
                    ? [(HTMLReport.fileName, HTMLReport.reconcile(result, verdict: verdict).render())] : [])
            try AtomicOutput.writeDirectoryAtomically(path: destination, replacing: Self.reportNames) {
                (staging: StagingDirectory) throws(ASNError) in
                for file in files { try staging.write(name: file.name, bytes: file.bytes) }
            }
        } catch {
            console.diagnostic("\(Self.name): \(error.description); no report written")
            return .failure
        }
        if let path = settings.summaryJSONPath {
            do {
                try OutputFile.writeWhole(ReconciliationReport.summaryJSON(result), to: path)
            } catch {
                console.diagnostic(ReconciliationReport.consoleSummary(result, directory: settings.outDirectory))
                console.diagnostic(
                    "\(Self.name): \(error.description); the report folder was written, the summary JSON was not")
                return .failure
            }
        }
        printSummary(result, inputs: inputs, crossings: crossings)
        if let sanity {
            console.diagnostic("\(Self.name): \(sanity) (exit 3)")
            console.verdict(SanityCheck.verdict(sanity))
        } else {
            printVerdict(result, status: status, crossings: crossings)
        }
        return status
    }

    /// The last console line: the exit status and what it means, and where to look.
    private func printVerdict(_ result: ReconciliationResult, status: ExitStatus, crossings: [ThresholdCheck.Crossing])
    {
        let out = settings.html ? "\(settings.outDirectory)/\(HTMLReport.fileName)" : settings.outDirectory
        let found = "\(result.differences.count) difference row(s) and \(result.rejects.count) reject(s) found"
        if let verdict = settings.thresholds.verdict(status, found: result.isClean ? nil : found, crossings: crossings)
        {
            console.verdict("\(verdict); see \(out)")
        }
    }

    /// Warns once per input that held zstd frames without a checksum; returns how many such frames there were.
    private func warnUnverifiedFrames() -> Int {
        let inputs = reading.unverifiedFrames.take()
        for input in inputs {
            console.diagnostic("\(Self.name): " + UnverifiedFrames.warning(name: input.name, frames: input.frames))
        }
        return inputs.reduce(0) { $0 + $1.frames }
    }

    /// The console summary; with `--html`, its last line also says which file to open first.
    private func printSummary(_ result: ReconciliationResult, inputs: Inputs, crossings: [ThresholdCheck.Crossing]) {
        let out = settings.outDirectory
        let shown = settings.html ? "\(out) (open \(out)/\(HTMLReport.fileName) first)" : out
        console.diagnostic(ReconciliationReport.consoleSummary(result, directory: shown))
        for (side, selection) in [("V1", inputs.v1), ("V2", inputs.v2)] {
            if let line = selection.skippedSummary { console.diagnostic("  \(side) \(line)") }
        }
        for line in ReconciliationReport.transactionConsoleLines(result) { console.diagnostic(line) }
        for line in ReconciliationReport.switchConsoleLines(result.summary) { console.diagnostic(line) }
        if let line = ReconciliationReport.timePrecisionWarning(result.summary) {
            console.diagnostic("\(Self.name): \(line)")
        }
        for crossing in crossings { console.diagnostic("\(Self.name): \(crossing.line)") }
    }

    /// Exit 3 with the failed sanity check when a side rejected too much, else what the findings and thresholds say.
    private func judge(_ result: ReconciliationResult, crossings: [ThresholdCheck.Crossing]) -> (
        ExitStatus, sanity: String?
    ) {
        // v2_records_read counts API records (transactions, statuses) too; their rejects are already in v2_rejected.
        let summary = result.summary
        let sides = [
            SanityCheck.Side(name: "V1", read: summary.v1RecordsRead, rejected: summary.v1Rejected),
            SanityCheck.Side(name: "V2", read: summary.v2RecordsRead, rejected: summary.v2Rejected)
        ]
        if let failed = SanityCheck.failures(sides, maxRejectRate: settings.maxRejectRate, pairedSides: true) {
            return (.sanityCheckFailed, failed)
        }
        return (settings.thresholds.status(base: result.isClean ? .success : .findings, crossings: crossings), nil)
    }

    // MARK: - Helpers

    /// The usage error the inputs call for before anything is read: V2 CSV exports without `--v2-columns`, or the
    /// two sides swapped (unless `force`).
    static func inputProblem(v1Files: [InputFile], v2Files: [InputFile], columnMap: V2ColumnMap?, force: Bool)
        -> ASNError?
    {
        if columnMap == nil, let csv = v2Files.first(where: { V2RecordReader.isCSV($0.path) }) {
            return ASNError(
                .usage,
                "'\(csv.path)' is a CSV export, which needs a column map: pass --v2-columns Mappings/v2-columns.migrate-csv.map "
                    + "for 'migrate --format csv' output (Mappings/v2-columns.migrate-csv-snake.map with --csv-names snake), or write your own "
                    + "from Mappings/v2-columns.example.map (Mappings/README.md, V2 CSV column maps)")
        }
        guard !force else { return nil }
        return SwappedSidesCheck.problem(
            v1: SwappedSidesCheck.look(files: v1Files), v2: SwappedSidesCheck.look(files: v2Files))
    }
}
