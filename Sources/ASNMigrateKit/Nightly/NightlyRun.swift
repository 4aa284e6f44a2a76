import Foundation

/// The `nightly` job in named steps: refuse what must not run, check the outputs, lock and open the state, publish a
/// night stopped after its commit, back the state up, run the night's pass (`NightlyPass`, one transaction), publish
/// its reports, drop old ones, log the night, and write the metrics file whatever happened. The command only parses
/// the config file and flags into `Settings`.
package struct NightlyRun {
    /// What one run does, as parsed from the config file and the command line.
    package struct Settings: Sendable {
        /// The night's settings.
        package var nightly: NightlySettings
        /// The signature checks (nil: not verified).
        package var signatures: SignaturePolicy?
        /// `--fail-on` / `--warn-on`.
        package var thresholds: ThresholdCheck
        /// `--config`, when given (an input the outputs must not overwrite).
        package var configPath: String?

        /// Settings of a night.
        package init(
            nightly: NightlySettings, signatures: SignaturePolicy?, thresholds: ThresholdCheck, configPath: String?
        ) {
            self.nightly = nightly
            self.signatures = signatures
            self.thresholds = thresholds
            self.configPath = configPath
        }
    }

    /// How the run ended, for the metrics file.
    private struct Outcome {
        /// The exit status.
        var status = ExitStatus.failure
        /// The night's report, once collected.
        var report: NightlyReport?
        /// The state, once open.
        var store: NightlyStore?
        /// False for a run turned away by the lock: the metrics are the lock holder's to write.
        var writesMetrics = true
        /// The night's state is committed.
        var committed = false
        /// The state's locks, once taken: released only after the state is closed, since closing the identity lock's
        /// descriptor while SQLite still has the file open would drop SQLite's own `fcntl` locks on it, and a next run
        /// must not open the state while this one still folds its write-ahead log back in.
        var locks: (beside: RunLock, identity: StateFile.IdentityLock)?
        /// With `fetch`: the fetch folder's lock (as `fetch --out` takes it), taken after the state's.
        var appleViewLock: RunLock?
        /// With `fetch`: what the night's fetch did, once it ran.
        var fetched: NightlyFetch.Outcome?
    }

    /// The run's settings.
    package let settings: Settings
    /// Where the log lines go.
    package let console: Console
    /// The wall clock, epoch ms.
    package let clock: () -> Int64
    /// Called with each of `NightlyCommand.steps` as the run passes it, and with `conversionStep`.
    package let stepReached: (String) -> Void
    /// The step a run reports to `stepReached` inside the transaction converting a state of an older schema, before it
    /// commits (only a run that converts one passes it; the crash tests pause there).
    package static let conversionStep = "converting"

    /// A run of `settings` logging to `console`.
    package init(
        settings: Settings, console: Console, clock: @escaping () -> Int64,
        stepReached: @escaping (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.console = console
        self.clock = clock
        self.stepReached = stepReached
    }

    /// Writes one timestamped log line.
    func log(_ line: String) {
        console.diagnostic("\(Timestamp.iso8601(ms: clock())) asn-migrate nightly: \(ConsoleText.line(line))")
    }

    /// Runs every step and returns the exit status.
    package func run() -> ExitStatus {
        let startedAt = clock()
        let nightly = settings.nightly
        if let refusal = Self.refusal(nightly, clock: startedAt) {
            log(refusal)
            return .usage
        }
        let date = nightly.day(clock: startedAt)
        // Checked before anything is written (the metrics file included): no output may be or lie inside an input.
        do throws(ASNError) { try checkOutputs(date: date) } catch {
            console.diagnostic("asn-migrate nightly: \(error.message); nothing was written")
            return ExitStatus(stoppedBy: error)
        }
        var outcome = Outcome()
        outcome.status = night(date: date, startedAt: startedAt, outcome: &outcome)
        if outcome.writesMetrics { writeMetrics(outcome, startedAt: startedAt) }
        // Closed before the process ends: the last connection's close folds the write-ahead log back into the
        // state and removes its `-wal` and `-shm` files, whether the night ran or was refused after opening it.
        outcome.store?.close()
        outcome.appleViewLock?.release()
        outcome.locks?.identity.release()
        outcome.locks?.beside.release()
        return outcome.status
    }

    // MARK: - Steps

    /// Refuses an output that is or lies inside an input.
    private func checkOutputs(date: String) throws(ASNError) {
        let nightly = settings.nightly
        let outputs =
            [
                OutputPlan.Output("--state", nightly.state),
                OutputPlan.Output(
                    "the lock of --state", RunLock.lockPath(besideOutput: StateFile.realPath(nightly.state))),
                OutputPlan.Output("--reports", Self.reportFolder(nightly, date: date), kind: .folder)
            ]
            + (nightly.metricsFile.map { [OutputPlan.Output("--metrics-file", $0)] } ?? [])
            + (nightly.stateBackup.map { [OutputPlan.Output("--state-backup", $0, kind: .folder)] } ?? [])
            + (nightly.fetch
                ? nightly.appleView.map { OutputPlan.withLock(OutputPlan.Output("--apple-view", $0, kind: .folder)) }
                    ?? [] : [])
        let settingsFiles =
            [
                ("--config", settings.configPath), ("--v2-columns", nightly.v2Columns),
                ("--mappings", nightly.mappings),
                ("--private-key", nightly.fetch ? nightly.api.keyPath : nil)
            ]
            .compactMap { option, path in path.map { OutputPlan.Input(option, $0) } }
            + nightly.rootCertificates.map { OutputPlan.Input("--root-certificate", $0) }
        let roots =
            nightly.v1.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v1", $0) }
            + nightly.v2.filter { !PostgresSource.isURI($0) }.map { OutputPlan.Input("--v2", $0) }
        try OutputPlan(outputs: outputs, inputs: roots + settingsFiles).check()
    }

    /// The night itself, under the state's lock; returns the exit status.
    private func night(date: String, startedAt: Int64, outcome: inout Outcome) -> ExitStatus {
        do {
            // The state as the file it really is (links followed), looked at before anything is locked or written:
            // a folder or another program's file is refused and left as it was.
            let state = StateFile.realPath(settings.nightly.state)
            _ = try StateFile.inspect(state)
            // One run at a time per state, decided before any input is opened: the lock beside the real file (the one
            // the README's restore procedure holds), then a lock on the file itself, which every name of it meets.
            do throws(ASNError) {
                let beside = try RunLock.acquire(RunLock.lockPath(besideOutput: state))
                do throws(ASNError) {
                    try prepareState(state)
                    outcome.locks = (beside, try StateFile.IdentityLock(state))
                } catch {
                    beside.release()
                    throw error
                }
                if settings.nightly.fetch, let appleView = settings.nightly.appleView {
                    let folder = try NightlyFetch.prepare(appleView)
                    outcome.appleViewLock = try RunLock.acquire(RunLock.lockPath(besideOutput: folder))
                }
            } catch  where error.code == .locked {
                log(error.message)
                outcome.writesMetrics = false
                return .locked
            }
            let table = try MappingLoader.load(settings.nightly.mappings)
            let columnMap = try settings.nightly.v2Columns.map { (path: String) throws(ASNError) in
                try V2ColumnMap.load(path: path)
            }
            let store = try NightlyStore(
                path: state, backups: settings.nightly.stateBackup,
                converting: { stepReached(Self.conversionStep) })
            outcome.store = store
            if let refused = try checkShard(store) { return refused }
            if let refused = try publishStoppedNight(store, date: date) { return refused }
            if let backups = settings.nightly.stateBackup {
                log(
                    "state as before \(date) copied to \(try store.backup(into: backups, name: "before-\(date).sqlite"))"
                )
            }
            let fetched = FetchedBox()
            let figures = try pass(
                store, table: table, columnMap: columnMap, date: date, startedAt: startedAt, fetched: fetched)
            outcome.fetched = fetched.outcome
            outcome.committed = true
            stepReached("committed")
            let status = try publishNight(store, figures: figures, date: date, outcome: &outcome)
            return notAnswered(fetched.outcome, status: status)
        } catch {
            if outcome.committed {
                log(
                    "\(error.description); the night's state is committed, and the next run publishes its reports first"
                )
            } else {
                log("\(error.description); the state is unchanged by this run and no report was written")
            }
            return ExitStatus(stoppedBy: error)
        }
    }

    /// Makes sure a state is at `state` (a real path): a new one is created (written beside it and renamed into
    /// place) when there is none, or when the file is empty and no night was ever published for it: a first night
    /// stopped before it wrote its state, by a release that opened the state in place. An empty state beside earlier
    /// nights' reports lost what it held and is refused.
    private func prepareState(_ state: String) throws(ASNError) {
        switch try StateFile.inspect(state) {
        case .state:
            try StateFile.checkWritable(state)
            return
        case .absent: break
        case .empty:
            if let night = publishedNight() {
                throw ASNError(
                    .stateDatabase,
                    "\(NightlyStore.emptyStateFile(state).message); the night '\(night)' was published from it, so it held state once",
                    at: SourceLocation(path: state))
            }
            log(
                "the state file '\(state)' is empty (0 bytes) and no night was published under '\(settings.nightly.reports)': a first night stopped before it wrote its state; starting a new state"
            )
        }
        try FileSystem.createDirectories(FileSystem.parentDirectory(of: state))
        try StateFile.create(state)
    }

    /// The path of a night's report folder under the reports root (any shard's), if there is one.
    private func publishedNight() -> String? {
        let root = settings.nightly.reports
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.sorted().first { name in
            let prefix = Array(name.utf8.prefix(10))
            return prefix.count == 10
                && prefix.enumerated().allSatisfy { index, byte in
                    index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte)
                }
        }.map { (root.hasSuffix("/") ? root : root + "/") + $0 }
    }

    /// Refuses a state made for another shard, or for none (a shard's state holds only its subscriptions, so it can
    /// serve no other); nil when the state is this run's or new.
    private func checkShard(_ store: NightlyStore) throws(ASNError) -> ExitStatus? {
        let count = try store.runs.meta("shard_count")
        let made = try count.map { (count: Int64) throws(ASNError) in
            ShardSelection(index: Int(try store.runs.meta("shard_index") ?? 0), count: Int(count))
        }
        let used = try store.runs.latestRun() != nil
        guard made != settings.nightly.shard, made != nil || used else { return nil }
        let wanted = settings.nightly.shard.map { "shard \($0.text)" } ?? "an unsharded night"
        log(
            "the state '\(settings.nightly.state)' was made \(made.map { "by --shard \($0.text)" } ?? "without --shard"), so it cannot serve \(wanted): a shard's state holds only its own subscriptions. Give each shard its own state (--state 'state-{shard}.sqlite'); to change N, start new states"
        )
        return .usage
    }

    /// Refuses a run date before the state's last night (a usage error), and publishes the reports of a night whose
    /// run committed its state but was stopped before publishing, from that state. Nil when the night may go on.
    private func publishStoppedNight(_ store: NightlyStore, date: String) throws(ASNError) -> ExitStatus? {
        guard let latest = try store.runs.latestRun() else { return nil }
        guard latest.date <= date else {
            log(
                "the state '\(settings.nightly.state)' already has a run for \(latest.date), after --run-date \(date); run dates must not go back"
            )
            return .usage
        }
        if !latest.published, latest.date != date {
            let earlier = try NightlyReport.collect(store, date: latest.date, settings: settings.nightly)
            try Self.publish(earlier, settings: settings.nightly)
            try store.transaction { () throws(ASNError) in
                try store.runs.finishRun(
                    id: latest.id, date: latest.date, finished: Timestamp.iso8601(ms: clock()),
                    status: earlier.status.rawValue)
            }
            log("published the reports of \(latest.date), whose run was stopped after its commit")
        }
        // Any other run stopped after its commit (a re-run of the same date follows it) gets the status its date's
        // reports call for, so no run row is left without one.
        var statuses: [String: Int32] = [:]
        for run in try store.runs.unfinishedRuns() {
            let status: Int32
            if let known = statuses[run.date] {
                status = known
            } else {
                status = try NightlyReport.collect(store, date: run.date, settings: settings.nightly).status.rawValue
            }
            statuses[run.date] = status
            try store.transaction { () throws(ASNError) in
                try store.runs.recordStoppedRun(id: run.id, finished: Timestamp.iso8601(ms: clock()), status: status)
            }
            log("the run of \(run.date) was stopped after its commit: its status is recorded as \(status)")
        }
        return nil
    }

    /// The night's pass over the state, in one transaction, with a progress line on a terminal only (never in a cron
    /// log).
    private func pass(
        _ store: NightlyStore, table: MappingTable, columnMap: V2ColumnMap?, date: String,
        startedAt: Int64, fetched: FetchedBox
    ) throws(ASNError) -> NightlyPass.Figures {
        let nightly = settings.nightly
        log("run \(date): reading new input under \(nightly.v1.count) V1 and \(nightly.v2.count) V2 root(s)")
        var pass = NightlyPass(
            settings: nightly, table: table, columnMap: columnMap, date: date, now: nightly.now(clock: startedAt),
            log: log, step: stepReached)
        pass.signatures = settings.signatures
        pass.fileClock = startedAt
        if nightly.fetch, let appleView = nightly.appleView {
            // The folder the night writes its answers to is read as it stands: min-file-age does not hold it back.
            pass.answersFolder = FileIdentity.realPath(appleView)
            let step = NightlyFetch(settings: nightly, night: date, now: startedAt, log: log)
            pass.beforeV2 = { store, touched throws(ASNError) in
                fetched.outcome = try step.run(store, touched: touched)
            }
        }
        var progressLine = ProgressLine.standardError(files: [], label: "nightly")
        pass.progress = { bytes, records in progressLine.advance(bytes: bytes, records: records) }
        defer { progressLine.finish() }
        return try pass.run(store, started: Timestamp.iso8601(ms: startedAt))
    }

    /// A published night's status once Apple left ids unanswered: 69 (they are asked again next night), unless the
    /// night failed otherwise.
    private func notAnswered(_ fetched: NightlyFetch.Outcome?, status: ExitStatus) -> ExitStatus {
        guard let fetched, !fetched.notAnswered.isEmpty,
            [.success, .findings, .sanityCheckFailed].contains(status)
        else { return status }
        let ids = fetched.notAnswered.prefix(20).map { "\($0.environment) \($0.originalTransactionId)" }
        let more = fetched.notAnswered.count > 20 ? " and \(fetched.notAnswered.count - 20) more" : ""
        let list = (settings.nightly.appleView ?? "") + "/" + NightlyFetch.notAnsweredName
        log(
            "Apple's API did not answer \(fetched.notAnswered.count) subscription(s) after --max-retries \(settings.nightly.api.maxRetries): \(ids.joined(separator: ", "))\(more) (listed in \(list)); the night is published, their V1 records are not_fetched, never differences, and the next night asks them again (exit 69)"
        )
        console.verdict(
            "Apple's API did not answer \(fetched.notAnswered.count) subscription(s) (listed in \(list)); the night is published and the next night asks them again"
        )
        return .unavailable
    }

    /// Collects and publishes the night's reports, judges the thresholds, finishes the run in the state, drops
    /// reports past the retention and logs the night; returns the exit status.
    private func publishNight(
        _ store: NightlyStore, figures: NightlyPass.Figures, date: String,
        outcome: inout Outcome
    ) throws(ASNError) -> ExitStatus {
        let thresholds = settings.thresholds
        var collected = try NightlyReport.collect(store, date: date, settings: settings.nightly)
        // Thresholds judge the night's new items and figures; with a --fail-on, exit 1 means a crossed rule.
        let crossings = thresholds.crossings(
            ThresholdFigures.nightly(metrics: collected.metrics, new: collected.new.map(\.difference.kind)))
        if !thresholds.rules.isEmpty {
            collected.metrics += ReconciliationReport.thresholdRows(thresholds.counts(crossings)).map {
                ($0.name, $0.value)
            }
        }
        outcome.report = collected
        // A shard's findings and sanity checks are the merged night's to judge: a written shard exits 0, so a batch
        // engine retries only shards that failed (as reconcile --shard).
        let base = settings.nightly.shard == nil ? collected.status : .success
        let status = thresholds.status(base: base, crossings: crossings)
        let verdict = HTMLReport.nightlyVerdict(
            collected, status: status, maxRejectRate: settings.nightly.maxRejectRate, notes: crossings.map(\.line),
            failOnRules: thresholds.decidesFindings)
        let directory = try Self.publish(collected, settings: settings.nightly, verdict: verdict)
        stepReached("published")
        outcome.status = status
        let found =
            collected.new.isEmpty && collected.rejects.isEmpty
            ? nil : "\(collected.new.count) new difference(s) and \(collected.rejects.count) reject(s) tonight"
        if settings.nightly.shard == nil,
            let verdict = thresholds.verdict(
                status, found: found, nothing: "nothing new tonight", crossings: crossings)
        {
            let page = settings.nightly.html ? "/\(HTMLReport.fileName)" : ""
            console.verdict("\(verdict), \(collected.open.count) open; see \(directory)\(page)")
        }
        for crossing in crossings { log(crossing.line) }
        let runId = try store.runs.latestRun()?.id ?? 0
        try store.transaction { () throws(ASNError) in
            try store.runs.finishRun(
                id: runId, date: date, finished: Timestamp.iso8601(ms: clock()), status: status.rawValue)
        }
        try Self.removeOldReports(settings: settings.nightly, date: date, dates: try store.runs.runDates(), log: log)
        if settings.nightly.html && settings.nightly.shard == nil {
            try Self.publishIndex(store, settings: settings.nightly)
        }
        logNight(collected, figures: figures, directory: directory)
        return status
    }

    /// The night's closing log lines.
    private func logNight(_ collected: NightlyReport, figures: NightlyPass.Figures, directory: String) {
        log(
            "\(figures.filesIngested) file(s) read, \(figures.subscriptionsRepaired) subscription(s) re-paired; "
                + "new \(collected.new.count), resolved \(collected.resolved.count), open \(collected.open.count), "
                + "pending \(collected.pending.count), rejected \(collected.rejects.count); report: \(directory)")
        if settings.signatures != nil {
            log(
                "signatures verified on the V2 records read; \(figures.v2Unverified) V2 record(s) given decoded could not be verified (v2_unverified)"
            )
        }
        if let failure = collected.sanityFailure { log(failure) }
        // A file is read on the night it arrives (or changes), so each such file is warned about once.
        for input in figures.unverifiedInputs {
            log(UnverifiedFrames.warning(name: input.name, frames: input.frames))
        }
        // Why files wait comes before a stale side, which files not read yet may be all that makes it stale.
        if figures.filesYoung > 0 {
            log(
                Self.youngFilesLine(
                    figures.filesYoung, minFileAge: settings.nightly.minFileAge, stale: !collected.stale.isEmpty))
        }
        for line in collected.stale { log(line) }
        // What still waits after the date's last run (`files_deferred` and `lines_deferred` are that run's).
        for (name, what) in [
            (
                "files_deferred",
                "file(s) still being written (modified within min-file-age, or a temporary name) left for a later night"
            ),
            ("lines_deferred", "unfinished last line(s) left for a later night")
        ] {
            if let n = collected.metric(name), n != "0", name != "files_deferred" || n != String(figures.filesYoung) {
                log("\(n) \(what) (\(name))")
            }
        }
        // A fetch folder's parts rewritten (by this night's --fetch, or a fetch before it) have notes of their own.
        if figures.filesChanged > 0 {
            log(
                "\(figures.filesChanged) file(s) changed in the part already read (re-read, their records replaced) (files_changed)"
            )
        }
    }

    /// Why files wait: how many, the `min-file-age` they are younger than, and how to read files known to be complete
    /// now (a first night on copied or just-cloned files, whose modification times are minutes old).
    static func youngFilesLine(_ count: Int, minFileAge: Int64, stale: Bool) -> String {
        let age = NightlyReport.duration(minFileAge)
        return
            "\(count) file(s) wait for a later night: modified less than min-file-age \(age) ago (machine clock), so they may still be being written (files_deferred)\(stale ? "; the stale line below may mean only that these files were not read yet" : ""). If they are known to be complete (copied, just cloned, or written by an exporter that renames into place), run again with --min-file-age 0 to read them now"
    }

    /// The previous metrics file's bytes, read only when it is a regular file (a FIFO would wait for a writer, a
    /// device such as `/dev/zero` never end).
    private func previousMetrics(_ path: String) -> Data? {
        guard case .file(let resolved)? = try? OutputTarget.resolve(path) else { return nil }
        return FileManager.default.contents(atPath: resolved)
    }

    /// Writes the metrics file (a run that could not read the state keeps the last success the previous file had).
    private func writeMetrics(_ outcome: Outcome, startedAt: Int64) {
        guard let metricsFile = settings.nightly.metricsFile else { return }
        let lastSuccess =
            (try? outcome.store?.runs.lastSuccess()).flatMap { $0 }.flatMap(Timestamp.parseISO8601).map { $0 / 1000 }
            ?? previousMetrics(metricsFile).flatMap {
                NightlyMetrics.lastSuccess(in: String(decoding: $0, as: UTF8.self))
            }
        let text = NightlyMetrics.render(
            outcome.report, status: outcome.status, durationSeconds: Double(clock() - startedAt) / 1000,
            lastSuccessSeconds: lastSuccess, shard: settings.nightly.shard, fetched: outcome.fetched)
        do {
            // Through the one output path: a device or FIFO is written through, a regular file replaced atomically.
            try OutputFile.writeWhole(Array(text.utf8), to: metricsFile)
        } catch {
            log("cannot write the metrics file: \(error.description)")
        }
    }
}

/// What the night's fetch did, handed out of the pass's hook (which runs on the pass's thread, before it returns).
private final class FetchedBox {
    /// The fetch's outcome, once it ran.
    var outcome: NightlyFetch.Outcome?
}
