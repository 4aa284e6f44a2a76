/// `shard.csv`: what a shard's report folder says about the run it belongs to, so `merge` can tell that a set of
/// folders is one whole run (every shard once, the same N, run date, judgement and tool version).
///
/// Written only by `--shard K/N` runs, beside the report files; `merge` reads it and does not write it, so the merged
/// folder is byte for byte the unsharded run's.
package struct ShardManifest: Sendable, Equatable {
    /// The file's name in a shard folder.
    package static let fileName = "shard.csv"

    /// The command that wrote the folder (`reconcile`).
    package var command: String
    /// The shard and the shard count.
    package var shard: ShardSelection
    /// The run date, `YYYY-MM-DD`.
    package var runDate: String
    /// A digest of everything that judges the records (mapping rules, window, tolerance, period, fields compared).
    package var judgementDigest: String
    /// The tool version that wrote it.
    package var toolVersion: String

    /// Creates a manifest.
    package init(command: String, shard: ShardSelection, runDate: String, judgementDigest: String, toolVersion: String)
    {
        self.command = command
        self.shard = shard
        self.runDate = runDate
        self.judgementDigest = judgementDigest
        self.toolVersion = toolVersion
    }

    /// The digest of a reconcile run's judgement: the mapping table's digest, the window, the time tolerance,
    /// `--from` / `--to` and the fields compared, as 16 hex digits.
    package static func judgementDigest(table: MappingTable, options: ReconcileOptions) -> String {
        let from: String = options.from.map { String($0) } ?? ""
        let to: String = options.to.map { String($0) } ?? ""
        let fields: String = options.fields.map(\.rawValue).joined(separator: " ")
        let parts: [String] = [
            "reconcile", String(table.digest), String(options.window), String(options.timeTolerance), from, to, fields
        ]
        let text = parts.joined(separator: "|")
        return String(SHA1.hexDigest(Array(text.utf8)).prefix(16))
    }

    /// The file's bytes: `metric,value` rows.
    package var bytes: [UInt8] {
        CSVWriter.renderBytes(
            header: ["metric", "value"],
            rows: [
                ["command", command], ["shard", String(shard.index)], ["shards", String(shard.count)],
                ["run_date", runDate],
                ["judgement_digest", judgementDigest], ["tool_version", toolVersion]
            ])
    }

    /// Reads a `shard.csv`; `folder` names the shard folder in errors.
    package static func parse(_ bytes: [UInt8], folder: String) throws(ASNError) -> ShardManifest {
        let path = folder + "/" + fileName
        let rows: [CSVRecord]
        do {
            rows = try CSVReader.read(bytes, path: path).records
        } catch {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' cannot be read as a shard manifest: \(error.message); write the folder again with reconcile --shard K/N",
                at: SourceLocation(path: path))
        }
        var values: [String: String] = [:]
        for row in rows where row.fields.count == 2 { values[row.fields[0]] = row.fields[1] }
        guard let command = values["command"], let k = values["shard"].flatMap({ Int($0) }),
            let n = values["shards"].flatMap({ Int($0) }),
            n >= 1, k >= 0, k < n, let runDate = values["run_date"], let digest = values["judgement_digest"],
            let version = values["tool_version"]
        else {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' lacks command, shard, shards, run_date, judgement_digest or tool_version (or has K ≥ N); write the folder again with reconcile --shard K/N",
                at: SourceLocation(path: path))
        }
        return ShardManifest(
            command: command, shard: ShardSelection(index: k, count: n), runDate: runDate, judgementDigest: digest,
            toolVersion: version)
    }
}
