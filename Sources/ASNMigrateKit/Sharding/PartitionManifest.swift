import Foundation

/// `slice-J-of-M.csv` in a partition folder: what one `asn-migrate partition` slice wrote into that partition, and
/// what the whole slice saw, so the partition reconciles as shard K of N of the unsharded run (`PartitionFolder`).
///
/// `metric,value` rows: `command` (`partition`), `shard`, `shards`, `slice`, `slices`, `mapping_digest`,
/// `tool_version`, one `v1_input` / `v2_input` row per input root as given, the slice's event-time spans over all its
/// records (`v1_span_start`, `v1_span_end`, `v2_span_start`, `v2_span_end`, epoch ms, empty when none), and per side
/// the data file written (`v1_file`, `v1_bytes`, `v1_sha1`, `v1_items`; the same for `v2`). Written after the data
/// files, so a slice without its manifest is not finished.
package struct PartitionManifest: Sendable, Equatable {
    /// The partition (shard) this folder holds, and the partition count.
    package var shard: ShardSelection
    /// The slice of the input files this manifest is about (`--files J/M`).
    package var slice: ShardSelection
    /// The mapping rules' digest the V1 records were partitioned by (`MappingTable.digest`).
    package var mappingDigest: String
    /// The tool version that wrote it.
    package var toolVersion: String
    /// The input roots, as given (the summary's `v1_input`, `v2_input`).
    package var inputs: [RunInfo.Input]
    /// The slice's event-time spans over every record it read, whatever its partition.
    var spans: ShardSpans
    /// The data file of each side, relative to the partition folder, with its size, SHA-1 and item count.
    package var files: [DataFile]

    /// One data file a slice wrote into a partition.
    package struct DataFile: Sendable, Equatable {
        /// `v1` or `v2`.
        package var side: String
        /// The path under the partition folder (`v1/slice-0000-of-0002.asnpart`).
        package var name: String
        /// Its size in bytes.
        package var bytes: Int64
        /// Its SHA-1, hex.
        package var sha1: String
        /// How many items (records and broken items) it holds.
        package var items: Int
    }

    /// The manifest's file name for `slice`: `slice-JJJJ-of-MMMM.csv`, numbers zero-padded so names sort in slice order.
    package static func fileName(_ slice: ShardSelection) -> String {
        "\(baseName(slice)).csv"
    }

    /// `slice-JJJJ-of-MMMM`.
    package static func baseName(_ slice: ShardSelection) -> String {
        "slice-\(padded(slice.index))-of-\(padded(slice.count))"
    }

    /// The partition folder's name under the output: `part-K-of-N`.
    package static func folderName(_ shard: ShardSelection) -> String {
        "part-\(shard.index)-of-\(shard.count)"
    }

    private static func padded(_ n: Int) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var rows: [[String]] = [
            ["command", "partition"], ["shard", String(shard.index)], ["shards", String(shard.count)],
            ["slice", String(slice.index)], ["slices", String(slice.count)], ["mapping_digest", mappingDigest],
            ["tool_version", toolVersion]
        ]
        rows += inputs.map { ["\($0.side)_input", $0.root] }
        for (side, span) in [("v1", spans.v1), ("v2", spans.v2)] {
            rows.append(["\(side)_span_start", span.map { String($0.lowerBound) } ?? ""])
            rows.append(["\(side)_span_end", span.map { String($0.upperBound) } ?? ""])
        }
        for file in files {
            rows += [
                ["\(file.side)_file", file.name], ["\(file.side)_bytes", String(file.bytes)],
                ["\(file.side)_sha1", file.sha1], ["\(file.side)_items", String(file.items)]
            ]
        }
        return CSVWriter.renderBytes(header: ["metric", "value"], rows: rows)
    }

    /// Reads a manifest; `path` names it in errors.
    static func parse(_ bytes: [UInt8], path: String) throws(ASNError) -> PartitionManifest {
        let bad = { (what: String) in
            ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' is not a partition manifest (\(what)); run asn-migrate partition again for that slice",
                at: SourceLocation(path: path))
        }
        let rows: [CSVRecord]
        do {
            rows = try CSVReader.read(bytes, path: path).records
        } catch {
            throw bad(error.message)
        }
        var values: [String: String] = [:]
        var inputs: [RunInfo.Input] = []
        for row in rows where row.fields.count == 2 {
            let (metric, value) = (row.fields[0], row.fields[1])
            if metric == "v1_input" || metric == "v2_input" {
                inputs.append(RunInfo.Input(side: String(metric.prefix(2)), root: value))
            } else {
                values[metric] = value
            }
        }
        let int = { (name: String) in values[name].flatMap { Int($0) } }
        guard values["command"] == "partition", let k = int("shard"), let n = int("shards"), k >= 0, k < n,
            let j = int("slice"), let m = int("slices"), j >= 0, j < m, let digest = values["mapping_digest"],
            let version = values["tool_version"]
        else { throw bad("command, shard, shards, slice, slices, mapping_digest or tool_version missing") }
        var spans: [ClosedRange<Int64>?] = []
        for side in ["v1", "v2"] {
            let start = values["\(side)_span_start"] ?? ""
            let end = values["\(side)_span_end"] ?? ""
            if start.isEmpty && end.isEmpty {
                spans.append(nil)
            } else if let low = Int64(start), let high = Int64(end), low <= high {
                spans.append(low...high)
            } else {
                throw bad("\(side)_span_start and \(side)_span_end are not a span")
            }
        }
        var files: [DataFile] = []
        for side in ["v1", "v2"] {
            guard let name = values["\(side)_file"], let size = values["\(side)_bytes"].flatMap({ Int64($0) }),
                let sha1 = values["\(side)_sha1"], let items = int("\(side)_items"), !name.contains("..")
            else { throw bad("\(side)_file, \(side)_bytes, \(side)_sha1 or \(side)_items missing") }
            files.append(DataFile(side: side, name: name, bytes: size, sha1: sha1, items: items))
        }
        return PartitionManifest(
            shard: ShardSelection(index: k, count: n), slice: ShardSelection(index: j, count: m),
            mappingDigest: digest, toolVersion: version, inputs: inputs, spans: ShardSpans(v1: spans[0], v2: spans[1]),
            files: files)
    }
}
