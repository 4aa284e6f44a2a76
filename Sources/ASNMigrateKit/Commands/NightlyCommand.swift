import Foundation

/// `asn-migrate nightly [--config FILE] …`: the incremental, cron-driven reconciliation over a state database.
package enum NightlyCommand {
    /// The named steps a run reports to `stepReached`, in run order: records ingested into the open transaction,
    /// subscriptions settled, the state committed, the reports published.
    package static let steps = ["ingested", "settled", "committed", "published"]

    /// The command's spec; every config key is also a flag with the same name.
    package static let spec = CommandSpec(
        name: "nightly",
        abstract:
            "Reconcile the V1 and V2 files that arrived since the last run against a state database; report new, open, resolved and pending differences.",
        options: [
            .single(
                "--config", valueName: "FILE",
                help: "Config file of 'key = value' lines (keys are the options below without '--'); flags win over it."
            ),
            .repeatable(
                "--v1", valueName: "PATH",
                help: "V1 input root: file or directory (repeatable); or one postgres:// URI with --v1-query."),
            .repeatable(
                "--v2", valueName: "PATH",
                help: "V2 input root: file or directory (repeatable); or one postgres:// URI with --v2-query."),
            .single("--v2-columns", valueName: "FILE", help: "Column-mapping file for V2 records given as CSV."),
            .single(
                "--v1-query", valueName: "SQL",
                help:
                    "With --v1 postgres://…: the table or SELECT giving 'id', 'body' and optionally 'received_at' (Reports/operations.md, Reading from PostgreSQL)."
            ),
            .single(
                "--v2-query", valueName: "SQL",
                help:
                    "With --v2 postgres://…: the table or SELECT giving 'id' and 'signed_payload' or 'body' (or the columns the --v2-columns map names)."
            ),
            .single(
                "--v1-since-column", valueName: "COLUMN",
                help:
                    "With --v1 postgres://…: a column that grows as rows arrive (received_at, or an id sequence); each night reads rows from its high-water mark less --since-overlap."
            ),
            .single("--v2-since-column", valueName: "COLUMN", help: "With --v2 postgres://…: as --v1-since-column."),
            .single(
                "--since-overlap", valueName: "DURATION",
                help:
                    "How far before the high-water mark of a time since-column a night reads again, for rows that arrive late (default 3d); rows already read are skipped by id.",
                valueKind: .duration),
            .single(
                "--state", valueName: "FILE", help: "The state database (SQLite; default Reports/state.sqlite).",
                output: .file),
            .single(
                "--reports", valueName: "DIR",
                help: "Reports root; each run writes DIR/<run date>/ (default Reports/).",
                output: .folder
            ),
            .single(
                "--window", valueName: "DURATION",
                help: "How far apart a V1 event and a V2 signedDate may be to pair (default 48h).", valueKind: .duration
            ),
            .repeatable(
                "--ignore-field", valueName: "FIELD",
                help: "Do not compare FIELD (repeatable), as reconcile --ignore-field."),
            ReconcileCommand.switchOption(configKey: true),
            .single(
                "--time-tolerance", valueName: "DURATION",
                help: "Two times that differ by less compare equal (default 0), as reconcile --time-tolerance.",
                valueKind: .duration),
            .single(
                "--settle", valueName: "DURATION",
                help: "How long an unpaired record stays pending before it is a difference (default 72h).",
                valueKind: .duration),
            .single(
                "--horizon", valueName: "DURATION",
                help:
                    "How long records of settled subscriptions are kept: none (the default: for ever, nightly equals reconcile) or a duration such as 400d, which trades exactness for a smaller state (Reports/operations.md, Forget)."
            ),
            .single(
                "--environment", valueName: "NAME", help: "Only records of this environment.",
                valueKind: .choice(["Production", "Sandbox"])),
            .single(
                "--mappings", valueName: "DIR",
                help: "Use DIR/v1-to-v2.rules and DIR/v2-only.rules instead of the built-in mapping."),
            .single(
                "--retention-days", valueName: "N",
                help: "Remove report folders older than N days (default: keep all).", valueKind: .integer(1...36_500)),
            .single(
                "--max-reject-rate", valueName: "RATE",
                help: SanityCheck.optionHelp
                    + " in the run (default 1%), or when the state holds records of one side only."),
            .single(
                "--metrics-file", valueName: "FILE",
                help:
                    "Write the run's figures in the Prometheus text format to FILE (a regular file atomically; a device or FIFO is written through).",
                output: .file),
            .single(
                "--run-date", valueName: "YYYY-MM-DD",
                help: "The night to run for; 'now' is the end of that day (UTC). Default: today, UTC."),
            .single(
                "--state-backup", valueName: "DIR",
                help:
                    "Before each night, copy the state to DIR/before-<run date>.sqlite (kept as long as --retention-days keeps reports); restore one to roll back.",
                output: .folder
            ),
            .flag(
                "--allow-future-run-date",
                help: "Accept a --run-date more than a day after the machine's clock (refused otherwise: exit 64)."),
            InputOptions.maxRecordBytes, InputOptions.requireChecksums,
            .repeatable(
                "--reread", valueName: "PATH|all",
                help:
                    "Read again whole the files already read at PATH (a file, or every file under a folder; repeatable) or all of them, replacing their records and rejects: after fixing a file in place. Files an older release's reader rejected records of are read again without it."
            ),
            .single(
                "--min-file-age", valueName: "DURATION",
                help:
                    "Leave files modified less than this long ago (machine clock) for a later night (default 10m; 0 reads everything).",
                valueKind: .duration),
            .flag(
                "--no-html",
                help:
                    "Do not write report.html (written by default beside the CSV files: the night's figures, charts of the open differences, the open-item trend over the last 30 nights). In the config: no-html = yes."
            ),
            .single(
                "--shard", valueName: "K/N",
                help:
                    "Keep and judge only shard K of N (subscriptions by reconcile's stable hash; rejects in shard 0) in this state, and write the night's shard report with shard.csv into <reports>/<run date>.shard-K-of-N for 'asn-migrate merge'; {shard} in --state, --reports, --metrics-file and --state-backup becomes K. auto/N takes K from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID or CLOUD_RUN_TASK_INDEX."
            ),
            .single(
                "--max-lag", valueName: "DURATION",
                help:
                    "Exit 3 when a side's newest record is older than this at the end of the run date (default 2d; per side: v1=3d,v2=1d)."
            ),
            .flag(
                "--fetch",
                help:
                    "After reading the night's V1 files, ask Apple's App Store Server API (as 'fetch --update': from each id's revision, one history per customer, resumable) for the subscriptions the new V1 records name, those never answered and those with a pending item or open difference, each environment at its own URL; the answers in --apple-view are the night's V2 side (besides any --v2). Needs --key-id, --issuer-id, --bundle-id and --private-key. In the config: fetch = yes."
            ),
            .single(
                "--apple-view", valueName: "DIR",
                help:
                    "With --fetch: the fetch folder Apple's answers are kept in, as 'fetch --out' writes it, with not-answered.csv (the ids to retry); default <state>.apple-view beside the state.",
                output: .folder)
        ] + fetchOptions + ReconcileCommand.signatureOptions(configKeys: true)
            + ReconcileCommand.thresholdOptions(night: true),
        exits: [
            CommandExit(.success, "the night is published; nothing new (with --shard: the shard's night is published)"),
            CommandExit(
                .findings,
                "the night is published with new differences or rejects (with --fail-on: a --fail-on rule crossed)"),
            CommandExit(
                .failure,
                "failed; no report was written (the message above says whether the state changed; a state with a damaged page is left untouched and the message names --state-backup's last good copy)"
            ),
            CommandExit(
                .sanityCheckFailed,
                "the night is published, but a side is stale or the input failed a sanity check (the lines above say which)"
            ),
            .usage,
            CommandExit(
                .unavailable,
                "with --fetch: the night is published, but Apple's API did not answer some subscriptions after --max-retries (named above and in <apple-view>/not-answered.csv); their V1 records are not_fetched, and the next night asks them again"
            ),
            CommandExit(
                .locked,
                "another night holds the state's lock (or, with --fetch, a fetch holds --apple-view's), or PostgreSQL could not be reached; nothing was published; run again later"
            ),
            CommandExit(
                .unauthorized,
                "with --fetch: Apple's API refused the token (HTTP 401); the night was not run and the state is unchanged; check the key id, issuer id, bundle id, the .p8 key and the clock"
            ),
            CommandExit(.configuration, "a PostgreSQL source is configured wrong; nothing was published")
        ],
        examples: [
            CommandExample(
                "A first night on the sample, whose files are complete, so --min-file-age 0 reads them at once.",
                [
                    "nightly", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--state",
                    ".sample-out/state.sqlite", "--reports",
                    ".sample-out/nightly", "--min-file-age", "0", "--max-reject-rate", "20%", "--run-date", "2024-02-02"
                ]),
            CommandExample(
                "Apple's own view as the V2 side, asked each night for what can change (a team still on V1).",
                [
                    "nightly", "--v1", "archive/v1", "--fetch", "--key-id", "ABC123DEFG", "--issuer-id",
                    "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app", "--private-key",
                    "AuthKey_ABC123DEFG.p8", "--state", "state/nightly.sqlite"
                ]),
            CommandExample(
                "From cron: every setting in a config file.", ["nightly", "--config", "/etc/asn-migrate/nightly.conf"])
        ],
        timestampedLog: true
    )

    /// `fetch`'s options `--fetch` takes, as `fetch` declares them (`--bundle-id` is the signature options' own).
    static var fetchOptions: [OptionSpec] {
        FetchCommand.spec.options.filter { FetchSettings.sharedOptions.contains($0.long) && $0.long != "--bundle-id" }
            .map { option in
                var option = option
                if option.long == "--base-url" {
                    option.help =
                        "With --fetch: send every request here instead of Apple's base URL of each record's environment (a test server)."
                } else {
                    option.help = "With --fetch: " + option.help.prefix(1).lowercased() + option.help.dropFirst()
                }
                return option
            }
    }

    /// Runs the command; `clock` gives the wall time (epoch ms); `stepReached` is called with each of `steps` as the
    /// run passes it (the crash tests' host binary stops there to be killed).
    package static func run(
        _ arguments: ParsedArguments, console: Console, clock: @escaping () -> Int64 = ReconcileCommand.currentTime,
        stepReached: @escaping (String) -> Void = { _ in }
    ) -> ExitStatus {
        let settings: NightlyRun.Settings
        do {
            settings = try Self.settings(arguments)
        } catch {
            console.diagnostic(
                "\(Timestamp.iso8601(ms: clock())) asn-migrate nightly: \(ConsoleText.line(error.message))")
            return .usage
        }
        return NightlyRun(settings: settings, console: console, clock: clock, stepReached: stepReached).run()
    }

    /// The run's settings: the config file, then the flags over it.
    static func settings(_ arguments: ParsedArguments) throws(ASNError) -> NightlyRun.Settings {
        var config: NightlyConfigFile?
        let configPath = arguments.value("--config")
        if let path = configPath {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ASNError(.usage, "cannot read the config file '\(ConsoleText.path(path))'; check the path")
            }
            config = try NightlyConfigFile(path: path, text: String(decoding: data, as: UTF8.self))
        }
        let nightly = try NightlySettings.resolve(arguments, config: config)
        return NightlyRun.Settings(
            nightly: nightly, signatures: try nightly.signaturePolicy(),
            thresholds: try ThresholdCheck.parse(
                failOn: nightly.failOn, warnOn: nightly.warnOn, catalog: ThresholdFigures.nightly),
            configPath: configPath)
    }
}
