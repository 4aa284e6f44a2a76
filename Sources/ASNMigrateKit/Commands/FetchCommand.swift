import Foundation

/// `asn-migrate fetch …`: pulls Apple's view of every subscription in the archive from the App Store Server API into
/// a folder `reconcile --v2 DIR` reads as Apple's API view.
package enum FetchCommand {
    /// Apple's base URLs per environment.
    package static let baseURLs = [
        "production": "https://api.storekit.itunes.apple.com",
        "sandbox": "https://api.storekit-sandbox.itunes.apple.com"
    ]

    /// The command's spec.
    package static let spec = CommandSpec(
        name: "fetch",
        abstract:
            "Fetch Apple's view of every subscription in the archive (Get Transaction History, every page, and Get All Subscription Statuses; with --notifications-since also Get Notification History) from the App Store Server API into DIR, which 'reconcile --v2 DIR' reads as Apple's API view. Resumable: a re-run continues where a crash or Ctrl-C stopped; --update asks only for changes since each id's revision.",
        options: [
            .single(
                "--key-id", valueName: "KEY_ID",
                help:
                    "The in-app purchase key's id (App Store Connect: Users and Access > Integrations > In-App Purchase)."
            ),
            .single("--issuer-id", valueName: "ISSUER_ID", help: "The issuer id shown on the same page."),
            .single("--bundle-id", valueName: "BUNDLE_ID", help: "The app's bundle id."),
            .single(
                "--private-key", valueName: "FILE",
                help: "The key's AuthKey_KEYID.p8 file (PKCS#8 PEM); never printed; a warning when others can read it."),
            .repeatable(
                "--from-v1", valueName: "PATH",
                help:
                    "V1 archive (file or directory, as migrate reads): its originalTransactionIds of --environment are asked for (repeatable)."
            ),
            .single(
                "--ids", valueName: "FILE",
                help:
                    "A plain list of originalTransactionIds, one per line ('#' comments), instead of or besides --from-v1."
            ),
            .single(
                "--out", short: "-o", valueName: "DIR",
                help:
                    "The fetch folder: history/, statuses/, notifications/ (gzip JSON Lines, Apple's answers unchanged), fetch-summary.csv, not-found.csv and the checkpoint .fetch-checkpoint.jsonl; a lock file .DIR.lock beside it."
            ),
            .single(
                "--environment", valueName: "ENV",
                help: "Which of the archive's records and which Apple base URL: production or sandbox.",
                defaultValue: "production", valueKind: .choice(["production", "sandbox"])),
            .single(
                "--base-url", valueName: "URL",
                help: "Send requests here instead of Apple's base URL for --environment (a test server)."),
            .flag(
                "--update",
                help: "Ask ids finished by an earlier run again: history only since each id's revision, statuses fresh."
            ),
            .single(
                "--notifications-since", valueName: "DATE",
                help:
                    "Also fetch Get Notification History from DATE (ISO 8601 date or instant; at most 180 days back) to now."
            ),
            .single(
                "--concurrency", valueName: "N", help: "Requests in flight at once.", defaultValue: "4",
                valueKind: .integer(1...64)),
            .single(
                "--max-requests-per-second", valueName: "R", help: "Requests per second at most, across all of them.",
                defaultValue: "10"),
            .single(
                "--max-retries", valueName: "N",
                help:
                    "Retries of a request answered 429, 5xx, a retryable Apple error or not at all, before its id counts as failed.",
                defaultValue: "5", valueKind: .integer(0...100)),
            .single(
                "--retry-delay", valueName: "DURATION",
                help:
                    "The first backoff; doubled on each retry, with jitter (a 429's Retry-After is honoured instead).",
                defaultValue: "1s", valueKind: .duration),
            .single(
                "--timeout", valueName: "DURATION",
                help: "How long to wait for an answer before the request counts as failed (and is retried).",
                defaultValue: "30s", valueKind: .duration),
            .single(
                "--summary-json", valueName: "FILE",
                help: "Also write fetch-summary.csv's figures as one JSON object to FILE, atomically.")
        ],
        exitStatuses: [.success, .findings, .failure, .usage, .unavailable, .locked, .unauthorized]
    )

    /// Runs the command; `now` is the clock (epoch ms) for the notification history's end.
    package static func run(_ arguments: ParsedArguments, console: Console, now: Int64 = ReconcileCommand.currentTime())
        -> ExitStatus
    {
        let name = "asn-migrate fetch"
        let settings: Settings
        do {
            settings = try Settings(arguments, now: now)
        } catch {
            console.diagnostic("\(name): \(error.description)")
            return .usage
        }
        let credentials: APICredentials
        let directory: String
        do {
            let (key, warning) = try APICredentials.loadKey(path: settings.keyPath)
            if let warning { console.diagnostic("\(name): \(warning)") }
            credentials = APICredentials(
                keyId: settings.keyId, issuerId: settings.issuerId, bundleId: settings.bundleId, privateKey: key)
            directory = try OutputTarget.resolveDirectory(settings.out)
        } catch {
            console.diagnostic("\(name): \(error.description)")
            return .failure
        }
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        do throws(ASNError) {
            locks.append(try RunLock.acquire(RunLock.lockPath(besideOutput: directory)))
            if let path = settings.summaryJSON, let lockPath = try OutputTarget.resolve(path).lockPath {
                locks.append(try RunLock.acquire(lockPath))
            }
        } catch {
            console.diagnostic("\(name): \(error.description)")
            return error.code == .locked ? .locked : .failure
        }

        var plan = FetchPlan(environment: settings.environment, ids: [])
        do {
            var ids: Set<String> = []
            if !settings.archive.isEmpty {
                let selection = try InputPaths.select(settings.archive)
                for entry in selection.skipped { console.diagnostic("\(name): \(entry.warning)") }
                let found = try FetchIds.fromArchive(selection.files, environment: settings.environment)
                ids.formUnion(found.ids)
                console.diagnostic(
                    "\(name): \(found.ids.count) \(settings.environment) originalTransactionIds in \(found.records) V1 records"
                )
            }
            if let path = settings.idsFile {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ASNError(
                        .unreadableInput, "cannot read the id list '\(path)'", at: SourceLocation(path: path))
                }
                ids.formUnion(try FetchIds.fromList(String(decoding: data, as: UTF8.self), path: path))
            }
            plan.ids = FetchIds.sorted(ids)
            try FetchOutput.prepare(directory)
        } catch {
            console.diagnostic("\(name): \(ASNError.describe(error)); nothing fetched")
            return (error as? ASNError)?.code == .usage ? .usage : .failure
        }
        plan.update = settings.update
        plan.concurrency = settings.concurrency
        plan.notificationsSince = settings.notificationsSince
        plan.now = now

        let client = APIClient(
            transport: URLSessionTransport(timeout: settings.timeout), baseURL: settings.baseURL,
            tokens: APITokenSource(credentials: credentials),
            limiter: RateLimiter(perSecond: settings.requestsPerSecond),
            maxRetries: settings.maxRetries, retryDelay: settings.retryDelay,
            userAgent: "asn-migrate/\(BuildInfo.versionNumber)")
        let progress = FetchProgress(enabled: isatty(2) == 1)
        let outcome: FetchRun.Outcome
        let notFound: [FetchOutput.NotFound]
        do {
            let checkpoint = try FetchCheckpoint(directory: directory)
            outcome = try FetchRun(client: client, checkpoint: checkpoint, plan: plan) { figures, total in
                progress.show(figures, total: total, client: client)
            }.run()
            progress.finish()
            notFound = try FetchOutput.writeResponses(checkpoint, directory: directory)
            try AtomicOutput.writeFileAtomically(
                path: directory + "/" + FetchOutput.notFoundName, bytes: FetchOutput.notFoundCSV(notFound))
            let metrics = summaryMetrics(
                outcome.figures, environment: settings.environment, notFoundTotal: notFound.count)
            try AtomicOutput.writeFileAtomically(
                path: directory + "/" + FetchOutput.summaryName,
                bytes: CSVWriter.renderBytes(header: ["metric", "value"], rows: metrics.map { [$0.0, $0.1] }))
            if let path = settings.summaryJSON {
                try OutputFile.writeWhole(SummaryJSON.render(metrics: metrics, causes: []), to: path)
            }
        } catch {
            progress.finish()
            console.diagnostic(
                "\(name): \(error.description); what was fetched is kept in the checkpoint, run again to continue")
            return .failure
        }
        let f = outcome.figures
        console.diagnostic(
            "\(name): \(f.idsAsked) ids (\(f.idsFinishedBefore) finished before), \(f.idsAnswered) answered, \(f.idsNotFound) not found, \(f.idsFailed) failed, \(f.idsCovered) held by another id of the same customer; \(f.historyPages) history pages, \(f.statusResponses) statuses, \(f.notificationPages) notification pages; \(f.requests) requests, \(f.retries) retries in \(String(format: "%.1f", f.seconds)) s; written to \(settings.out)"
        )
        for failure in outcome.failures { console.diagnostic("  \(failure.description)") }
        if outcome.unauthorized {
            console.diagnostic("\(name): \(APIClient.unauthorizedError.message) (exit 77)")
            return .unauthorized
        }
        if f.idsFailed > 0 || !outcome.failures.isEmpty {
            console.diagnostic(
                "\(name): Apple's API still failed after --max-retries \(settings.maxRetries); everything answered is kept; run the same command again to continue (exit 69)"
            )
            return .unavailable
        }
        return notFound.isEmpty ? .success : .findings
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

    // MARK: - Options

    /// The validated options.
    struct Settings {
        /// `--key-id`.
        var keyId = ""
        /// `--issuer-id`.
        var issuerId = ""
        /// `--bundle-id`.
        var bundleId = ""
        /// `--private-key`.
        var keyPath = ""
        /// `--out`.
        var out = ""
        /// `--from-v1` paths.
        var archive: [String] = []
        /// `--ids`.
        var idsFile: String?
        /// `Production` or `Sandbox`.
        var environment = "Production"
        /// Apple's base URL for the environment, or `--base-url`.
        var baseURL = ""
        /// `--update`.
        var update = false
        /// `--notifications-since` in epoch ms.
        var notificationsSince: Int64?
        /// `--concurrency`.
        var concurrency = 4
        /// `--max-requests-per-second`.
        var requestsPerSecond = 10.0
        /// `--max-retries`.
        var maxRetries = 5
        /// `--retry-delay` in seconds.
        var retryDelay = 1.0
        /// `--timeout` in seconds.
        var timeout = 30.0
        /// `--summary-json`.
        var summaryJSON: String?

        /// How far back Get Notification History reaches.
        static let notificationHistoryDays: Int64 = 180

        /// Reads and checks `arguments`; usage errors name the option.
        init(_ arguments: ParsedArguments, now: Int64) throws(ASNError) {
            for (option, placeholder) in [
                ("--key-id", "KEY_ID"), ("--issuer-id", "ISSUER_ID"), ("--bundle-id", "BUNDLE_ID"),
                ("--private-key", "FILE"), ("--out", "DIR")
            ] {
                guard let value = arguments.value(option), !value.isEmpty else {
                    throw ASNError(.usage, "missing \(option) \(placeholder). See 'asn-migrate fetch --help'.")
                }
                switch option {
                case "--key-id": keyId = value
                case "--issuer-id": issuerId = value
                case "--bundle-id": bundleId = value
                case "--private-key": keyPath = value
                default: out = value
                }
            }
            archive = arguments.values("--from-v1")
            idsFile = arguments.value("--ids")
            guard !archive.isEmpty || idsFile != nil else {
                throw ASNError(
                    .usage,
                    "give the ids to fetch: --from-v1 PATH (a V1 archive) or --ids FILE (one originalTransactionId per line)"
                )
            }
            let choice = arguments.value("--environment") ?? "production"
            environment = choice == "sandbox" ? "Sandbox" : "Production"
            baseURL = arguments.value("--base-url") ?? FetchCommand.baseURLs[choice] ?? ""
            guard let url = URL(string: baseURL), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw ASNError(.usage, "option '--base-url' needs an http or https URL, not '\(baseURL)'")
            }
            update = arguments.flag("--update")
            if let since = arguments.value("--notifications-since") {
                guard let parsed = Timestamp.parseUTCDayOrInstant(since) else {
                    throw ASNError(
                        .usage,
                        "option '--notifications-since' needs a date (2024-03-01) or an ISO 8601 instant, not '\(since)'"
                    )
                }
                guard parsed.ms < now else {
                    throw ASNError(.usage, "option '--notifications-since' (\(since)) lies in the future")
                }
                guard parsed.ms >= now - Self.notificationHistoryDays * 86_400_000 else {
                    throw ASNError(
                        .usage,
                        "option '--notifications-since' (\(since)) lies more than \(Self.notificationHistoryDays) days back; Get Notification History keeps \(Self.notificationHistoryDays) days"
                    )
                }
                notificationsSince = parsed.ms
            }
            concurrency = try arguments.integer("--concurrency") ?? 4
            let rate = arguments.value("--max-requests-per-second") ?? "10"
            guard let perSecond = Double(rate), perSecond > 0, perSecond <= 10_000 else {
                throw ASNError(.usage, "option '--max-requests-per-second' needs a number above 0, not '\(rate)'")
            }
            requestsPerSecond = perSecond
            maxRetries = try arguments.integer("--max-retries") ?? 5
            retryDelay = Double(try arguments.durationMilliseconds("--retry-delay") ?? 1000) / 1000
            timeout = max(0.1, Double(try arguments.durationMilliseconds("--timeout") ?? 30_000) / 1000)
            summaryJSON = arguments.value("--summary-json")
        }
    }
}

/// The progress line on a terminal: ids done, requests per second, retries, time left.
///
/// `@unchecked Sendable`: its state is guarded by `lock`.
final class FetchProgress: @unchecked Sendable {
    /// Whether anything is shown.
    private let enabled: Bool
    /// Guards the state.
    private let lock = NSLock()
    /// When the run started (monotonic seconds).
    private let started = RateLimiter.monotonic()
    /// When the line was last drawn (monotonic seconds).
    private var drawn = 0.0
    /// Whether a line is on screen.
    private var showing = false

    /// A progress line, shown only when `enabled`.
    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Redraws the line at most four times a second.
    func show(_ figures: FetchFigures, total: Int, client: APIClient) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = RateLimiter.monotonic()
        guard now - drawn >= 0.25 else { return }
        drawn = now
        let counts = client.counts
        let done = figures.idsAnswered + figures.idsNotFound + figures.idsFailed + figures.idsCovered
        let text = Self.render(
            done: done, total: total, requests: counts.requests, retries: counts.retries, seconds: now - started)
        FileDescriptorSink.writeAll(Array(("\r\u{1B}[K" + text).utf8), to: 2)
        showing = true
    }

    /// The line: `fetch: 120/500 ids, 9.8 requests/s, 3 retries, ETA 1:05` (the time left from the ids done so far).
    static func render(done: Int, total: Int, requests: Int, retries: Int, seconds: Double) -> String {
        let elapsed = max(seconds, 1e-3)
        var text =
            "fetch: \(done)/\(total) ids, \(String(format: "%.1f", Double(requests) / elapsed)) requests/s, \(retries) retries"
        if done > 0 {
            let left = Int((elapsed / Double(done) * Double(max(0, total - done))).rounded())
            text +=
                ", ETA \(left / 3600 > 0 ? "\(left / 3600)h" : "")\(left % 3600 / 60):\(left % 60 < 10 ? "0" : "")\(left % 60)"
        }
        return text
    }

    /// Clears the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if showing { FileDescriptorSink.writeAll(Array("\r\u{1B}[K".utf8), to: 2) }
        showing = false
    }
}
