import Foundation

/// `asn-migrate reconcile --v1 PATH… --v2 PATH… [--out DIR] …`: pairs migrated V1 with V2 records and writes CSV reports.
package enum ReconcileCommand {
    /// The command's spec.
    package static let spec = CommandSpec(
        name: "reconcile",
        abstract:
            "Reconcile archived V1 notifications against V2 records and write CSV difference reports. When standard error is a terminal, a progress line there shows bytes and records per second and the time left.",
        options: [
            .repeatable(
                "--v1", valueName: "PATH",
                help:
                    "V1 archive file or directory (repeatable; '-' for standard input); or one postgres://USER@HOST/DATABASE URI with --v1-query (password in ~/.pgpass or PGPASSWORD)."
            ),
            .repeatable(
                "--v2", valueName: "PATH",
                help:
                    "V2 records: raw bodies, decoded payloads, notification history pages, migrate output, or CSV with --v2-columns; also App Store Server API responses (Get Transaction History pages, Get All Subscription Statuses) and transactions, which are compared transaction by transaction (repeatable); or one postgres:// URI with --v2-query."
            ),
            .single(
                "--v1-query", valueName: "SQL",
                help:
                    "With --v1 postgres://…: the table (its rows in the order of its first column) or SELECT giving a 'body' column (json, jsonb or text), optionally 'received_at' and 'id'."
            ),
            .single(
                "--v2-query", valueName: "SQL",
                help:
                    "With --v2 postgres://…: the table or SELECT giving 'signed_payload' (a JWS) or 'body' (a V2 body or decoded payload), or the columns of --v2-columns; optionally 'id'."
            ),
            .single(
                "--out", short: "-o", valueName: "DIR",
                help:
                    "Report folder (default Reports/<run date>/); its content is replaced atomically (a symbolic link to a folder is followed and kept), and only when it is empty or holds nothing but report files; a lock file .DIR.lock beside it keeps two runs from writing it at once.",
                output: .folder
            ),
            .single(
                "--run-date", valueName: "YYYY-MM-DD",
                help:
                    "The run date naming the default report folder and reported as run_date in summary.csv (default: today, UTC)."
            ),
            .single(
                "--window", valueName: "DURATION", help: "How far apart a V1 event and a V2 signedDate may be to pair.",
                defaultValue: "48h", valueKind: .duration),
            .single(
                "--from", valueName: "DATE",
                help:
                    "First instant judged (ISO 8601 date or instant, UTC); default: the later of both sides' first events. A pair is judged when either record is in the period."
            ),
            .single(
                "--to", valueName: "DATE",
                help:
                    "Last instant judged (a date means through its end); default: the earlier of both sides' last events."
            ),
            switchOption(configKey: false),
            .repeatable(
                "--compare", valueName: "FIELD", help: "Also compare FIELD (only transactionId is off by default)."),
            .repeatable(
                "--ignore-field", valueName: "FIELD",
                help:
                    "Do not compare FIELD (repeatable): field_mismatch, transaction_field_mismatch and state_mismatch rows alike. Fields: "
                    + ComparedField.allCases.map(\.rawValue).joined(separator: ", ") + "."
            ),
            .single(
                "--time-tolerance", valueName: "DURATION",
                help: "Two times that differ by less compare equal (for a side stored with whole seconds, 1s).",
                defaultValue: "0", valueKind: .duration),
            .single(
                "--v2-columns", valueName: "FILE",
                help:
                    "Column-mapping file for V2 records given as CSV (see Mappings/v2-columns.example.map); the formula guard ('=…) of this tool's CSV is undone."
            ),
            .single(
                "--mappings", valueName: "DIR",
                help:
                    "Use DIR/v1-to-v2.rules and DIR/v2-only.rules (and DIR/v2-only-transactions.rules when present) instead of the built-in mapping."
            )
        ] + signatureOptions(configKeys: false) + [
            .flag(
                "--html",
                help:
                    "Also write report.html beside the CSV files: one self-contained page (inline CSS and SVG, no script) with the figures, the accounting identities, bar charts of the differences by kind, product and month, the value at stake per currency and the first 50 rows of each kind."
            ),
            .single(
                "--summary-json", valueName: "FILE",
                help:
                    "Also write the summary figures (summary.csv's metrics, rejects by cause, difference rows per kind) as one JSON object to FILE, atomically.",
                output: .file
            ),
            .single(
                "--max-reject-rate", valueName: "RATE",
                help: SanityCheck.optionHelp + ", or when one side has no records while the other has some.",
                defaultValue: "1%")
        ] + thresholdOptions(night: false) + [
            .flag(
                "--force",
                help:
                    "Run even when the --v1 files look like V2 notifications or the --v2 files like V1 bodies (by default a usage error suggesting to swap them)."
            ),
            .single(
                "--shard", valueName: "K/N",
                help:
                    "Judge only shard K of N (subscriptions by a stable hash of environment and originalTransactionId; records without one in shard 0) and write that shard's report with shard.csv, for 'asn-migrate merge'. auto/N takes K from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID or CLOUD_RUN_TASK_INDEX."
            ),
            .single(
                "--shards", valueName: "N",
                help:
                    "Bounded memory on one machine: judge the N shards in turn in this process (reading the input N times) and write the merged report."
            ),
            InputOptions.maxRecordBytes, InputOptions.requireChecksums,
            .single(
                "--memory-limit", valueName: "SIZE",
                help:
                    "Like --shards, with N estimated from the input's size so the run stays under SIZE (2G, 512M); the console prints the peak reached."
            ),
            .single(
                "--partition", valueName: "DIR",
                help:
                    "Reconcile one partition folder of 'asn-migrate partition' (DIR is part-K-of-N, instead of --v1 and --v2) as shard K of N of the partitioned inputs, and write its report with shard.csv for 'asn-migrate merge'."
            )
        ],
        exits: [
            CommandExit(.success, "no differences and no rejects (with --shard: the shard's report is written)"),
            CommandExit(
                .findings, "differences or rejects found, see the report (with --fail-on: a --fail-on rule crossed)"),
            CommandExit(.failure, "failed; no report was written (the message above says what and where)"),
            CommandExit(
                .sanityCheckFailed,
                "report written, but the input failed a sanity check (too many rejects, or a side empty)"),
            .usage,
            CommandExit(.dataError, "--partition: the partition folder is incomplete or damaged; nothing was written"),
            CommandExit(
                .locked,
                "another run holds the output's lock, or PostgreSQL could not be reached; nothing was published; run again later"
            ),
            CommandExit(.configuration, "a PostgreSQL source is configured wrong; nothing was published")
        ],
        examples: [
            CommandExample(
                "Reconcile the sample: differences and rejects as CSV files and report.html (exit 1: it holds both).",
                [
                    "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
                    ".sample-out/report", "--max-reject-rate", "20%",
                    "--html"
                ]),
            CommandExample(
                "Fail (exit 1) only when more than 0.5% of subscriptions disagree on their state.",
                [
                    "reconcile", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--out",
                    ".sample-out/report", "--max-reject-rate", "20%",
                    "--fail-on", "state_mismatch>0.5%"
                ])
        ]
    )

    /// Runs the command; `now` is the clock (epoch ms), passed in so runs are reproducible.
    package static func run(_ arguments: ParsedArguments, console: Console, now: Int64 = currentTime()) -> ExitStatus {
        do throws(ASNError) {
            return ReconcileRun(settings: try settings(arguments, now: now), console: console).run()
        } catch {
            console.diagnostic("asn-migrate reconcile: \(error.message)")
            // A partition folder that is incomplete or damaged is bad data, not a bad command line.
            return ExitStatus(stoppedBy: error, otherwise: .usage)
        }
    }

    /// The run's settings from the parsed flags; every mistake a usage error naming the option.
    static func settings(_ arguments: ParsedArguments, now: Int64) throws(ASNError) -> ReconcileRun.Settings {
        let (options, out) = try parseOptions(arguments, now: now)
        var settings = ReconcileRun.Settings(
            options: options, outDirectory: out, maxRejectRate: try SanityCheck.maxRejectRate(arguments),
            thresholds: try ThresholdCheck.parse(
                failOn: arguments.values("--fail-on"), warnOn: arguments.values("--warn-on"),
                catalog: ThresholdFigures.reconcile))
        settings.inputLimits = try InputOptions.limits(arguments)
        settings.sharding = try shardPlan(arguments, environment: ProcessInfo.processInfo.environment)
        if let path = arguments.value("--partition") {
            let folder = try PartitionFolder.read(FileSystem.trimmingTrailingSlashes(path))
            settings.partition = folder
            settings.sharding = .one(folder.shard)
            settings.options.run.inputs = folder.inputs
        }
        if case .one(let shard) = settings.sharding {
            // Shards of one run must not share a folder: without --out each gets its own beside the dated one.
            settings.outDirectory =
                arguments.value("--out").map { $0.replacingOccurrences(of: "{shard}", with: String(shard.index)) }
                ?? "Reports/\(options.run.runDate).shard-\(shard.index)-of-\(shard.count)"
        }
        settings.v1Roots = settings.partition.map { [$0.path + "/v1"] } ?? arguments.values("--v1")
        settings.v2Roots = settings.partition.map { [$0.path + "/v2"] } ?? arguments.values("--v2")
        settings.v1Database = try databaseSource(arguments, side: "v1")
        settings.v2Database = try databaseSource(arguments, side: "v2")
        settings.signatures = try signaturePolicy(arguments)
        settings.rootCertificates = arguments.values("--root-certificate")
        settings.mappingsDirectory = arguments.value("--mappings")
        settings.v2ColumnsPath = arguments.value("--v2-columns")
        settings.summaryJSONPath = arguments.value("--summary-json")
        settings.html = arguments.flag("--html")
        settings.force = arguments.flag("--force")
        return settings
    }

    /// The sharding options, checked: at most one of `--shard`, `--shards`, `--memory-limit`, and none of them with
    /// what a shard cannot compute alone (`--summary-json`, `--fail-on`, `--warn-on`); `--shard auto/N` reads
    /// `environment`.
    static func shardPlan(_ arguments: ParsedArguments, environment: [String: String]) throws(ASNError)
        -> ReconcileRun.ShardPlan
    {
        if arguments.value("--partition") != nil {
            let excluded = [
                "--v1", "--v2", "--shard", "--shards", "--memory-limit", "--v2-columns", "--verify-signatures",
                "--summary-json", "--fail-on", "--warn-on", "--html", "--switch"
            ]
            if let other = excluded.first(where: {
                arguments.flag($0) || arguments.value($0) != nil || !arguments.values($0).isEmpty
            }) {
                throw ASNError(
                    .usage,
                    "--partition DIR reads that partition folder as one shard of the partitioned inputs, so \(other) does not go with it\(other == "--v1" || other == "--v2" ? " (the inputs are the partition's)" : " yet")"
                )
            }
            return .whole
        }
        let given = ["--shard", "--shards", "--memory-limit"].filter { arguments.value($0) != nil }
        guard let option = given.first else { return .whole }
        if !arguments.values("--switch").isEmpty {
            throw ASNError(
                .usage,
                "--switch does not work with \(option) yet: the seam checks read every record of a subscription in one pass; run reconcile --switch unsharded"
            )
        }
        guard given.count == 1 else {
            throw ASNError(
                .usage,
                "\(given.joined(separator: " and ")) exclude each other: --shard K/N runs one shard (merge them with 'asn-migrate merge'), --shards N and --memory-limit run every shard in turn here"
            )
        }
        for other in ["--summary-json", "--fail-on", "--warn-on", "--html"]
        where arguments.flag(other) || arguments.value(other) != nil || !arguments.values(other).isEmpty {
            throw ASNError(
                .usage,
                "\(other) does not work with \(option) yet: run the unsharded reconcile for it, or read the merged summary.csv"
            )
        }
        let value = arguments.value(option) ?? ""
        switch option {
        case "--shard":
            return .one(try ShardSelection.parse(value, environment: environment))
        case "--shards":
            let count = try ShardSelection.parse("0/" + value, option: "--shards", environment: [:]).count
            guard !(arguments.values("--v1") + arguments.values("--v2")).contains("-") else {
                throw ASNError(
                    .usage, "--shards reads the input once per shard, so standard input ('-') cannot be one; give files"
                )
            }
            return .inTurn(count)
        default:
            guard !(arguments.values("--v1") + arguments.values("--v2")).contains("-") else {
                throw ASNError(
                    .usage,
                    "--memory-limit may read the input once per shard, so standard input ('-') cannot be one; give files"
                )
            }
            return .memoryLimit(try MemoryBudget.parseSize(value))
        }
    }

    /// The `--fail-on` / `--warn-on` options `reconcile` and `nightly` share; `night` says what the kinds count.
    static func thresholdOptions(night: Bool) -> [OptionSpec] {
        let kinds =
            night
            ? "a difference kind (the night's new.csv rows of that kind)"
            : "a difference kind (its rows in differences.csv)"
        let rule =
            "RULE is FIGURE OPERATOR LIMIT: FIGURE is \(kinds), a summary.csv count or rejects; OPERATOR >, >=, <, <=, ==; LIMIT a count or a percentage (state_mismatch>0.5%, of the figure's denominator: Reports/commands.md, Thresholds)"
        return [
            .repeatable(
                "--fail-on", valueName: "RULE",
                help:
                    "Exit 1 when RULE holds (repeatable); with any --fail-on, exit 1 means a crossed --fail-on rule and nothing else. "
                    + rule + "."),
            .repeatable(
                "--warn-on", valueName: "RULE",
                help: "Print a warning and count it (thresholds_warned in summary.csv) when RULE holds (repeatable). "
                    + rule + ".")
        ]
    }

    /// `--switch DATE` as `reconcile` and `nightly` declare it; `configKey` adds how the nightly config file spells it.
    static func switchOption(configKey: Bool) -> OptionSpec {
        .repeatable(
            "--switch", valueName: "DATE",
            help:
                "The day (or ISO 8601 instant, UTC) your server URL moved from V1 to V2 notifications: read each subscription as V1 records before it, then V2 notifications from it on, and check the seam (silent_in_v2, renewal_gap, seam_state_mismatch). A bare DATE sets both environments; production=DATE and sandbox=DATE set one each (repeatable)."
                + (configKey ? " In the config: switch = production=2023-01-01." : ""))
    }

    /// The wall clock in epoch ms (used only for the default run date).
    package static func currentTime() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Validates the options; usage errors name the option.
    static func parseOptions(_ arguments: ParsedArguments, now: Int64) throws(ASNError) -> (ReconcileOptions, String) {
        let partition = arguments.value("--partition") != nil
        guard partition || !arguments.values("--v1").isEmpty else {
            throw ASNError(
                .usage,
                "missing --v1 PATH: give the V1 archive (file, directory or '-'). See 'asn-migrate reconcile --help'.")
        }
        guard partition || !arguments.values("--v2").isEmpty else {
            throw ASNError(
                .usage,
                "missing --v2 PATH: give the V2 records (file or directory). See 'asn-migrate reconcile --help'.")
        }
        let standardInputs = (arguments.values("--v1") + arguments.values("--v2")).filter { $0 == "-" }.count
        guard standardInputs <= 1 else {
            throw ASNError(
                .usage,
                "'-' (standard input) given \(standardInputs) times across --v1 and --v2; standard input can be read only once"
            )
        }
        var options = ReconcileOptions()
        if let window = try arguments.durationMilliseconds("--window") { options.window = window }
        if let tolerance = try arguments.durationMilliseconds("--time-tolerance") { options.timeTolerance = tolerance }
        (options.from, options.to) = try period(arguments)
        options.fields = try comparedFields(arguments)
        options.switchDates = try SwitchDates.parse(arguments.values("--switch"), option: "--switch")

        let runDate = try runDate(arguments, now: now)
        options.run = RunInfo(
            runDate: runDate, toolVersion: BuildInfo.versionNumber,
            inputs: arguments.values("--v1").map {
                RunInfo.Input(side: "v1", root: describedRoot($0, arguments, side: "v1"))
            }
                + arguments.values("--v2").map {
                    RunInfo.Input(side: "v2", root: describedRoot($0, arguments, side: "v2"))
                })
        return (options, arguments.value("--out") ?? "Reports/\(runDate)")
    }

    /// The period `--from` / `--to` give (epoch ms, both ends included; a whole day `--to` runs to its last ms).
    static func period(_ arguments: ParsedArguments) throws(ASNError) -> (from: Int64?, to: Int64?) {
        var from: Int64?
        var to: Int64?
        if let given = arguments.value("--from") {
            guard let parsed = Timestamp.parseUTCDayOrInstant(given) else {
                throw ASNError(
                    .usage,
                    "option '--from' needs a date (2021-03-01) or an ISO 8601 instant (2021-03-01T07:00:00Z), not '\(given)'"
                )
            }
            from = parsed.ms
        }
        if let given = arguments.value("--to") {
            guard let parsed = Timestamp.parseUTCDayOrInstant(given) else {
                throw ASNError(
                    .usage,
                    "option '--to' needs a date (2021-03-01) or an ISO 8601 instant (2021-03-01T07:00:00Z), not '\(given)'"
                )
            }
            to = parsed.isWholeDay ? parsed.ms + Timestamp.millisecondsPerDay - 1 : parsed.ms
        }
        if let from, let to, from > to {
            throw ASNError(.usage, "--from is after --to: the period would be empty")
        }
        return (from, to)
    }

    /// The compared fields: the defaults with `--compare` added and `--ignore-field` taken out, in report order.
    static func comparedFields(_ arguments: ParsedArguments) throws(ASNError) -> [ComparedField] {
        var fields = ComparedField.defaultFields
        for name in arguments.values("--compare") {
            let field = try ComparedField.named(name, option: "--compare")
            if !fields.contains(field) { fields.append(field) }
        }
        for name in arguments.values("--ignore-field") {
            let field = try ComparedField.named(name, option: "--ignore-field")
            fields.removeAll { $0 == field }
        }
        return ComparedField.allCases.filter(fields.contains)
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
            .flag(
                "--verify-signatures",
                help:
                    "Verify every V2 JWS (chain to Apple Root CA - G3, marker OIDs, validity at signedDate, ES256); failures are 'signature:' rejects."
                    + config("verify-signatures = yes")),
            .flag(
                "--require-signatures",
                help:
                    "With --verify-signatures: reject V2 records given decoded (JSON, CSV) instead of counting them as v2_unverified."
                    + config("require-signatures = yes")),
            .repeatable(
                "--root-certificate", valueName: "FILE",
                help:
                    "With --verify-signatures: also accept chains ending in this root, DER or PEM (for test CAs such as simulate --sign writes)."
            ),
            .single(
                "--bundle-id", valueName: "ID",
                help:
                    "With --verify-signatures: reject V2 records of another bundle ID."
                    + (configKeys ? " With --fetch: the bundle id the API key asks for." : "")),
            .single(
                "--app-apple-id", valueName: "N",
                help:
                    "With --verify-signatures: reject V2 records of another appAppleId (Production notifications must carry it)."
            )
        ]
    }

    /// The signature checks asked for, or nil without `--verify-signatures`; the options that need it are usage
    /// errors without it, and unreadable root certificates are usage errors naming the file.
    static func signaturePolicy(_ arguments: ParsedArguments) throws(ASNError) -> SignaturePolicy? {
        try SignaturePolicy.resolve(
            verify: arguments.flag("--verify-signatures"), requireSignatures: arguments.flag("--require-signatures"),
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
                throw ASNError(
                    .usage,
                    "--\(side)-query needs --\(side) postgres://USER@HOST/DATABASE; the files given to --\(side) are read as files"
                )
            }
            return nil
        }
        guard values.count == 1 else {
            throw ASNError(
                .usage,
                "--\(side) \(PostgresSource.redacted(uri)) must be the only --\(side) input (\(values.count) given); read files and the database in separate runs"
            )
        }
        guard let query, !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ASNError(
                .usage,
                "--\(side) \(PostgresSource.redacted(uri)) needs --\(side)-query TABLE or --\(side)-query 'SELECT …' (Reports/operations.md, Reading from PostgreSQL)"
            )
        }
        return PostgresSource(side: side, uri: uri, query: query)
    }

    /// How the summary names an input root: a path as given, a database URI without its password and with what was read.
    static func describedRoot(_ root: String, _ arguments: ParsedArguments, side: String) -> String {
        guard PostgresSource.isURI(root) else { return root }
        return PostgresSource(side: side, uri: root, query: arguments.value("--\(side)-query") ?? "").describedRoot
    }
}
