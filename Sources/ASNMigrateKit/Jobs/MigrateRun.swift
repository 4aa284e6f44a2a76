import Foundation

/// The `migrate` job: V1 archive in, one V2-shaped payload per record out, in named steps (check the outputs, read
/// the inputs, lock, convert, summarise, judge). The command only parses its flags into `Settings` and runs it.
package struct MigrateRun {
    /// What one run does, as parsed from the command line.
    package struct Settings: Sendable {
        /// `--max-record-bytes` and `--require-checksums`.
        package var inputLimits = InputLimits()
        /// The V1 input roots (`-` is standard input).
        package var inputs: [String]
        /// `--out` (`-` is standard output).
        package var outPath = "-"
        /// `--rejects`.
        package var rejectsPath: String?
        /// `--summary-json`.
        package var summaryPath: String?
        /// `--format`.
        package var format = MigrationOutput.Format.jsonl
        /// `--csv-names`.
        package var csvNames = MigrationOutput.CSVNames.dotted
        /// `--max-reject-rate` (off when nil).
        package var maxRejectRate: Double?
        /// `--mappings` (the built-in rules when nil).
        package var mappingsDirectory: String?
        /// The run date `--summary-json` reports.
        package var runDate: String
        /// `--shard`: only this shard's records are written.
        package var shard: ShardSelection?
        /// The fast per-record path (the reference path when false).
        package var fastPath = true
        /// Worker threads (nil: one per core).
        package var workers: Int?
        /// `--force`: run even when the inputs look like V2 notifications.
        package var force = false

        /// Settings for `inputs` on `runDate`; the rest as the flags' defaults.
        package init(inputs: [String], runDate: String) {
            self.inputs = inputs
            self.runDate = runDate
        }
    }

    /// Where each output goes.
    private struct Targets {
        /// `--out`.
        var out: OutputTarget
        /// `--rejects`.
        var rejects: OutputTarget?
        /// `--summary-json`.
        var summary: OutputTarget?
    }

    /// How many rejects are printed to standard error when `--rejects` is not given.
    static let rejectsShownOnConsole = 10
    /// The prefix of every message.
    private let name = "asn-migrate migrate"

    /// The run's settings.
    package let settings: Settings
    /// Where diagnostics, and standard output when `--out` is `-`, go.
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
        let targets: Targets
        do throws(ASNError) { targets = try resolveTargets() } catch {
            console.diagnostic("\(name): \(ASNError.describe(error)); no output was written")
            return ExitStatus(stoppedBy: error)
        }
        let table: MappingTable
        let selection: InputSelection
        do { (table, selection) = try readInputs() } catch {
            console.diagnostic("\(name): \(ASNError.describe(error))")
            return .failure
        }
        if !settings.force,
            let problem = SwappedSidesCheck.migrateProblem(SwappedSidesCheck.look(files: selection.files))
        {
            console.diagnostic("\(name): \(problem.message); no output was written")
            return .usage
        }
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) { try checkOutputs(against: selection.files) } catch {
            console.diagnostic("\(name): \(error.message); no output was written")
            return ExitStatus(stoppedBy: error)
        }
        do throws(ASNError) { locks = try lock(targets) } catch {
            console.diagnostic("\(name): \(ASNError.describe(error)); no output was written")
            return ExitStatus(stoppedBy: error)
        }
        var summary = MigrationSummary()
        summary.files = selection.files.count
        summary.skippedNotRegular = selection.skipped.count
        for entry in selection.skipped { console.diagnostic("asn-migrate migrate: \(entry.warning)") }
        if selection.files.isEmpty {
            console.diagnostic(
                "\(name): warning: no input files found under \(settings.inputs.joined(separator: ", ")); nothing to do"
            )
        }
        guard let shown = convert(selection.files, table: table, targets: targets, summary: &summary) else {
            return .failure
        }
        return finish(summary, rejectsShown: shown)
    }

    // MARK: - Steps

    /// Resolves every output and refuses two options naming the same one.
    private func resolveTargets() throws(ASNError) -> Targets {
        let out = try OutputTarget.resolve(settings.outPath)
        let rejects = try settings.rejectsPath.map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
        let summary = try settings.summaryPath.map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
        if let rejects, rejects == out {
            throw ASNError(
                .usage,
                "--out and --rejects name the same output ('\(settings.rejectsPath ?? "")'); give them different files")
        }
        if let summary, summary == out || summary == rejects {
            throw ASNError(
                .usage,
                "--summary-json names the same output as --out or --rejects ('\(settings.summaryPath ?? "")'); give it its own file"
            )
        }
        return Targets(out: out, rejects: rejects, summary: summary)
    }

    /// Loads the mapping rules and finds the input files.
    private func readInputs() throws -> (MappingTable, InputSelection) {
        (try MappingLoader.load(settings.mappingsDirectory), try InputPaths.select(settings.inputs, reading: reading))
    }

    /// Refuses an output that is one of the inputs, or inside an input root.
    private func checkOutputs(against files: [InputFile]) throws(ASNError) {
        let outputs =
            [OutputPlan.Output("--out", settings.outPath)]
            + [("--rejects", settings.rejectsPath), ("--summary-json", settings.summaryPath)]
            .compactMap { option, path in path.map { OutputPlan.Output(option, $0) } }
        try OutputPlan(
            outputs: outputs.flatMap(OutputPlan.withLock),
            inputs: settings.inputs.map { OutputPlan.Input("PATH", $0) }
                + (settings.mappingsDirectory.map { [OutputPlan.Input("--mappings", $0)] } ?? []),
            inputFiles: files
        ).check()
    }

    /// Locks every output for the whole run, so a second run on the same files fails at once instead of silently
    /// winning.
    private func lock(_ targets: Targets) throws(ASNError) -> [RunLock] {
        var locks: [RunLock] = []
        do throws(ASNError) {
            for path in [targets.out.lockPath, targets.rejects?.lockPath, targets.summary?.lockPath].compactMap({ $0 })
            {
                locks.append(try RunLock.acquire(path))
            }
        } catch {
            for lock in locks { lock.release() }
            throw error
        }
        return locks
    }

    /// Maps every record on every core and writes the outputs in input order; returns how many rejects were shown on
    /// the console, or nil when the run failed (after saying so).
    private func convert(_ files: [InputFile], table: MappingTable, targets: Targets, summary: inout MigrationSummary)
        -> Int?
    {
        var outputs: [OutputFile] = []
        do {
            var writer = try openWriter(targets: targets, outputs: &outputs)
            try mapAll(files, table: table, writer: &writer, summary: &summary)
            try writer.commit()
            return writer.shownOnConsole
        } catch {
            for output in outputs where !output.isCommitted { output.abort() }
            console.diagnostic("\(name): \(ASNError.describe(error)); \(OutputFile.outcomeOfFailure(outputs))")
            return nil
        }
    }

    /// Opens the output (and `--rejects`) files, adding each to `outputs` as it opens, and the writer over them.
    private func openWriter(targets: Targets, outputs: inout [OutputFile]) throws(ASNError) -> MigrateWriter {
        let outFile = try console.outputFile(settings.outPath, target: targets.out)
        outputs.append(outFile)
        let rejectsFile = try settings.rejectsPath.map { (path: String) throws(ASNError) in
            try console.outputFile(path, target: targets.rejects ?? .standardOutput)
        }
        if let rejectsFile { outputs.append(rejectsFile) }
        return MigrateWriter(
            format: settings.format, csvNames: settings.csvNames, out: outFile, rejects: rejectsFile,
            console: console, shownLimit: Self.rejectsShownOnConsole)
    }

    /// Maps every record on every core and hands the batches to `writer` in input order, so output, rejects and
    /// counts are those of a sequential run.
    private func mapAll(
        _ files: [InputFile], table: MappingTable, writer: inout MigrateWriter, summary: inout MigrationSummary
    ) throws {
        let mapper: any RecordMapping =
            settings.fastPath ? FastRecordMapper(table: table) : V1RecordMapper(table: table)
        // JSON Lines are written straight from each record's bytes where they can be (the fast path's own fastest).
        let direct = settings.fastPath ? TapeMigration(table: table) : nil
        writer.directRoutes = direct?.routes ?? []
        let pipeline = MigrationPipeline(mapper: mapper, workers: settings.workers, direct: direct)
        var progress = ProgressLine.standardError(files: files)
        defer { progress.finish() }
        try pipeline.run(.files(files), renderJSONLines: settings.format == .jsonl, keep: keeper()) { batch in
            progress.advance(bytes: batch.inputBytes, records: batch.outcomes.count + batch.directCount)
            try writer.write(batch, summary: &summary)
        }
    }

    /// With `--shard`, the filter the workers apply before rendering.
    private func keeper() -> (@Sendable (V1RecordOutcome) -> Bool)? {
        guard let shard = settings.shard else { return nil }
        return { outcome in shard.holds(ShardHash.shard(of: outcome, count: shard.count)) }
    }

    /// Prints the summary, writes `--summary-json`, and judges the run.
    private func finish(_ summary: MigrationSummary, rejectsShown: Int) -> ExitStatus {
        for input in reading.unverifiedFrames.take() {
            console.diagnostic("\(name): " + UnverifiedFrames.warning(name: input.name, frames: input.frames))
        }
        let hidden = summary.rejected + summary.unmapped - rejectsShown
        if settings.rejectsPath == nil, hidden > 0 {
            console.diagnostic(
                "\(name): \(hidden) more rejected or unmapped record(s) not shown; use --rejects FILE to list them all")
        }
        console.diagnostic(summary.render())
        if let summaryPath = settings.summaryPath {
            let run = RunInfo(
                runDate: settings.runDate, toolVersion: BuildInfo.versionNumber,
                inputs: settings.inputs.map { RunInfo.Input(side: "v1", root: $0) })
            do {
                try OutputFile.writeWhole(
                    SummaryJSON.render(
                        metrics: summary.metrics + run.metrics, causes: summary.causes.causes,
                        extra: summary.breakdownJSON), to: summaryPath)
            } catch {
                console.diagnostic("\(name): \(error.description); the output was written, the summary JSON was not")
                return .failure
            }
        }
        if summary.read == 0 {
            // An empty or unmounted folder must never pass for a clean run.
            let nothing = "read no records; check the PATH arguments (an empty or unmounted folder, an empty file?)"
            console.diagnostic("\(name): sanity check failed: \(nothing) (exit 3)")
            console.verdict("nothing migrated: the input " + nothing)
            return .sanityCheckFailed
        }
        if let maxRejectRate = settings.maxRejectRate,
            let failed = SanityCheck.failures(
                [.init(name: "input", read: summary.read, rejected: summary.rejected)],
                maxRejectRate: maxRejectRate, pairedSides: false)
        {
            console.diagnostic("\(name): \(failed) (exit 3)")
            return .sanityCheckFailed
        }
        if summary.rejected + summary.unmapped == 0 {
            console.verdict("all \(summary.read) record(s) migrated")
            return .success
        }
        let listed = settings.rejectsPath.map { "see \($0)" } ?? "listed above"
        console.verdict(
            "\(summary.rejected) rejected and \(summary.unmapped) unmapped of \(summary.read) record(s) (\(listed))")
        return .findings
    }
}
