import Foundation

/// `asn-migrate merge --out DIR SHARD_DIR...`: combines the report folders of a sharded `reconcile` run, or of one
/// night of a sharded `nightly`, into the report the unsharded run writes, byte for byte (`ReportMerge`).
package enum MergeCommand {
    /// The command's spec.
    package static let spec = CommandSpec(
        name: "merge",
        abstract:
            "Combine the report folders of 'reconcile --shard K/N' (or --partition) runs, or one night's 'nightly --shard K/N' folders (every shard 0 to N-1 once), into one report, byte for byte the unsharded run's.",
        options: [
            .single(
                "--out", short: "-o", valueName: "DIR",
                help:
                    "The merged report folder (required); written as reconcile writes its folder: atomically, locked, only over an empty folder or an earlier report.",
                output: .folder
            ),
            .single(
                "--max-reject-rate", valueName: "RATE",
                help: SanityCheck.optionHelp
                    + ", or when one side has no records while the other has some (over the merged figures).",
                defaultValue: "1%")
        ],
        positional: PositionalSpec(
            name: "SHARD_DIR",
            help:
                "A shard's report folder holding shard.csv (the --out of 'reconcile --shard K/N', or a night's <reports>/<date>.shard-K-of-N); give all N.",
            minCount: 1,
            missingHint: "give the shard report folders, e.g. shards/*"
        ),
        exits: [
            CommandExit(.success, "merged; no differences and no rejects"),
            CommandExit(
                .findings, "merged, with differences or rejects (with --fail-on: a --fail-on rule crossed)"),
            CommandExit(.failure, "failed; nothing was written (the message above says what and where)"),
            CommandExit(
                .sanityCheckFailed,
                "merged, but the merged figures failed a sanity check (too many rejects, or one side empty)"),
            CommandExit(
                .usage, "usage error: the command line was wrong (or a shard folder is missing); nothing was run"),
            CommandExit(
                .dataError,
                "the shard folders are not one whole run or their figures do not add up; nothing was written"),
            CommandExit(.locked, "another run holds the output's lock; nothing was published; run again later")
        ],
        examples: [
            CommandExample(
                "Merge the four shard reports of 'reconcile --shard K/4' into one report.",
                [
                    "merge", "--out", "reports/merged", "reports/shard-0", "reports/shard-1", "reports/shard-2",
                    "reports/shard-3"
                ])
        ]
    )

    /// Runs the command.
    package static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        let name = "asn-migrate merge"
        guard let out = arguments.value("--out") else {
            console.diagnostic(
                "\(name): missing --out DIR: name the folder for the merged report. See 'asn-migrate merge --help'.")
            return .usage
        }
        let maxRejectRate: Double
        do {
            maxRejectRate = try SanityCheck.maxRejectRate(arguments)
        } catch {
            console.diagnostic("\(name): \(error.message)")
            return .usage
        }
        return MergeRun(
            out: out, folders: arguments.positionals, maxRejectRate: maxRejectRate,
            layouts: [ReportMerge.reconcileLayout, NightlyReport.mergeLayout], console: console
        ).run()
    }
}
