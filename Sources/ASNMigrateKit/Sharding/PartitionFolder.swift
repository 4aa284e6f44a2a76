import Foundation

/// One partition folder of `asn-migrate partition` (`part-K-of-N`), checked whole before `reconcile --partition`
/// reads it: every slice's manifest present once, all of one partitioning (N, K, slice count, inputs, rules, version),
/// and every data file of the size and SHA-1 its manifest says.
package struct PartitionFolder: Sendable {
    /// The folder as given.
    package var path: String
    /// The partition as a shard: K of N.
    package var shard: ShardSelection
    /// The mapping rules' digest the V1 records were partitioned by.
    package var mappingDigest: String
    /// The input roots of the partitioning, as given (the report's `v1_input`, `v2_input`).
    package var inputs: [RunInfo.Input]
    /// The event-time spans over every record of every slice: the unsharded run's.
    var spans: ShardSpans
    /// The V1 data files, in slice order (the input order).
    package var v1Files: [InputFile]
    /// The V2 data files, in slice order.
    package var v2Files: [InputFile]

    /// Reads and checks the folder at `path`; a `.badShards` error naming what is missing, repeated or damaged.
    package static func read(_ path: String) throws(ASNError) -> PartitionFolder {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter {
                $0.hasPrefix("slice-") && $0.hasSuffix(".csv")
            }.sorted()
        } catch {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' cannot be read as a partition folder (\(error.localizedDescription)); give a part-K-of-N folder that asn-migrate partition wrote",
                at: SourceLocation(path: path))
        }
        var manifests: [PartitionManifest] = []
        for name in names {
            let file = path + "/" + name
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ASNError(.badShards, "cannot read '\(file)'", at: SourceLocation(path: file))
            }
            manifests.append(try PartitionManifest.parse(Array(data), path: file))
        }
        guard let first = manifests.first else {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' holds no slice manifest (slice-J-of-M.csv): it is not a partition folder, or no slice of asn-migrate partition has finished writing into it",
                at: SourceLocation(path: path))
        }
        try checkWhole(manifests, path: path)
        var spans = ShardSpans()
        var v1: [InputFile] = []
        var v2: [InputFile] = []
        for manifest in manifests.sorted(by: { $0.slice.index < $1.slice.index }) {
            spans.formUnion(manifest.spans)
            for file in manifest.files {
                let full = path + "/" + file.name
                try verify(file, at: full)
                if file.side == "v1" { v1.append(InputFile(path: full)) } else { v2.append(InputFile(path: full)) }
            }
        }
        return PartitionFolder(
            path: path, shard: first.shard, mappingDigest: first.mappingDigest, inputs: first.inputs, spans: spans,
            v1Files: v1, v2Files: v2)
    }

    /// Every slice 0 ..< M exactly once, and all of one partitioning.
    private static func checkWhole(_ manifests: [PartitionManifest], path: String) throws(ASNError) {
        let first = manifests[0]
        for manifest in manifests.dropFirst() {
            let differs: [(String, String, String)] = [
                ("partition", manifest.shard.text, first.shard.text),
                ("slice count", String(manifest.slice.count), String(first.slice.count)),
                ("mapping digest", manifest.mappingDigest, first.mappingDigest),
                ("tool version", manifest.toolVersion, first.toolVersion),
                (
                    "inputs", manifest.inputs.map { "\($0.side) \($0.root)" }.joined(separator: ", "),
                    first.inputs.map { "\($0.side) \($0.root)" }.joined(separator: ", ")
                )
            ].filter { $0.1 != $0.2 }
            if let (what, value, expected) = differs.first {
                throw ASNError(
                    .badShards,
                    "'\(path)/\(PartitionManifest.fileName(manifest.slice))' is from another partitioning: its \(what) is \(value), '\(PartitionManifest.fileName(first.slice))' has \(expected); partition every slice with the same inputs, --shards, --files M, rules and version into a fresh folder",
                    at: SourceLocation(path: path + "/" + PartitionManifest.fileName(manifest.slice)))
            }
        }
        let given = Set(manifests.map(\.slice.index))
        let missing = (0..<first.slice.count).filter { !given.contains($0) }
        guard missing.isEmpty else {
            let list = ShardSelection.listed(missing)
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' lacks slice\(missing.count == 1 ? "" : "s") \(list) of \(first.slice.count): run asn-migrate partition --files J/\(first.slice.count) for \(missing.count == 1 ? "it" : "them") (or wait for it to finish), then reconcile again",
                at: SourceLocation(path: path))
        }
    }

    /// The data file is there with its manifest's size and SHA-1.
    private static func verify(_ file: PartitionManifest.DataFile, at path: String) throws(ASNError) {
        let size: Int64
        let sha1: String
        do {
            (size, sha1) = try PartitionFile.measure(path)
        } catch {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' is missing or unreadable (\(error.message)); run asn-migrate partition again for its slice",
                at: SourceLocation(path: path))
        }
        guard size == file.bytes, sha1 == file.sha1 else {
            throw ASNError(
                .badShards,
                "'\(ConsoleText.path(path))' is damaged: \(size) bytes with SHA-1 \(sha1), but its slice manifest says \(file.bytes) bytes with SHA-1 \(file.sha1); run asn-migrate partition again for its slice",
                at: SourceLocation(path: path))
        }
    }
}
