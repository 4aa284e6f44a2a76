extension ReconcileRun {
    /// Runs a sharded plan: one shard written with its `shard.csv`, or every shard in turn merged by `ReportMerge`
    /// (the code `asn-migrate merge` runs) into the report the unsharded run writes.
    func runSharded(_ plan: ShardPlan, pass: ReconcilePass, table: MappingTable, destination: String) -> ExitStatus {
        let name = Self.name
        let shards: [ShardSelection]
        switch plan {
        case .one(let shard): shards = [shard]
        case .inTurn(let count): shards = (0..<count).map { ShardSelection(index: $0, count: count) }
        case .whole, .memoryLimit: shards = [ShardSelection(index: 0, count: 1)]
        }
        var folders: [ReportMerge.Folder] = []
        for shard in shards {
            switch judge(shard, plan: plan, pass: pass, table: table) {
            case .success(let folder): folders.append(folder)
            case .failure(let error):
                console.diagnostic("\(name): \(ASNError.describe(error)); no report written")
                return ExitStatus(stoppedBy: error)
            }
        }
        let written: [(name: String, bytes: [UInt8])]
        do {
            written = try Self.files(of: plan, folders: folders)
            try AtomicOutput.writeDirectoryAtomically(path: destination, replacing: Self.reportNames) {
                (staging: StagingDirectory) throws(ASNError) in
                for file in written { try staging.write(name: file.name, bytes: file.bytes) }
            }
        } catch {
            console.diagnostic("\(name): \(error.description); no report written")
            return .failure
        }
        let what: String
        switch plan {
        case .one(let shard):
            what = "shard \(shard.text) written; findings and the reject rate are judged by 'asn-migrate merge'"
        default:
            what =
                "\(shards.count) shard\(shards.count == 1 ? "" : "s") in turn, merged; peak memory \(MemoryBudget.peakResidentBytes() >> 20) MiB"
        }
        // A shard's findings and reject rate are the merged report's to judge (shard 0 holds every reject): a written
        // shard exits 0, so a batch engine retries only shards that failed.
        var judge = true
        if case .one = plan { judge = false }
        return MergedReportVerdict.finish(
            written, label: name, what: what, directory: settings.outDirectory, maxRejectRate: settings.maxRejectRate,
            judge: judge, console: console)
    }

    /// The files a sharded plan writes: one shard's report with its `shard.csv`, or the shards merged.
    private static func files(of plan: ShardPlan, folders: [ReportMerge.Folder]) throws(ASNError)
        -> [(name: String, bytes: [UInt8])]
    {
        guard case .one = plan, let shard = folders.first else { return try ReportMerge.reconcile(folders) }
        return ReconciliationReport.fileNames.compactMap { file in shard.files[file].map { (file, $0) } }
            + [(ShardManifest.fileName, shard.files[ShardManifest.fileName] ?? [])]
    }

    /// Judges one shard and returns its report files with its `shard.csv`.
    private func judge(_ shard: ShardSelection, plan: ShardPlan, pass: ReconcilePass, table: MappingTable)
        -> Result<ReportMerge.Folder, ASNError>
    {
        let options = settings.options
        let result: ReconciliationResult
        switch pass.run(shard) {
        case .success(let judged): result = judged
        case .failure(let error): return .failure(error)
        }
        let manifest = ShardManifest(
            command: "reconcile", shard: shard, runDate: options.run.runDate,
            judgementDigest: ShardManifest.judgementDigest(table: table, options: options),
            toolVersion: options.run.toolVersion)
        var files = Dictionary(uniqueKeysWithValues: ReconciliationReport.files(result).map { ($0.name, $0.bytes) })
        files[ShardManifest.fileName] = manifest.bytes
        if case .inTurn = plan {
            console.diagnostic(
                "\(Self.name): shard \(shard.text) judged: V1 \(result.summary.v1RecordsRead), V2 \(result.summary.v2RecordsRead) records; peak memory so far \(MemoryBudget.peakResidentBytes() >> 20) MiB"
            )
        }
        return .success(ReportMerge.Folder(name: "shard \(shard.text)", files: files))
    }
}
