import Foundation

/// `asn-migrate reconcile --v1 PATH… --v2 PATH… [--out DIR] …`: pairs migrated V1 with V2 records and writes CSV reports.
public enum ReconcileCommand {
    /// The command's spec.
    public static let spec = CommandSpec(
        name: "reconcile",
        abstract: "Reconcile archived V1 notifications against V2 records and write CSV difference reports. When standard error is a terminal, a progress line there shows bytes and records per second and the time left.",
        options: [
            .repeatable("--v1", valueName: "PATH", help: "V1 archive file or directory (repeatable; '-' for standard input); or one postgres://USER@HOST/DATABASE URI with --v1-query (password in ~/.pgpass or PGPASSWORD)."),
            .repeatable("--v2", valueName: "PATH", help: "V2 records: raw bodies, decoded payloads, notification history pages, migrate output, or CSV with --v2-columns; also App Store Server API responses (Get Transaction History pages, Get All Subscription Statuses) and transactions, which are compared transaction by transaction (repeatable); or one postgres:// URI with --v2-query."),
            .single("--v1-query", valueName: "SQL", help: "With --v1 postgres://…: the table (its rows in the order of its first column) or SELECT giving a 'body' column (json, jsonb or text), optionally 'received_at' and 'id'."),
            .single("--v2-query", valueName: "SQL", help: "With --v2 postgres://…: the table or SELECT giving 'signed_payload' (a JWS) or 'body' (a V2 body or decoded payload), or the columns of --v2-columns; optionally 'id'."),
            .single("--out", short: "-o", valueName: "DIR", help: "Report folder (default Reports/<run date>/); its content is replaced atomically (a symbolic link to a folder is followed and kept), and only when it is empty or holds nothing but report files; a lock file .DIR.lock beside it keeps two runs from writing it at once."),
            .single("--run-date", valueName: "YYYY-MM-DD", help: "The run date naming the default report folder and reported as run_date in summary.csv (default: today, UTC)."),
            .single("--window", valueName: "DURATION", help: "How far apart a V1 event and a V2 signedDate may be to pair.", defaultValue: "48h", valueKind: .duration),
            .single("--from", valueName: "DATE", help: "First instant judged (ISO 8601 date or instant, UTC); default: the later of both sides' first events. A pair is judged when either record is in the period."),
            .single("--to", valueName: "DATE", help: "Last instant judged (a date means through its end); default: the earlier of both sides' last events."),
            .repeatable("--compare", valueName: "FIELD", help: "Also compare FIELD (only transactionId is off by default)."),
            .repeatable("--ignore-field", valueName: "FIELD", help: "Do not compare FIELD (repeatable): field_mismatch, transaction_field_mismatch and state_mismatch rows alike."),
            .single("--time-tolerance", valueName: "DURATION", help: "Two times that differ by less compare equal (for a side stored with whole seconds, 1s).", defaultValue: "0", valueKind: .duration),
            .single("--v2-columns", valueName: "FILE", help: "Column-mapping file for V2 records given as CSV (see Mappings/v2-columns.example.map); the formula guard ('=…) of this tool's CSV is undone."),
            .single("--mappings", valueName: "DIR", help: "Use DIR/v1-to-v2.rules and DIR/v2-only.rules (and DIR/v2-only-transactions.rules when present) instead of the built-in mapping."),
        ] + signatureOptions(configKeys: false) + [
            .flag("--html", help: "Also write report.html beside the CSV files: one self-contained page (inline CSS and SVG, no script) with the figures, the accounting identities, bar charts of the differences by kind, product and month, the value at stake per currency and the first 50 rows of each kind."),
            .single("--summary-json", valueName: "FILE", help: "Also write the summary figures (summary.csv's metrics, rejects by cause, difference rows per kind) as one JSON object to FILE, atomically."),
            .single("--max-reject-rate", valueName: "RATE", help: SanityCheck.optionHelp + ", or when one side has no records while the other has some.",
                    defaultValue: "1%"),
        ] + thresholdOptions(night: false) + [
            .flag("--force", help: "Run even when the --v1 files look like V2 notifications or the --v2 files like V1 bodies (by default a usage error suggesting to swap them)."),
            .single("--shard", valueName: "K/N", help: "Judge only shard K of N (subscriptions by a stable hash of environment and originalTransactionId; records without one in shard 0) and write that shard's report with shard.csv, for 'asn-migrate merge'. auto/N takes K from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID or CLOUD_RUN_TASK_INDEX."),
            .single("--shards", valueName: "N", help: "Bounded memory on one machine: judge the N shards in turn in this process (reading the input N times) and write the merged report."),
            .single("--memory-limit", valueName: "SIZE", help: "Like --shards, with N estimated from the input's size so the run stays under SIZE (2G, 512M); the console prints the peak reached."),
        ],
        exitStatuses: ExitStatus.allCases
    )

    /// Runs the command; `now` is the clock (epoch ms), passed in so runs are reproducible.
    public static func run(_ arguments: ParsedArguments, console: Console, now: Int64 = currentTime()) -> ExitStatus {
        let name = "asn-migrate reconcile"
        let options: ReconcileOptions
        var outDirectory: String
        let maxRejectRate: Double
        let thresholds: ThresholdCheck
        var sharding = ShardPlan.whole
        do {
            (options, outDirectory) = try parseOptions(arguments, now: now)
            maxRejectRate = try SanityCheck.maxRejectRate(arguments)
            thresholds = try ThresholdCheck.parse(failOn: arguments.values("--fail-on"), warnOn: arguments.values("--warn-on"),
                                                  catalog: ThresholdFigures.reconcile)
            sharding = try shardPlan(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            console.diagnostic("\(name): \(error.message)")
            return .usage
        }
        if case .one(let shard) = sharding {
            // Shards of one run must not share a folder: without --out each gets its own beside the dated one.
            outDirectory = arguments.value("--out").map { $0.replacingOccurrences(of: "{shard}", with: String(shard.index)) }
                ?? "Reports/\(options.run.runDate).shard-\(shard.index)-of-\(shard.count)"
        }
        let destination: String
        let summaryJSONTarget: OutputTarget?
        do {
            destination = try OutputTarget.resolveDirectory(outDirectory)
            summaryJSONTarget = try arguments.value("--summary-json").map { (path: String) throws(ASNError) in try OutputTarget.resolve(path) }
        } catch {
            console.diagnostic("\(name): \(error.description); no report written")
            return .failure
        }
        let v1Database: PostgresSource?, v2Database: PostgresSource?
        do {
            v1Database = try databaseSource(arguments, side: "v1")
            v2Database = try databaseSource(arguments, side: "v2")
        } catch {
            console.diagnostic("\(name): \(error.message)")
            return .usage
        }
        let table: MappingTable
        let v1Files: [InputFile]
        let v2Files: [InputFile]
        let v1Selection: InputSelection, v2Selection: InputSelection
        let columnMap: V2ColumnMap?
        let signatures: SignaturePolicy?
        let transactionRules: V2OnlyTransactionRules
        do {
            signatures = try signaturePolicy(arguments)
        } catch {
            console.diagnostic("\(name): \(error.message)")
            return .usage
        }
        do {
            table = try MappingLoader.load(arguments.value("--mappings"))
            transactionRules = try V2OnlyTransactionRules.load(directory: arguments.value("--mappings"))
            v1Selection = try InputPaths.select(v1Database == nil ? arguments.values("--v1") : [])
            v2Selection = try InputPaths.select(v2Database == nil ? arguments.values("--v2") : [])
            v1Files = v1Selection.files
            // A fetch folder's own files (its summary and not-found list) are not Apple's answers: never read as records.
            v2Files = v2Selection.files.filter { !FetchOutput.isOwnFile($0.path) }
            columnMap = try arguments.value("--v2-columns").map { (path: String) throws(ASNError) in try V2ColumnMap.load(path: path) }
        } catch {
            console.diagnostic("\(name): \(ASNError.describe(error)); no report written")
            return .failure
        }
        if let problem = inputProblem(v1Files: v1Files, v2Files: v2Files, columnMap: columnMap, force: arguments.flag("--force")) {
            console.diagnostic("\(name): \(problem.message); no report written")
            return .usage
        }

        do throws(ASNError) {
            let outputs = [OutputPlan.Output("--out", outDirectory, kind: .folder)]
                + (arguments.value("--summary-json").map { [OutputPlan.Output("--summary-json", $0)] } ?? [])
            let settings = [("--v2-columns", arguments.value("--v2-columns")), ("--mappings", arguments.value("--mappings"))]
                .compactMap { option, path in path.map { OutputPlan.Input(option, $0) } }
                + arguments.values("--root-certificate").map { OutputPlan.Input("--root-certificate", $0) }
            try OutputPlan(outputs: outputs.flatMap(OutputPlan.withLock),
                           inputs: arguments.values("--v1").filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v1", $0) }
                               + arguments.values("--v2").filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v2", $0) } + settings,
                           inputFiles: v1Files + v2Files).check()
        } catch {
            console.diagnostic("\(name): \(error.message); no report written")
            return error.code == .usage ? .usage : .failure
        }

        // Held for the whole run (beside the folder, never inside it), so a second run fails at once instead of silently winning.
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) {
            locks.append(try RunLock.acquire(RunLock.lockPath(besideOutput: destination)))
            if let lockPath = summaryJSONTarget?.lockPath { locks.append(try RunLock.acquire(lockPath)) }
        } catch {
            console.diagnostic("\(name): \(error.description); no report written")
            return error.code == .locked ? .locked : .failure
        }

        // A database that cannot be reached or is set up wrong fails here, before anything is read.
        for source in [v1Database, v2Database].compactMap({ $0 }) {
            do {
                try PostgresReader(source: source).checkConnection()
            } catch {
                console.diagnostic("\(name): --\(source.side): \(error.message); no report written")
                return databaseStatus(error)
            }
        }
        for (side, found) in [("--v1", v1Database == nil ? v1Files : [InputFile(path: "database")]),
                              ("--v2", v2Database == nil ? v2Files : [InputFile(path: "database")])] where found.isEmpty {
            console.diagnostic("\(name): warning: no input files found under \(side) \(arguments.values(side).joined(separator: ", "))")
        }
        for entry in v1Selection.skipped + v2Selection.skipped { console.diagnostic("\(name): \(entry.warning)") }
        // One pass reads every input and judges the records of `shard` (all of them when nil).
        func pass(_ shard: ShardSelection?) -> Result<ReconciliationResult, ASNError> {
            if shard != nil, v1Database != nil || v2Database != nil {
                return .failure(ASNError(.usage, "--shard, --shards and --memory-limit read files; a PostgreSQL source is not split yet: reconcile it without sharding, or export it to files"))
            }
            var reconciler = Reconciler(table: table, options: options)
            reconciler.collectsPrices = arguments.flag("--html")
            var v2Reader = ParallelV2Reader(columnMap: columnMap)
            v2Reader.reader.decoder.signatures = signatures
            if signatures != nil { reconciler.v2Unverified = 0 }
            var transactions = TransactionReconciler(rules: transactionRules, options: options)
            var collector = V1TransactionCollector()
            var v2Notifications = 0
            // A shard keeps its own records but the period and the pending edges come from every record read.
            var spans = ShardSpans()
            let holds = { (k: Int) in shard.map { $0.holds(k) } ?? true }
            // Both sides are read one after the other: one line over all their bytes, shown only on a terminal.
            var progress = ProgressLine.standardError(files: v2Files + v1Files, label: shard.map { "reconcile \($0.text)" } ?? "reconcile")
            do {
                // The V2 side first (decoded on all cores, in input order), so the V1 pass knows whether it must also
                // gather transactions; its rejects are handed over after V1's, keeping rejected.csv's order.
                var v2Rejects: [ASNError] = []
                let addV2 = { (outcome: V2ReadOutcome) in
                    switch outcome {
                    case .record(let r):
                        spans.addV2(r.payload)
                        guard holds(ShardHash.shard(of: r.payload, count: shard?.count ?? 1)) else { return }
                        v2Notifications += 1
                        reconciler.addV2(r.payload, location: r.location, digest: r.contentDigest)
                        if signatures != nil && !r.signatureVerified { reconciler.v2Unverified? += 1 }
                    case .api(let record): transactions.add(record)
                    case .rejected(let error): if holds(0) { v2Rejects.append(error) }
                    }
                }
                if let v2Database {
                    try PostgresReader(source: v2Database).v2Outcomes(decoder: v2Reader.reader.decoder, columnMap: columnMap) { outcome in
                        progress.advance(bytes: 0, records: 1)
                        addV2(outcome)
                    }
                } else {
                    try v2Reader.read(v2Files, progress: { progress.advance(bytes: $0, records: $1) }, addV2)
                }
                let v1Reader = v1Database.map { PostgresReader(source: $0) }
                if transactions.holdsRecords {
                    guard shard == nil else {
                        progress.finish()
                        return .failure(ASNError(.usage, "the V2 side holds App Store Server API records (transactions, statuses), which --shard, --shards and --memory-limit do not split yet; reconcile them without sharding"))
                    }
                    // Apple's API view: the same parallel pass also reads every record's transactions.
                    collector = V1TransactionCollector(statusSubscriptions: transactions.statusSubscriptions)
                    let consume = { (batch: TransactionFactsPipeline.Batch) in
                        progress.advance(bytes: batch.inputBytes, records: batch.outcomes.count)
                        for outcome in batch.outcomes { reconciler.addV1(outcome) }
                        for facts in batch.facts { collector.add(facts) }
                    }
                    let pipeline = TransactionFactsPipeline(mapper: FastRecordMapper(table: table))
                    if let v1Reader {
                        try pipeline.run(produce: { try v1Reader.v1Records($0) }, consume: consume)
                    } else {
                        try pipeline.run(files: v1Files, consume: consume)
                    }
                } else {
                    // The V1 side streams through the same parallel pipeline and fast path as `migrate`, in input order.
                    let consume = { (batch: MigrationBatch) in
                        progress.advance(bytes: batch.inputBytes, records: batch.outcomes.count)
                        for outcome in batch.outcomes {
                            spans.addV1(outcome)
                            if holds(ShardHash.shard(of: outcome, count: shard?.count ?? 1)) { reconciler.addV1(outcome) }
                        }
                    }
                    let pipeline = MigrationPipeline(mapper: FastRecordMapper(table: table))
                    if let v1Reader {
                        try pipeline.run(produce: { try v1Reader.v1Records($0) }, renderJSONLines: false, consume: consume)
                    } else {
                        try pipeline.run(files: v1Files, renderJSONLines: false, consume: consume)
                    }
                }
                for error in v2Rejects { reconciler.addV2Reject(error) }
                progress.finish()
            } catch {
                progress.finish()
                return .failure((error as? ASNError) ?? ASNError(.unreadableInput, ASNError.describe(error)))
            }
            if shard != nil {
                reconciler.options.v1Span = spans.v1
                reconciler.options.v2Span = spans.v2
            }
            var result = reconciler.finish()
            if transactions.holdsRecords {
                result = result.adding(transactions.finish(v1: collector), notificationsCompared: v2Notifications > 0)
            }
            result.countTimePrecision()
            return .success(result)
        }

        if case .memoryLimit(let limit) = sharding {
            sharding = .inTurn(MemoryBudget.passes(inputBytes: MemoryBudget.inputBytes(v1Files + v2Files), limit: limit))
        }
        if sharding != .whole {
            return runSharded(sharding, pass: pass, options: options, table: table, destination: destination, outDirectory: outDirectory,
                              maxRejectRate: maxRejectRate, console: console)
        }
        var result: ReconciliationResult
        switch pass(nil) {
        case .success(let whole): result = whole
        case .failure(let error):
            console.diagnostic("\(name): \(ASNError.describe(error)); no report written")
            return error.code == .usage ? .usage : databaseStatus(error)
        }
        let crossings = thresholds.crossings(ThresholdFigures.reconcile(result))
        if !thresholds.rules.isEmpty { result.summary.thresholds = thresholds.counts(crossings) }
        do {
            let files = ReconciliationReport.files(result) + (arguments.flag("--html") ? [(HTMLReport.fileName, HTMLReport.reconcile(result).render())] : [])
            try AtomicOutput.writeDirectoryAtomically(path: destination, replacing: reportNames) { (staging: StagingDirectory) throws(ASNError) in
                for file in files { try staging.write(name: file.name, bytes: file.bytes) }
            }
        } catch {
            console.diagnostic("\(name): \(error.description); no report written")
            return .failure
        }
        if let path = arguments.value("--summary-json") {
            do {
                try OutputFile.writeWhole(ReconciliationReport.summaryJSON(result), to: path)
            } catch {
                console.diagnostic(ReconciliationReport.consoleSummary(result, directory: outDirectory))
                console.diagnostic("\(name): \(error.description); the report folder was written, the summary JSON was not")
                return .failure
            }
        }
        // With --html, the last line also says which file to open first.
        let shown = arguments.flag("--html") ? "\(outDirectory) (open \(outDirectory)/\(HTMLReport.fileName) first)" : outDirectory
        console.diagnostic(ReconciliationReport.consoleSummary(result, directory: shown))
        for (side, selection) in [("V1", v1Selection), ("V2", v2Selection)] {
            if let line = selection.skippedSummary { console.diagnostic("  \(side) \(line)") }
        }
        for line in ReconciliationReport.transactionConsoleLines(result) { console.diagnostic(line) }
        if let line = ReconciliationReport.timePrecisionWarning(result.summary) { console.diagnostic("\(name): \(line)") }
        for crossing in crossings { console.diagnostic("\(name): \(crossing.line)") }
        // v2_records_read counts API records (transactions, statuses) too; their rejects are already in v2_rejected.
        let summary = result.summary
        let sides = [SanityCheck.Side(name: "V1", read: summary.v1RecordsRead, rejected: summary.v1Rejected),
                     SanityCheck.Side(name: "V2", read: summary.v2RecordsRead, rejected: summary.v2Rejected)]
        if let failed = SanityCheck.failures(sides, maxRejectRate: maxRejectRate, pairedSides: true) {
            console.diagnostic("\(name): \(failed) (exit 3)")
            return .sanityCheckFailed
        }
        return thresholds.status(base: result.isClean ? .success : .findings, crossings: crossings)
    }

    // MARK: - Shards

    /// How a run is split: not at all, one shard of N (`--shard`), or N shards in turn (`--shards`, `--memory-limit`).
    enum ShardPlan: Sendable, Equatable {
        /// The whole input in one pass (no sharding option).
        case whole
        /// `--shard K/N`: this shard only, written with `shard.csv`.
        case one(ShardSelection)
        /// `--shards N`: every shard in turn, merged.
        case inTurn(Int)
        /// `--memory-limit SIZE` (bytes): shards in turn, N from the input's size.
        case memoryLimit(Int64)
    }

    /// The files a reconcile report folder may hold (its report files and a shard's `shard.csv`), so a rerun replaces
    /// a shard folder's manifest too and never anything else.
    static let reportNames = Set(ReconciliationReport.fileNames + [ShardManifest.fileName, HTMLReport.fileName])

    /// The sharding options, checked: at most one of `--shard`, `--shards`, `--memory-limit`, and none of them with
    /// what a shard cannot compute alone (`--summary-json`, `--fail-on`, `--warn-on`); `--shard auto/N` reads
    /// `environment`.
    static func shardPlan(_ arguments: ParsedArguments, environment: [String: String]) throws(ASNError) -> ShardPlan {
        let given = ["--shard", "--shards", "--memory-limit"].filter { arguments.value($0) != nil }
        guard let option = given.first else { return .whole }
        guard given.count == 1 else {
            throw ASNError(.usage, "\(given.joined(separator: " and ")) exclude each other: --shard K/N runs one shard (merge them with 'asn-migrate merge'), --shards N and --memory-limit run every shard in turn here")
        }
        for other in ["--summary-json", "--fail-on", "--warn-on", "--html"] where arguments.flag(other) || arguments.value(other) != nil || !arguments.values(other).isEmpty {
            throw ASNError(.usage, "\(other) does not work with \(option) yet: run the unsharded reconcile for it, or read the merged summary.csv")
        }
        let value = arguments.value(option) ?? ""
        switch option {
        case "--shard":
            return .one(try ShardSelection.parse(value, environment: environment))
        case "--shards":
            let count = try ShardSelection.parse("0/" + value, option: "--shards", environment: [:]).count
            guard !(arguments.values("--v1") + arguments.values("--v2")).contains("-") else {
                throw ASNError(.usage, "--shards reads the input once per shard, so standard input ('-') cannot be one; give files")
            }
            return .inTurn(count)
        default:
            guard !(arguments.values("--v1") + arguments.values("--v2")).contains("-") else {
                throw ASNError(.usage, "--memory-limit may read the input once per shard, so standard input ('-') cannot be one; give files")
            }
            return .memoryLimit(try MemoryBudget.parseSize(value))
        }
    }

    /// Runs a sharded plan: one shard written with its `shard.csv`, or every shard in turn merged by `ReportMerge`
    /// (the code `asn-migrate merge` runs) into the report the unsharded run writes.
    static func runSharded(_ plan: ShardPlan, pass: (ShardSelection?) -> Result<ReconciliationResult, ASNError>, options: ReconcileOptions,
                           table: MappingTable, destination: String, outDirectory: String, maxRejectRate: Double, console: Console) -> ExitStatus {
        let name = "asn-migrate reconcile"
        let shards: [ShardSelection]
        switch plan {
        case .one(let shard): shards = [shard]
        case .inTurn(let count): shards = (0..<count).map { ShardSelection(index: $0, count: count) }
        case .whole, .memoryLimit: shards = [ShardSelection(index: 0, count: 1)]
        }
        let digest = ShardManifest.judgementDigest(table: table, options: options)
        var folders: [ReportMerge.Folder] = []
        for shard in shards {
            let result: ReconciliationResult
            switch pass(shard) {
            case .success(let judged): result = judged
            case .failure(let error):
                console.diagnostic("\(name): \(ASNError.describe(error)); no report written")
                return error.code == .usage ? .usage : .failure
            }
            let manifest = ShardManifest(command: "reconcile", shard: shard, runDate: options.run.runDate, judgementDigest: digest, toolVersion: options.run.toolVersion)
            var files = Dictionary(uniqueKeysWithValues: ReconciliationReport.files(result).map { ($0.name, $0.bytes) })
            files[ShardManifest.fileName] = manifest.bytes
            if case .inTurn = plan {
                console.diagnostic("\(name): shard \(shard.text) judged: V1 \(result.summary.v1RecordsRead), V2 \(result.summary.v2RecordsRead) records; peak memory so far \(MemoryBudget.peakResidentBytes() >> 20) MiB")
            }
            folders.append(ReportMerge.Folder(name: "shard \(shard.text)", files: files))
        }
        let written: [(name: String, bytes: [UInt8])]
        do {
            if case .one = plan {
                written = ReconciliationReport.fileNames.compactMap { file in folders[0].files[file].map { (file, $0) } }
                    + [(ShardManifest.fileName, folders[0].files[ShardManifest.fileName] ?? [])]
            } else {
                written = try ReportMerge.reconcile(folders)
            }
            try AtomicOutput.writeDirectoryAtomically(path: destination, replacing: reportNames) { (staging: StagingDirectory) throws(ASNError) in
                for file in written { try staging.write(name: file.name, bytes: file.bytes) }
            }
        } catch {
            console.diagnostic("\(name): \(error.description); no report written")
            return .failure
        }
        let what: String
        switch plan {
        case .one(let shard): what = "shard \(shard.text) written; findings and the reject rate are judged by 'asn-migrate merge'"
        default: what = "\(shards.count) shard\(shards.count == 1 ? "" : "s") in turn, merged; peak memory \(MemoryBudget.peakResidentBytes() >> 20) MiB"
        }
        // A shard's findings and reject rate are the merged report's to judge (shard 0 holds every reject): a written
        // shard exits 0, so a batch engine retries only shards that failed.
        var judge = true
        if case .one = plan { judge = false }
        return MergeCommand.finish(written, label: name, what: what, directory: outDirectory, maxRejectRate: maxRejectRate, judge: judge, console: console)
    }

    /// The `--fail-on` / `--warn-on` options `reconcile` and `nightly` share; `night` says what the kinds count.
    static func thresholdOptions(night: Bool) -> [OptionSpec] {
        let kinds = night ? "a difference kind (the night's new.csv rows of that kind)" : "a difference kind (its rows in differences.csv)"
        let rule = "RULE is FIGURE OPERATOR LIMIT: FIGURE is \(kinds), a summary.csv count or rejects; OPERATOR >, >=, <, <=, ==; LIMIT a count or a percentage (state_mismatch>0.5%, of the figure's denominator: README, Thresholds)"
        return [
            .repeatable("--fail-on", valueName: "RULE", help: "Exit 1 when RULE holds (repeatable); with any --fail-on, exit 1 means a crossed --fail-on rule and nothing else. " + rule + "."),
            .repeatable("--warn-on", valueName: "RULE", help: "Print a warning and count it (thresholds_warned in summary.csv) when RULE holds (repeatable). " + rule + "."),
        ]
    }

    /// The usage error the inputs call for before anything is read: V2 CSV exports without `--v2-columns`, or the
    /// two sides swapped (unless `force`).
    static func inputProblem(v1Files: [InputFile], v2Files: [InputFile], columnMap: V2ColumnMap?, force: Bool) -> ASNError? {
        if columnMap == nil, let csv = v2Files.first(where: { V2RecordReader.isCSV($0.path) }) {
            return ASNError(.usage, "'\(csv.path)' is a CSV export, which needs a column map: pass --v2-columns Mappings/v2-columns.migrate-csv.map "
                + "for 'migrate --format csv' output (Mappings/v2-columns.migrate-csv-snake.map with --csv-names snake), or write your own "
                + "from Mappings/v2-columns.example.map (README, Column-mapping file)")
        }
        guard !force else { return nil }
        return SwappedSidesCheck.problem(v1: SwappedSidesCheck.look(files: v1Files), v2: SwappedSidesCheck.look(files: v2Files))
    }

    /// The wall clock in epoch ms (used only for the default run date).
    public static func currentTime() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Validates the options; usage errors name the option.
    static func parseOptions(_ arguments: ParsedArguments, now: Int64) throws(ASNError) -> (ReconcileOptions, String) {
        guard !arguments.values("--v1").isEmpty else {
            throw ASNError(.usage, "missing --v1 PATH: give the V1 archive (file, directory or '-'). See 'asn-migrate reconcile --help'.")
        }
        guard !arguments.values("--v2").isEmpty else {
            throw ASNError(.usage, "missing --v2 PATH: give the V2 records (file or directory). See 'asn-migrate reconcile --help'.")
        }
        let standardInputs = (arguments.values("--v1") + arguments.values("--v2")).filter { $0 == "-" }.count
        guard standardInputs <= 1 else {
            throw ASNError(.usage, "'-' (standard input) given \(standardInputs) times across --v1 and --v2; standard input can be read only once")
        }
        var options = ReconcileOptions()
        if let window = try arguments.durationMilliseconds("--window") { options.window = window }
        if let tolerance = try arguments.durationMilliseconds("--time-tolerance") { options.timeTolerance = tolerance }
        if let from = arguments.value("--from") {
            guard let parsed = Timestamp.parseUTCDayOrInstant(from) else {
                throw ASNError(.usage, "option '--from' needs a date (2021-03-01) or an ISO 8601 instant (2021-03-01T07:00:00Z), not '\(from)'")
            }
            options.from = parsed.ms
        }
        if let to = arguments.value("--to") {
            guard let parsed = Timestamp.parseUTCDayOrInstant(to) else {
                throw ASNError(.usage, "option '--to' needs a date (2021-03-01) or an ISO 8601 instant (2021-03-01T07:00:00Z), not '\(to)'")
            }
            options.to = parsed.isWholeDay ? parsed.ms + Timestamp.millisecondsPerDay - 1 : parsed.ms
        }
        if let from = options.from, let to = options.to, from > to {
            throw ASNError(.usage, "--from is after --to: the period would be empty")
        }
        var fields = ComparedField.defaultFields
        for name in arguments.values("--compare") {
            guard let field = ComparedField(rawValue: name) else { throw unknownField(name, option: "--compare") }
            if !fields.contains(field) { fields.append(field) }
        }
        for name in arguments.values("--ignore-field") {
            guard let field = ComparedField(rawValue: name) else { throw unknownField(name, option: "--ignore-field") }
            fields.removeAll { $0 == field }
        }
        options.fields = ComparedField.allCases.filter(fields.contains)

        let runDate = try runDate(arguments, now: now)
        options.run = RunInfo(runDate: runDate, toolVersion: BuildInfo.versionNumber,
                              inputs: arguments.values("--v1").map { RunInfo.Input(side: "v1", root: describedRoot($0, arguments, side: "v1")) }
                                  + arguments.values("--v2").map { RunInfo.Input(side: "v2", root: describedRoot($0, arguments, side: "v2")) })
        return (options, arguments.value("--out") ?? "Reports/\(runDate)")
    }

    /// The run date: `--run-date` (a whole day) or the day of `now`, UTC, as `YYYY-MM-DD`.
    static func runDate(_ arguments: ParsedArguments, now: Int64) throws(ASNError) -> String {
        guard let given = arguments.value("--run-date") else { return Timestamp.day(ms: now) }
        guard let parsed = Timestamp.parseUTCDayOrInstant(given), parsed.isWholeDay else {
            throw ASNError(.usage, "option '--run-date' needs a date like 2021-03-01, not '\(given)'")
        }
        return Timestamp.day(ms: parsed.ms)
    }

    /// The signature options `reconcile` and `nightly` share; `configKeys` adds how the nightly config file spells the flags.
    static func signatureOptions(configKeys: Bool) -> [OptionSpec] {
        let config = { (line: String) in configKeys ? " In the config: \(line)." : "" }
        return [
            .flag("--verify-signatures", help: "Verify every V2 JWS (chain to Apple Root CA - G3, marker OIDs, validity at signedDate, ES256); failures are 'signature:' rejects." + config("verify-signatures = yes")),
            .flag("--require-signatures", help: "With --verify-signatures: reject V2 records given decoded (JSON, CSV) instead of counting them as v2_unverified." + config("require-signatures = yes")),
            .repeatable("--root-certificate", valueName: "FILE", help: "With --verify-signatures: also accept chains ending in this root, DER or PEM (for test CAs such as simulate --sign writes)."),
            .single("--bundle-id", valueName: "ID", help: "With --verify-signatures: reject V2 records of another bundle ID."),
            .single("--app-apple-id", valueName: "N", help: "With --verify-signatures: reject V2 records of another appAppleId (Production notifications must carry it)."),
        ]
    }

    /// The signature checks asked for, or nil without `--verify-signatures`; the options that need it are usage
    /// errors without it, and unreadable root certificates are usage errors naming the file.
    static func signaturePolicy(_ arguments: ParsedArguments) throws(ASNError) -> SignaturePolicy? {
        try SignaturePolicy.resolve(verify: arguments.flag("--verify-signatures"), requireSignatures: arguments.flag("--require-signatures"),
                                    rootCertificates: arguments.values("--root-certificate"), bundleId: arguments.value("--bundle-id"),
                                    appAppleId: arguments.value("--app-apple-id"))
    }

    // MARK: - Database sources

    /// The PostgreSQL source of `side` (`v1`/`v2`), or nil when that side reads files. A URI must be the side's only
    /// input and needs `--SIDE-query`; `--SIDE-query` without a URI is a usage error.
    static func databaseSource(_ arguments: ParsedArguments, side: String) throws(ASNError) -> PostgresSource? {
        let values = arguments.values("--\(side)")
        let query = arguments.value("--\(side)-query")
        guard let uri = values.first(where: PostgresSource.isURI) else {
            if query != nil {
                throw ASNError(.usage, "--\(side)-query needs --\(side) postgres://USER@HOST/DATABASE; the files given to --\(side) are read as files")
            }
            return nil
        }
        guard values.count == 1 else {
            throw ASNError(.usage, "--\(side) \(PostgresSource.redacted(uri)) must be the only --\(side) input (\(values.count) given); read files and the database in separate runs")
        }
        guard let query, !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ASNError(.usage, "--\(side) \(PostgresSource.redacted(uri)) needs --\(side)-query TABLE or --\(side)-query 'SELECT …' (README, Reading from PostgreSQL)")
        }
        return PostgresSource(side: side, uri: uri, query: query)
    }

    /// How the summary names an input root: a path as given, a database URI without its password and with what was read.
    static func describedRoot(_ root: String, _ arguments: ParsedArguments, side: String) -> String {
        guard PostgresSource.isURI(root) else { return root }
        return PostgresSource(side: side, uri: root, query: arguments.value("--\(side)-query") ?? "").describedRoot
    }

    /// The exit status for a failed run: 75 for a database that could not be reached or dropped the connection,
    /// 78 for a database set up wrong, else 2.
    static func databaseStatus(_ error: any Error) -> ExitStatus {
        (error as? ASNError).map { ExitStatus.failure(for: $0.code) } ?? .failure
    }

    private static func unknownField(_ name: String, option: String) -> ASNError {
        ASNError(.usage, "option '\(option)': unknown field '\(name)'; fields: \(ComparedField.allCases.map(\.rawValue).joined(separator: ", "))")
    }
}
