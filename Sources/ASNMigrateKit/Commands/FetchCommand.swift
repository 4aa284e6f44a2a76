import Foundation

/// `asn-migrate fetch …`: pulls Apple's view of every subscription in the archive from the App Store Server API into
/// a folder `reconcile --v2 DIR` reads as Apple's API view.
package enum FetchCommand {
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
                    "The fetch folder: history/, statuses/, notifications/ (gzip JSON Lines, Apple's answers unchanged), fetch-summary.csv, not-found.csv and the checkpoint .fetch-checkpoint.jsonl; a lock file .DIR.lock beside it.",
                output: .folder
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
                help: "Also write fetch-summary.csv's figures as one JSON object to FILE, atomically.", output: .file)
        ],
        exits: [
            CommandExit(.success, "every id was answered"),
            CommandExit(.findings, "ids not found: some ids are unknown to Apple (listed in not-found.csv)"),
            CommandExit(.failure, "failed (the message above says what and where)"),
            .usage,
            CommandExit(
                .unavailable,
                "Apple's API still failed after --max-retries for some ids; what was answered is kept; run the same command again"
            ),
            CommandExit(.locked, "another fetch holds the output's lock; run again later"),
            CommandExit(
                .unauthorized,
                "Apple's API refused the token (HTTP 401): check the key id, issuer id, bundle id, the .p8 key and the clock"
            )
        ],
        examples: [
            CommandExample(
                "Fetch Apple's API view of the subscriptions in a V1 archive.",
                [
                    "fetch", "--key-id", "ABC123DEFG", "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a",
                    "--bundle-id", "com.example.app", "--private-key", "AuthKey_ABC123DEFG.p8", "--from-v1",
                    "archive/v1", "--out", "api-view"
                ])
        ]
    )

    /// Runs the command; `now` is the clock (epoch ms) for the notification history's end.
    package static func run(_ arguments: ParsedArguments, console: Console, now: Int64 = ReconcileCommand.currentTime())
        -> ExitStatus
    {
        let settings: FetchSettings
        do {
            settings = try FetchSettings(arguments, now: now)
        } catch {
            console.diagnostic("\(FetchJob.name): \(error.description)")
            return .usage
        }
        return FetchJob(settings: settings, console: console, now: now).run()
    }
}
