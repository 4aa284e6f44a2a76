import Foundation

/// `asn-migrate nightly [--config FILE] …`: the incremental, cron-driven reconciliation over a state database.
public enum NightlyCommand {
    /// The named steps a run reports to `stepReached`, in run order: records ingested into the open transaction,
    /// subscriptions settled, the state committed, the reports published.
    public static let steps = ["ingested", "settled", "committed", "published"]

    /// The command's spec; every config key is also a flag with the same name.
    public static let spec = CommandSpec(
        name: "nightly",
        abstract: "Reconcile the V1 and V2 files that arrived since the last run against a state database; report new, open, resolved and pending differences.",
        options: [
            .single("--config", valueName: "FILE", help: "Config file of 'key = value' lines (keys are the options below without '--'); flags win over it."),
            .repeatable("--v1", valueName: "PATH", help: "V1 input root: file or directory (repeatable); or one postgres:// URI with --v1-query."),
            .repeatable("--v2", valueName: "PATH", help: "V2 input root: file or directory (repeatable); or one postgres:// URI with --v2-query."),
            .single("--v2-columns", valueName: "FILE", help: "Column-mapping file for V2 records given as CSV."),
            .single("--v1-query", valueName: "SQL", help: "With --v1 postgres://…: the table or SELECT giving 'id', 'body' and optionally 'received_at' (README, Reading from PostgreSQL)."),
            .single("--v2-query", valueName: "SQL", help: "With --v2 postgres://…: the table or SELECT giving 'id' and 'signed_payload' or 'body' (or the columns the --v2-columns map names)."),
            .single("--v1-since-column", valueName: "COLUMN", help: "With --v1 postgres://…: a column that grows as rows arrive (received_at, or an id sequence); each night reads rows from its high-water mark less --since-overlap."),
            .single("--v2-since-column", valueName: "COLUMN", help: "With --v2 postgres://…: as --v1-since-column."),
            .single("--since-overlap", valueName: "DURATION", help: "How far before the high-water mark of a time since-column a night reads again, for rows that arrive late (default 3d); rows already read are skipped by id.", valueKind: .duration),
            .single("--state", valueName: "FILE", help: "The state database (SQLite; default Reports/state.sqlite)."),
            .single("--reports", valueName: "DIR", help: "Reports root; each run writes DIR/<run date>/ (default Reports/)."),
            .single("--window", valueName: "DURATION", help: "How far apart a V1 event and a V2 signedDate may be to pair (default 48h).", valueKind: .duration),
            .repeatable("--ignore-field", valueName: "FIELD", help: "Do not compare FIELD (repeatable), as reconcile --ignore-field."),
            .single("--time-tolerance", valueName: "DURATION", help: "Two times that differ by less compare equal (default 0), as reconcile --time-tolerance.", valueKind: .duration),
            .single("--settle", valueName: "DURATION", help: "How long an unpaired record stays pending before it is a difference (default 72h).", valueKind: .duration),
            .single("--horizon", valueName: "DURATION", help: "How long records of settled subscriptions are kept: none (the default: for ever, nightly equals reconcile) or a duration such as 400d, which trades exactness for a smaller state (README, Forget)."),
            .single("--environment", valueName: "NAME", help: "Only records of this environment.", valueKind: .choice(["Production", "Sandbox"])),
            .single("--mappings", valueName: "DIR", help: "Use DIR/v1-to-v2.rules and DIR/v2-only.rules instead of the built-in mapping."),
            .single("--retention-days", valueName: "N", help: "Remove report folders older than N days (default: keep all).", valueKind: .integer(1...36_500)),
            .single("--max-reject-rate", valueName: "RATE", help: SanityCheck.optionHelp + " in the run (default 1%), or when the state holds records of one side only."),
            .single("--metrics-file", valueName: "FILE", help: "Write the run's figures in the Prometheus text format to FILE (atomically)."),
            .single("--run-date", valueName: "YYYY-MM-DD", help: "The night to run for; 'now' is the end of that day (UTC). Default: today, UTC."),
            .single("--state-backup", valueName: "DIR", help: "Before each night, copy the state to DIR/before-<run date>.sqlite (kept as long as --retention-days keeps reports); restore one to roll back."),
            .flag("--allow-future-run-date", help: "Accept a --run-date more than a day after the machine's clock (refused otherwise: exit 64)."),
            .single("--min-file-age", valueName: "DURATION", help: "Leave files modified less than this long ago (machine clock) for a later night (default 10m; 0 reads everything).", valueKind: .duration),
            .flag("--no-html", help: "Do not write report.html (written by default beside the CSV files: the night's figures, charts of the open differences, the open-item trend over the last 30 nights). In the config: no-html = yes."),
            .single("--max-lag", valueName: "DURATION", help: "Exit 3 when a side's newest record is older than this at the end of the run date (default 2d; per side: v1=3d,v2=1d)."),
        ] + ReconcileCommand.signatureOptions(configKeys: true) + ReconcileCommand.thresholdOptions(night: true),
        exitStatuses: ExitStatus.allCases
    )

    /// Runs the command; `clock` gives the wall time (epoch ms); `stepReached` is called with each of `steps` as the
    /// run passes it (the crash tests' host binary stops there to be killed).
    public static func run(_ arguments: ParsedArguments, console: Console, clock: @escaping () -> Int64 = ReconcileCommand.currentTime,
                           stepReached: @escaping (String) -> Void = { _ in }) -> ExitStatus {
        let startedAt = clock()
        let log = { (line: String) in console.diagnostic("\(Timestamp.iso8601(ms: clock())) asn-migrate nightly: \(ConsoleText.line(line))") }
        let step = stepReached

        // Settings: config file, then flags.
        let settings: NightlySettings
        let signatures: SignaturePolicy?
        let thresholds: ThresholdCheck
        do {
            var config: NightlyConfigFile?
            if let path = arguments.value("--config") {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ASNError(.usage, "cannot read the config file '\(path)'; check the path")
                }
                config = try NightlyConfigFile(path: path, text: String(decoding: data, as: UTF8.self))
            }
            settings = try NightlySettings.resolve(arguments, config: config)
            signatures = try settings.signaturePolicy()
            thresholds = try ThresholdCheck.parse(failOn: settings.failOn, warnOn: settings.warnOn, catalog: ThresholdFigures.nightly)
        } catch let error as ASNError {
            log(error.message)
            return .usage
        } catch {
            log("\(error)")
            return .usage
        }
        if let refusal = refusal(settings, clock: startedAt) {
            log(refusal)
            return .usage
        }

        let date = settings.day(clock: startedAt)
        let now = settings.now(clock: startedAt)
        // Checked before anything is written (the metrics file included): no output may be or lie inside an input.
        do throws(ASNError) {
            let reportFolder = (settings.reports.hasSuffix("/") ? settings.reports : settings.reports + "/") + date
            let outputs = [OutputPlan.Output("--state", settings.state), OutputPlan.Output("the lock of --state", RunLock.lockPath(besideOutput: settings.state)),
                           OutputPlan.Output("--reports", reportFolder, kind: .folder)]
                + (settings.metricsFile.map { [OutputPlan.Output("--metrics-file", $0)] } ?? [])
                + (settings.stateBackup.map { [OutputPlan.Output("--state-backup", $0, kind: .folder)] } ?? [])
            let settingsFiles = [("--config", arguments.value("--config")), ("--v2-columns", settings.v2Columns), ("--mappings", settings.mappings)]
                .compactMap { option, path in path.map { OutputPlan.Input(option, $0) } }
                + settings.rootCertificates.map { OutputPlan.Input("--root-certificate", $0) }
            try OutputPlan(outputs: outputs,
                           inputs: settings.v1.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v1", $0) }
                               + settings.v2.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v2", $0) } + settingsFiles).check()
        } catch {
            console.diagnostic("asn-migrate nightly: \(error.message); nothing was written")
            return error.code == .usage ? .usage : .failure
        }
        var status = ExitStatus.failure
        var report: NightlyReport?
        var store: NightlyStore?
        var writesMetrics = true
        var committed = false
        defer {
            // A run turned away by the lock leaves the metrics to the run holding it.
            if writesMetrics, let metricsFile = settings.metricsFile {
                // A run that could not read the state leaves the last success as the previous metrics file had it.
                let lastSuccess = (try? store?.lastSuccess()).flatMap { $0 }.flatMap(Timestamp.parseISO8601).map { $0 / 1000 }
                    ?? FileManager.default.contents(atPath: metricsFile).flatMap { NightlyMetrics.lastSuccess(in: String(decoding: $0, as: UTF8.self)) }
                let text = NightlyMetrics.render(report, status: status, durationSeconds: Double(clock() - startedAt) / 1000,
                                                 lastSuccessSeconds: lastSuccess)
                do {
                    try AtomicOutput.writeFileAtomically(path: metricsFile, bytes: Array(text.utf8))
                } catch {
                    log("cannot write the metrics file: \(error.description)")
                }
            }
        }
        do {
            let table = try MappingLoader.load(settings.mappings)
            let columnMap = try settings.v2Columns.map { (path: String) throws(ASNError) in try V2ColumnMap.load(path: path) }
            // One run at a time per state database: the lock sits beside it and is held until the run ends.
            let lock: RunLock
            do {
                lock = try RunLock.acquire(RunLock.lockPath(besideOutput: settings.state))
            } catch where error.code == .locked {
                log(error.message)
                writesMetrics = false
                status = .locked
                return status
            }
            defer { lock.release() }
            try NightlyStore.checkStateFile(settings.state)
            let opened = try NightlyStore(path: settings.state)
            store = opened
            if let latest = try opened.latestRun() {
                guard latest.date <= date else {
                    log("the state '\(settings.state)' already has a run for \(latest.date), after --run-date \(date); run dates must not go back")
                    status = .usage
                    return status
                }
                if !latest.published, latest.date != date {
                    // A run committed its state but was stopped before publishing: publish its reports first, from that state.
                    let earlier = try NightlyReport.collect(opened, date: latest.date, settings: settings)
                    try publish(earlier, settings: settings)
                    try opened.transaction { () throws(ASNError) in
                        try opened.finishRun(id: latest.id, date: latest.date, finished: Timestamp.iso8601(ms: clock()), status: earlier.status.rawValue)
                    }
                    log("published the reports of \(latest.date), whose run was stopped after its commit")
                }
            }
            if let backups = settings.stateBackup {
                log("state as before \(date) copied to \(try opened.backup(into: backups, name: "before-\(date).sqlite"))")
            }
            log("run \(date): reading new input under \(settings.v1.count) V1 and \(settings.v2.count) V2 root(s)")
            var run = NightlyRun(settings: settings, table: table, columnMap: columnMap, date: date, now: now, log: log, step: step)
            run.signatures = signatures
            run.fileClock = startedAt
            // A progress line on a terminal only (never in a cron log).
            var progressLine = ProgressLine.standardError(files: [], label: "nightly")
            run.progress = { bytes, records in progressLine.advance(bytes: bytes, records: records) }
            let figures = try { () throws(ASNError) -> NightlyRun.Figures in
                defer { progressLine.finish() }
                return try run.run(opened, started: Timestamp.iso8601(ms: startedAt))
            }()
            committed = true
            step("committed")
            var collected = try NightlyReport.collect(opened, date: date, settings: settings)
            // Thresholds judge the night's new items and figures; with a --fail-on, exit 1 means a crossed rule.
            let crossings = thresholds.crossings(ThresholdFigures.nightly(metrics: collected.metrics, new: collected.new.map(\.difference.kind)))
            if !thresholds.rules.isEmpty { collected.metrics += ReconciliationReport.thresholdRows(thresholds.counts(crossings)).map { ($0.name, $0.value) } }
            report = collected
            let directory = try publish(collected, settings: settings)
            step("published")
            status = thresholds.status(base: collected.status, crossings: crossings)
            for crossing in crossings { log(crossing.line) }
            let runId = try opened.latestRun()?.id ?? 0
            try opened.transaction { () throws(ASNError) in
                try opened.finishRun(id: runId, date: date, finished: Timestamp.iso8601(ms: clock()), status: status.rawValue)
            }
            try removeOldReports(settings: settings, date: date, dates: try opened.runDates(), log: log)
            log("\(figures.filesIngested) file(s) read, \(figures.subscriptionsRepaired) subscription(s) re-paired; "
                + "new \(collected.new.count), resolved \(collected.resolved.count), open \(collected.open.count), "
                + "pending \(collected.pending.count), rejected \(collected.rejects.count); report: \(directory)")
            if signatures != nil {
                log("signatures verified on the V2 records read; \(figures.v2Unverified) V2 record(s) given decoded could not be verified (v2_unverified)")
            }
            if let failure = collected.sanityFailure { log(failure) }
            for line in collected.stale { log(line) }
            for (name, what) in [("files_deferred", "file(s) still being written (modified within min-file-age, or a temporary name) left for a later night"),
                                 ("lines_deferred", "unfinished last line(s) left for a later night"),
                                 ("files_changed", "file(s) changed in the part already read (re-read, their records replaced)")] {
                if let n = collected.metric(name), n != "0" { log("\(n) \(what) (\(name))") }
            }
            return status
        } catch {
            if committed {
                log("\(error.description); the night's state is committed, and the next run publishes its reports first")
            } else {
                log("\(error.description); the state is unchanged by this run and no report was written")
            }
            status = ExitStatus.failure(for: error.code)
            return status
        }
    }

    // MARK: - Guards

    /// Why these settings must not run (a usage error, exit 64), or nil: a run date more than a day after the
    /// machine's clock. (The state, reports, backups or metrics inside an input root are `OutputPlan`'s to refuse.)
    static func refusal(_ settings: NightlySettings, clock: Int64) -> String? {
        if let runDate = settings.runDate, !settings.allowFutureRunDate, let day = Timestamp.parseUTCDayOrInstant(runDate),
           day.ms > clock + Timestamp.millisecondsPerDay {
            return "--run-date \(runDate) is more than a day after the machine's clock (\(Timestamp.iso8601(ms: clock))): its run would stamp the state with a future night, and every real night after it would be refused as going back. Check the date and the clock; pass --allow-future-run-date if this is meant"
        }
        return nil
    }

    // MARK: - Publishing

    /// Writes the report folder `<reports>/<date>/` atomically; returns its path.
    @discardableResult
    static func publish(_ report: NightlyReport, settings: NightlySettings) throws(ASNError) -> String {
        let directory = (settings.reports.hasSuffix("/") ? settings.reports : settings.reports + "/") + report.date
        let files = report.files + (settings.html ? [(HTMLReport.fileName, HTMLReport.nightly(report).render())] : [])
        try AtomicOutput.writeDirectoryAtomically(path: directory, replacing: Set(NightlyReport.fileNames + [HTMLReport.fileName])) {
            (staging: StagingDirectory) throws(ASNError) in
            for file in files { try staging.write(name: file.name, bytes: file.bytes) }
        }
        return directory
    }

    /// Removes `<reports>/<date>` folders older than the retention that this state's runs made.
    static func removeOldReports(settings: NightlySettings, date: String, dates: Set<String>, log: (String) -> Void) throws(ASNError) {
        guard let days = settings.retentionDays, let today = Timestamp.parseUTCDayOrInstant(date) else { return }
        let oldest = Timestamp.day(ms: today.ms - Int64(days) * Timestamp.millisecondsPerDay)
        for old in dates.sorted() where old < oldest {
            let path = (settings.reports.hasSuffix("/") ? settings.reports : settings.reports + "/") + old
            guard FileSystem.fileType(path) == S_IFDIR else { continue }
            FileSystem.removeTree(path)
            log("removed the report folder \(path) (older than \(days) days)")
        }
        if let backups = settings.stateBackup {
            for old in dates.sorted() where old < oldest {
                let path = (backups.hasSuffix("/") ? backups : backups + "/") + "before-\(old).sqlite"
                guard FileSystem.fileType(path) == S_IFREG else { continue }
                unlink(path)
                log("removed the state backup \(path) (older than \(days) days)")
            }
        }
    }
}
