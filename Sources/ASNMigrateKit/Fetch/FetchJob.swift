import Foundation

/// One `fetch` run as named steps: open the key and the folder, lock it, plan the ids, fetch them and write the
/// folder's files, then say what happened and judge the run.
package struct FetchJob {
    /// The name messages begin with.
    package static let name = "asn-migrate fetch"

    /// What the run does.
    package let settings: FetchSettings
    /// Where messages go.
    package let console: Console
    /// The clock (epoch ms) for the notification history's end.
    package let now: Int64

    /// Creates the run.
    package init(settings: FetchSettings, console: Console, now: Int64) {
        self.settings = settings
        self.console = console
        self.now = now
    }

    /// Runs every step and returns the exit status (see `FetchCommand.spec`).
    package func run() -> ExitStatus {
        do throws(ASNError) { try checkOutputs() } catch {
            say("\(error.message); nothing fetched")
            return ExitStatus(stoppedBy: error)
        }
        guard let (credentials, directory) = open() else { return .failure }
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) {
            locks = try lock(directory)
        } catch {
            say(error.description)
            return ExitStatus(stoppedBy: error)
        }
        let plan: FetchPlan
        do {
            plan = try makePlan(directory)
        } catch {
            say("\(ASNError.describe(error)); nothing fetched")
            return ExitStatus(stoppedBy: error)
        }
        let client = settings.client(credentials, baseURL: settings.baseURL)
        guard let (outcome, notFound) = fetch(plan, client: client, directory: directory) else { return .failure }
        return judge(outcome, notFound: notFound)
    }

    // MARK: - Steps

    /// The API key and the output folder, or nil after saying why not.
    private func open() -> (APICredentials, String)? {
        do {
            let (key, warning) = try APICredentials.loadKey(path: settings.keyPath)
            if let warning { say(warning) }
            let credentials = APICredentials(
                keyId: settings.keyId, issuerId: settings.issuerId, bundleId: settings.bundleId, privateKey: key)
            return (credentials, try OutputTarget.resolveDirectory(settings.out))
        } catch {
            say(error.description)
            return nil
        }
    }

    /// Refuses an output that is an input (the key, the id list, the archive) or lies inside an input folder.
    private func checkOutputs() throws(ASNError) {
        let outputs =
            [OutputPlan.Output("--out", settings.out, kind: .folder)]
            + (settings.summaryJSON.map { [OutputPlan.Output("--summary-json", $0)] } ?? [])
        let inputs =
            [OutputPlan.Input("--private-key", settings.keyPath)]
            + (settings.idsFile.map { [OutputPlan.Input("--ids", $0)] } ?? [])
            + settings.archive.map { OutputPlan.Input("--from-v1", $0) }
        try OutputPlan(outputs: outputs.flatMap(OutputPlan.withLock), inputs: inputs).check()
    }

    /// The run's locks: beside the folder, and beside `--summary-json` when given.
    private func lock(_ directory: String) throws(ASNError) -> [RunLock] {
        var locks = [try RunLock.acquire(RunLock.lockPath(besideOutput: directory))]
        do throws(ASNError) {
            if let path = settings.summaryJSON, let lockPath = try OutputTarget.resolve(path).lockPath {
                locks.append(try RunLock.acquire(lockPath))
            }
        } catch {
            for lock in locks { lock.release() }
            throw error
        }
        return locks
    }

    /// The ids to ask for (from the archive and the id list), with the run's settings; prepares the folder.
    private func makePlan(_ directory: String) throws -> FetchPlan {
        var ids: Set<String> = []
        if !settings.archive.isEmpty {
            let selection = try InputPaths.select(settings.archive)
            for entry in selection.skipped { say(entry.warning) }
            let found = try FetchIds.fromArchive(selection.files, environment: settings.environment)
            ids.formUnion(found.ids)
            say("\(found.ids.count) \(settings.environment) originalTransactionIds in \(found.records) V1 records")
        }
        if let path = settings.idsFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ASNError(
                    .unreadableInput, "cannot read the id list '\(ConsoleText.path(path))'",
                    at: SourceLocation(path: path))
            }
            ids.formUnion(try FetchIds.fromList(String(decoding: data, as: UTF8.self), path: path))
        }
        try FetchOutput.prepare(directory)
        var plan = FetchPlan(environment: settings.environment, ids: FetchIds.sorted(ids))
        plan.update = settings.update
        plan.concurrency = settings.concurrency
        plan.notificationsSince = settings.notificationsSince
        plan.now = now
        return plan
    }

    /// Fetches every id and writes the folder's files; nil after saying why it stopped (the checkpoint keeps what
    /// was fetched).
    private func fetch(_ plan: FetchPlan, client: APIClient, directory: String)
        -> (FetchRun.Outcome, [FetchOutput.NotFound])?
    {
        let progress = FetchProgress(enabled: isatty(2) == 1)
        do {
            let checkpoint = try FetchCheckpoint(directory: directory)
            let outcome = try FetchRun(client: client, checkpoint: checkpoint, plan: plan) { figures, total in
                progress.show(figures, total: total, client: client)
            }.run()
            progress.finish()
            let notFound = try FetchOutput.writeResponses(checkpoint, directory: directory)
            try OutputFile.writeWhole(FetchOutput.notFoundCSV(notFound), to: directory + "/" + FetchOutput.notFoundName)
            let metrics = Self.summaryMetrics(
                outcome.figures, environment: settings.environment, notFoundTotal: notFound.count)
            try OutputFile.writeWhole(
                CSVWriter.renderBytes(header: ["metric", "value"], rows: metrics.map { [$0.0, $0.1] }),
                to: directory + "/" + FetchOutput.summaryName)
            if let path = settings.summaryJSON {
                try OutputFile.writeWhole(SummaryJSON.render(metrics: metrics, causes: []), to: path)
            }
            return (outcome, notFound)
        } catch {
            progress.finish()
            say("\(error.description); what was fetched is kept in the checkpoint, run again to continue")
            return nil
        }
    }

    /// Says what the run did and gives its exit status.
    private func judge(_ outcome: FetchRun.Outcome, notFound: [FetchOutput.NotFound]) -> ExitStatus {
        let f = outcome.figures
        say(
            "\(f.idsAsked) ids (\(f.idsFinishedBefore) finished before), \(f.idsAnswered) answered, \(f.idsNotFound) not found, \(f.idsFailed) failed, \(f.idsCovered) held by another id of the same customer; \(f.historyPages) history pages, \(f.statusResponses) statuses, \(f.notificationPages) notification pages; \(f.requests) requests, \(f.retries) retries in \(String(format: "%.1f", f.seconds)) s; written to \(settings.out)"
        )
        for failure in outcome.failures { console.diagnostic("  \(failure.description)") }
        if outcome.unauthorized {
            say("\(APIClient.unauthorizedError.message) (exit 77)")
            return .unauthorized
        }
        if f.idsFailed > 0 || !outcome.failures.isEmpty {
            say(
                "Apple's API still failed after --max-retries \(settings.maxRetries); everything answered is kept; run the same command again to continue (exit 69)"
            )
            return .unavailable
        }
        guard notFound.isEmpty else {
            console.verdict(
                "\(notFound.count) id(s) not found: Apple does not know them (see \(settings.out)/\(FetchOutput.notFoundName))"
            )
            return .findings
        }
        console.verdict("all \(f.idsAsked) id(s) answered; see \(settings.out)")
        return .success
    }

    /// Prints `message` on standard error after the job's name.
    private func say(_ message: String) {
        console.diagnostic("\(Self.name): \(message)")
    }

    /// `fetch-summary.csv`'s rows.
    static func summaryMetrics(_ f: FetchFigures, environment: String, notFoundTotal: Int) -> [(String, String)] {
        [
            ("environment", environment), ("ids_asked", String(f.idsAsked)),
            ("ids_finished_before", String(f.idsFinishedBefore)),
            ("ids_answered", String(f.idsAnswered)), ("ids_not_found", String(f.idsNotFound)),
            ("ids_failed", String(f.idsFailed)),
            ("ids_not_reached", String(f.idsNotReached)), ("ids_covered", String(f.idsCovered)),
            ("not_found_listed", String(notFoundTotal)),
            ("history_pages", String(f.historyPages)), ("statuses_responses", String(f.statusResponses)),
            ("notification_pages", String(f.notificationPages)), ("requests", String(f.requests)),
            ("retries", String(f.retries)),
            ("seconds", String(format: "%.3f", f.seconds)), ("tool_version", BuildInfo.versionNumber)
        ]
    }

}

extension FetchSettings {
    /// The App Store Server API client these settings describe, for `baseURL` (one environment's).
    package func client(_ credentials: APICredentials, baseURL: String) -> APIClient {
        APIClient(
            transport: URLSessionTransport(timeout: timeout), baseURL: baseURL,
            tokens: APITokenSource(credentials: credentials),
            limiter: RateLimiter(perSecond: requestsPerSecond),
            maxRetries: maxRetries, retryDelay: retryDelay,
            userAgent: "asn-migrate/\(BuildInfo.versionNumber)")
    }
}
