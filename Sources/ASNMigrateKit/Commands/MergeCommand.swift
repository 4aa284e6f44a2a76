import Foundation

/// `asn-migrate merge --out DIR SHARD_DIR...`: combines the report folders of a sharded `reconcile` run into the
/// report the unsharded run writes, byte for byte (`ReportMerge`).
package enum MergeCommand {
    /// The command's spec.
    package static let spec = CommandSpec(
        name: "merge",
        abstract:
            "Combine the report folders of 'reconcile --shard K/N' runs (every shard 0 to N-1 once) into one report, byte for byte the unsharded run's.",
        options: [
            .single(
                "--out", short: "-o", valueName: "DIR",
                help:
                    "The merged report folder (required); written as reconcile writes its folder: atomically, locked, only over an empty folder or an earlier report."
            ),
            .single(
                "--max-reject-rate", valueName: "RATE",
                help: SanityCheck.optionHelp
                    + ", or when one side has no records while the other has some (over the merged figures).",
                defaultValue: "1%")
        ],
        positional: PositionalSpec(
            name: "SHARD_DIR",
            help: "A shard's report folder (the --out of 'reconcile --shard K/N', holding shard.csv); give all N.",
            minCount: 1,
            missingHint: "give the shard report folders, e.g. shards/*"
        ),
        exitStatuses: ExitStatus.allCases
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
        let destination: String
        do {
            destination = try OutputTarget.resolveDirectory(out)
        } catch {
            console.diagnostic("\(name): \(error.description); nothing written")
            return .failure
        }
        var folders: [ReportMerge.Folder] = []
        for path in arguments.positionals {
            if let resolved = try? OutputTarget.resolveDirectory(path), resolved == destination {
                console.diagnostic(
                    "\(name): --out '\(out)' is also given as a shard folder; write the merged report to a new folder")
                return .usage
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                console.diagnostic(
                    "\(name): '\(path)' is not a folder; give the shard report folders (the --out of each 'reconcile --shard K/N'); nothing written"
                )
                return .dataError
            }
            var files: [String: [UInt8]] = [:]
            for file in ReconciliationReport.fileNames + [ShardManifest.fileName] {
                if let data = FileManager.default.contents(atPath: path + "/" + file) { files[file] = Array(data) }
            }
            folders.append(ReportMerge.Folder(name: path, files: files))
        }
        var locks: [RunLock] = []
        defer { for lock in locks { lock.release() } }
        let merged: [(name: String, bytes: [UInt8])]
        do {
            merged = try ReportMerge.reconcile(folders)
        } catch {
            console.diagnostic("\(name): \(error.message); nothing written")
            return error.code == .usage ? .usage : .dataError
        }
        do throws(ASNError) {
            locks.append(try RunLock.acquire(RunLock.lockPath(besideOutput: destination)))
            try AtomicOutput.writeDirectoryAtomically(path: destination, replacing: ReconcileRun.reportNames) {
                (staging: StagingDirectory) throws(ASNError) in
                for file in merged { try staging.write(name: file.name, bytes: file.bytes) }
            }
        } catch {
            console.diagnostic("\(name): \(error.description); nothing written")
            return error.code == .locked ? .locked : .failure
        }
        return MergedReportVerdict.finish(
            merged, label: name, what: "\(folders.count) shard\(folders.count == 1 ? "" : "s") merged", directory: out,
            maxRejectRate: maxRejectRate, console: console)
    }
}
