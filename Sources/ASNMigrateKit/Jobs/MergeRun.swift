import Foundation

/// One `merge` run as named steps: read the shard folders, merge their reports (`ReportMerge`), write the merged
/// report atomically under a lock, and judge it as `reconcile` would.
package struct MergeRun {
    /// The name messages begin with.
    package static let name = "asn-migrate merge"

    /// `--out` as given.
    package let out: String
    /// The shard report folders, as given.
    package let folders: [String]
    /// `--max-reject-rate`, as a fraction.
    package let maxRejectRate: Double
    /// How each command's shards merge (`reconcile`'s, `nightly`'s).
    package let layouts: [ReportMerge.Layout]
    /// Where messages go.
    package let console: Console

    /// Creates the run.
    package init(
        out: String, folders: [String], maxRejectRate: Double, layouts: [ReportMerge.Layout], console: Console
    ) {
        self.out = out
        self.folders = folders
        self.maxRejectRate = maxRejectRate
        self.layouts = layouts
        self.console = console
    }

    /// Runs every step and returns the exit status (see `MergeCommand.spec`).
    package func run() -> ExitStatus {
        do throws(ASNError) {
            try OutputPlan(
                outputs: OutputPlan.withLock(OutputPlan.Output("--out", out, kind: .folder)),
                inputs: folders.map { OutputPlan.Input("SHARD_DIR", $0) }
            ).check()
        } catch {
            say("\(error.message); nothing written")
            return ExitStatus(stoppedBy: error)
        }
        let destination: String
        do {
            destination = try OutputTarget.resolveDirectory(out)
        } catch {
            say("\(error.description); nothing written")
            return .failure
        }
        var status = ExitStatus.success
        guard let shards = read(status: &status) else { return status }
        let merged: (files: [(name: String, bytes: [UInt8])], layout: ReportMerge.Layout)
        do {
            merged = try ReportMerge.merge(shards, layouts: layouts)
        } catch {
            say("\(error.message); nothing written")
            return ExitStatus(stoppedBy: error, otherwise: .dataError)
        }
        if let status = write(merged.files, to: destination) { return status }
        return merged.layout.verdict(
            merged.files,
            ReportMerge.Verdict(
                label: Self.name, what: "\(shards.count) shard\(shards.count == 1 ? "" : "s") merged", directory: out,
                maxRejectRate: maxRejectRate, console: console))
    }

    // MARK: - Steps

    /// The report files of every shard folder; nil, with `status` set, after saying what is wrong with one.
    private func read(status: inout ExitStatus) -> [ReportMerge.Folder]? {
        var shards: [ReportMerge.Folder] = []
        for path in folders {
            var isDirectory: ObjCBool = false
            // A path that is missing or not a folder is a mistake on the command line (64), not damaged shard data.
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                let what = FileManager.default.fileExists(atPath: path) ? "is not a folder" : "does not exist"
                say(
                    "shard folder '\(ConsoleText.path(path))' \(what); give the shard report folders (the --out of each 'reconcile --shard K/N', or a night's <reports>/<date>.shard-K-of-N); nothing written"
                )
                status = .usage
                return nil
            }
            var files: [String: [UInt8]] = [:]
            for file in Set(layouts.flatMap(\.fileNames)).sorted() + [ShardManifest.fileName] {
                if let data = FileManager.default.contents(atPath: path + "/" + file) { files[file] = Array(data) }
            }
            shards.append(ReportMerge.Folder(name: path, files: files))
        }
        return shards
    }

    /// Writes the merged report into `destination` under its lock; nil when written, else the exit status after
    /// saying why not.
    private func write(_ merged: [(name: String, bytes: [UInt8])], to destination: String) -> ExitStatus? {
        var lock: RunLock?
        defer { lock?.release() }
        do throws(ASNError) {
            lock = try RunLock.acquire(RunLock.lockPath(besideOutput: destination))
            try AtomicOutput.writeDirectoryAtomically(
                path: destination, replacing: ReconcileRun.reportNames.union(layouts.flatMap(\.fileNames))
            ) {
                (staging: StagingDirectory) throws(ASNError) in
                for file in merged { try staging.write(name: file.name, bytes: file.bytes) }
            }
            return nil
        } catch {
            say("\(error.description); nothing written")
            return ExitStatus(stoppedBy: error)
        }
    }

    /// Prints `message` on standard error after the job's name.
    private func say(_ message: String) {
        console.diagnostic("\(Self.name): \(message)")
    }
}
