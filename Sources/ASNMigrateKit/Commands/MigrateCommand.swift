import Foundation

/// `asn-migrate migrate PATH... [--out FILE] [--format jsonl|csv] [--rejects FILE] [--mappings DIR]`.
package enum MigrateCommand {
    /// The command's spec (options, help).
    package static let spec = CommandSpec(
        name: "migrate",
        abstract:
            "Read archived V1 notifications and write one V2-shaped decoded payload per notification. When standard error is a terminal, a progress line there shows bytes and records per second and the time left.",
        options: [
            .single(
                "--out", short: "-o", valueName: "FILE",
                help:
                    "Write the output here instead of standard output: a regular file is replaced atomically (a symbolic link is followed and kept), a character device or FIFO is written directly, '-' is standard output; never one of the inputs.",
                output: .file
            ),
            .single(
                "--format", valueName: "FORMAT",
                help: "jsonl (one decoded V2 payload per line) or csv (the same as flat columns).",
                defaultValue: "jsonl", valueKind: .choice(MigrationOutput.Format.allCases.map(\.rawValue))),
            .single(
                "--csv-names", valueName: "NAMES",
                help:
                    "With --format csv: dotted column names as the JSON paths (data.transactionInfo.productId), or snake (data_transaction_info_product_id), which SQL joins without quoting.",
                defaultValue: "dotted", valueKind: .choice(MigrationOutput.CSVNames.allCases.map(\.rawValue))),
            .single(
                "--rejects", valueName: "FILE",
                help:
                    "Write rejected and unmapped records as CSV (side,source,line,reason; side is always v1 here), as --out writes its file; without it the first few go to standard error.",
                output: .file
            ),
            .single("--max-reject-rate", valueName: "RATE", help: SanityCheck.optionHelp + "; off unless given."),
            InputOptions.maxRecordBytes, InputOptions.requireChecksums,
            .single(
                "--mappings", valueName: "DIR",
                help: "Use DIR/v1-to-v2.rules and DIR/v2-only.rules instead of the built-in mapping."),
            .single(
                "--summary-json", valueName: "FILE",
                help:
                    "Also write the summary figures (counts, routes, rejects by cause, run date, version, inputs) as one JSON object to FILE, atomically.",
                output: .file
            ),
            .single(
                "--run-date", valueName: "YYYY-MM-DD",
                help: "The run date reported as run_date by --summary-json (default: today, UTC)."),
            .flag(
                "--force",
                help:
                    "Run even when the input files look like V2 notifications (by default a usage error: migrate reads V1 archives)."
            ),
            .single(
                "--shard", valueName: "K/N",
                help:
                    "Write only the records of shard K of N (reconcile's subscription hash; rejects and records without originalTransactionId in shard 0); auto/N takes K from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID or CLOUD_RUN_TASK_INDEX."
            )
        ],
        positional: PositionalSpec(
            name: "PATH",
            help:
                "V1 archive: a file (JSON, JSON array, JSON Lines, .gz; a FIFO is read as a stream) or a directory (read recursively, sorted, links to folders followed once; FIFOs, sockets and devices in it are skipped with a warning), or '-' for standard input.",
            minCount: 1,
            acceptsStandardInput: true,
            missingHint: "give at least one input file or directory, or '-' for standard input"
        ),
        exits: [
            CommandExit(.success, "every record read was migrated"),
            CommandExit(.findings, "migrated, with rejected or unmapped records (in --rejects, or listed above)"),
            CommandExit(.failure, "failed; nothing was published (the message above says what and where)"),
            CommandExit(
                .sanityCheckFailed,
                "no record was read (an empty or unmounted input), or migrated, but more records were rejected than --max-reject-rate allows"
            ),
            .usage,
            CommandExit(.locked, "another run is writing the same output; nothing was published; run again later")
        ],
        examples: [
            CommandExample(
                "Migrate the sample V1 archive; rejected and unmapped records go to rejects.csv (exit 1: it holds some).",
                [
                    "migrate", "Tests/Fixtures/sample/v1", "--out", ".sample-out/v2.jsonl", "--rejects",
                    ".sample-out/rejects.csv"
                ]),
            CommandExample(
                "The same as CSV with column names SQL joins without quoting.",
                [
                    "migrate", "Tests/Fixtures/sample/v1", "--format", "csv", "--csv-names", "snake", "--out",
                    ".sample-out/v2.csv"
                ])
        ]
    )

    /// Runs the command; all output goes through `console` or the named files.
    package static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        run(arguments, console: console, fastPath: true, workers: nil)
    }

    /// Runs the command with the fast or the reference per-record path on `workers` threads (default: one per core).
    package static func run(_ arguments: ParsedArguments, console: Console, fastPath: Bool, workers: Int?) -> ExitStatus
    {
        do throws(ASNError) {
            var settings = try settings(arguments)
            settings.fastPath = fastPath
            settings.workers = workers
            return MigrateRun(settings: settings, console: console).run()
        } catch {
            console.diagnostic("asn-migrate migrate: \(ASNError.describe(error)); no output was written")
            return ExitStatus(stoppedBy: error)
        }
    }

    /// The run's settings from the parsed flags.
    static func settings(_ arguments: ParsedArguments) throws(ASNError) -> MigrateRun.Settings {
        // In this order, so the first of several mistakes is the one reported.
        let shard = try arguments.value("--shard").map { (text: String) throws(ASNError) in
            try ShardSelection.parse(text, environment: ProcessInfo.processInfo.environment)
        }
        let maxRejectRate = arguments.value("--max-reject-rate") == nil ? nil : try SanityCheck.maxRejectRate(arguments)
        var settings = MigrateRun.Settings(
            inputs: arguments.positionals,
            runDate: try ReconcileCommand.runDate(arguments, now: ReconcileCommand.currentTime()))
        settings.shard = shard
        settings.maxRejectRate = maxRejectRate
        settings.outPath = arguments.value("--out") ?? "-"
        settings.rejectsPath = arguments.value("--rejects")
        settings.summaryPath = arguments.value("--summary-json")
        settings.format = MigrationOutput.Format(rawValue: arguments.value("--format") ?? "jsonl") ?? .jsonl
        settings.csvNames = MigrationOutput.CSVNames(rawValue: arguments.value("--csv-names") ?? "dotted") ?? .dotted
        settings.mappingsDirectory = arguments.value("--mappings")
        settings.inputLimits = try InputOptions.limits(arguments)
        settings.force = arguments.flag("--force")
        return settings
    }
}
