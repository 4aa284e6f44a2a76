import Foundation

/// `asn-migrate partition --v1 PATH… --v2 PATH… --shards N --out DIR [--files J/M] [--gzip]`: one streaming pass
/// writing every input record into the partition folder of its subscription (`PartitionRun`), for archives read
/// many times.
package enum PartitionCommand {
    /// The command's spec.
    package static let spec = CommandSpec(
        name: "partition",
        abstract:
            "Write every V1 and V2 record into one of N partition folders by reconcile's subscription hash, each with its original location; reconcile each with 'reconcile --partition DIR' and merge them.",
        options: [
            .repeatable("--v1", valueName: "PATH", help: "V1 input: file or directory (repeatable)."),
            .repeatable("--v2", valueName: "PATH", help: "V2 input: file or directory (repeatable)."),
            .single(
                "--shards", valueName: "N",
                help: "How many partitions (1 to \(PartitionRun.maximumShards)); the hash is --shard's."),
            .single(
                "--out", short: "-o", valueName: "DIR",
                help: "Where the partition folders go: DIR/part-K-of-N/ (v1/, v2/ and one slice-J-of-M.csv per slice).",
                output: .folder
            ),
            .single(
                "--files", valueName: "J/M",
                help:
                    "Read only slice J of M of the input files (consecutive runs of them, per side), so M workers share the pass; auto/M takes J from the batch engine as --shard does. Default 0/1: every file."
            ),
            .flag("--gzip", help: "Compress the partition files (gzip level 1)."),
            InputOptions.maxRecordBytes, InputOptions.requireChecksums,
            .single(
                "--mappings", valueName: "DIR",
                help: "The mapping rules the V1 records are keyed by; reconcile each partition with the same."
            )
        ],
        exits: [
            CommandExit(.success, "every record read is in its partition folder"),
            CommandExit(.failure, "failed (the message above says what and where)"),
            .usage,
            CommandExit(.locked, "another run holds the output's lock; run again later")
        ],
        examples: [
            CommandExample(
                "Split the sample into 4 partitions; reconcile each with 'reconcile --partition', then merge.",
                [
                    "partition", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--shards",
                    "4", "--out", ".sample-out/parts"
                ])
        ]
    )

    /// Runs the command.
    package static func run(_ arguments: ParsedArguments, console: Console) -> ExitStatus {
        let settings: PartitionRun.Settings
        do throws(ASNError) {
            settings = try Self.settings(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            console.diagnostic("\(PartitionRun.name): \(error.message)")
            return .usage
        }
        return PartitionRun(settings: settings, console: console).run()
    }

    /// The run's settings from the parsed flags; every mistake a usage error naming the option.
    static func settings(_ arguments: ParsedArguments, environment: [String: String]) throws(ASNError)
        -> PartitionRun.Settings
    {
        for side in ["--v1", "--v2"] where arguments.values(side).isEmpty {
            throw ASNError(
                .usage,
                "missing \(side) PATH: partition both sides (--v1 PATH and --v2 PATH), as reconcile reads them. See 'asn-migrate partition --help'."
            )
        }
        guard let out = arguments.value("--out") else {
            throw ASNError(.usage, "missing --out DIR: name the folder the partition folders go into")
        }
        guard let shards = arguments.value("--shards") else {
            throw ASNError(.usage, "missing --shards N: how many partitions to write")
        }
        let count = try ShardSelection.parse("0/" + shards, option: "--shards", environment: [:]).count
        guard count <= PartitionRun.maximumShards else {
            throw ASNError(
                .usage,
                "--shards \(count): partition keeps every partition's file open, so it writes at most \(PartitionRun.maximumShards); use reconcile --shard K/N for more"
            )
        }
        var settings = PartitionRun.Settings(
            v1Roots: arguments.values("--v1"), v2Roots: arguments.values("--v2"), shards: count, out: out)
        if let files = arguments.value("--files") {
            settings.slice = try ShardSelection.parse(files, option: "--files", environment: environment)
        }
        settings.gzip = arguments.flag("--gzip")
        settings.mappingsDirectory = arguments.value("--mappings")
        settings.inputLimits = try InputOptions.limits(arguments)
        return settings
    }
}
