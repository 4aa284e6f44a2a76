import Foundation

extension NightlyRun {
    // MARK: - Guards

    /// Why these settings must not run (a usage error, exit 64), or nil: a run date more than a day after the
    /// machine's clock. (The state, reports, backups or metrics inside an input root are `OutputPlan`'s to refuse.)
    static func refusal(_ settings: NightlySettings, clock: Int64) -> String? {
        if let runDate = settings.runDate, !settings.allowFutureRunDate,
            let day = Timestamp.parseUTCDayOrInstant(runDate),
            day.ms > clock + Timestamp.millisecondsPerDay
        {
            return
                "--run-date \(runDate) is more than a day after the machine's clock (\(Timestamp.iso8601(ms: clock))): its run would stamp the state with a future night, and every real night after it would be refused as going back. Check the date and the clock; pass --allow-future-run-date if this is meant"
        }
        return nil
    }

    // MARK: - Publishing

    /// Writes the report folder `<reports>/<date>/` atomically, its `report.html` under `verdict` (by default the
    /// night's own); returns its path.
    @discardableResult
    static func publish(_ report: NightlyReport, settings: NightlySettings, verdict: HTMLVerdict? = nil)
        throws(ASNError) -> String
    {
        let directory = reportFolder(settings, date: report.date)
        var files = report.files
        if let shard = settings.shard {
            // A shard's figures are the merged report's to show: its folder holds the CSV files and shard.csv.
            files.append((ShardManifest.fileName, ShardManifest.nightly(settings, shard: shard, report: report).bytes))
        } else if settings.html {
            let verdict = verdict ?? HTMLReport.nightlyVerdict(report, maxRejectRate: settings.maxRejectRate)
            files.append((HTMLReport.fileName, HTMLReport.nightly(report, verdict: verdict).render()))
        }
        try AtomicOutput.writeDirectoryAtomically(
            path: directory, replacing: Set(NightlyReport.fileNames + [HTMLReport.fileName, ShardManifest.fileName])
        ) {
            (staging: StagingDirectory) throws(ASNError) in
            for file in files { try staging.write(name: file.name, bytes: file.bytes) }
        }
        return directory
    }

    /// Writes `<reports>/index.html` atomically: every night of the state with its verdict and links (to the files of
    /// the folders that still exist), and the open-difference trend.
    static func publishIndex(_ store: NightlyStore, settings: NightlySettings) throws(ASNError) {
        let root = settings.reports.hasSuffix("/") ? settings.reports : settings.reports + "/"
        let nights = try store.differences.nights().map { night in
            var night = night
            let folder = reportFolder(settings, date: night.date)
            night.hasFolder = FileSystem.fileType(folder) == S_IFDIR
            night.hasPage = FileSystem.fileType(folder + "/" + HTMLReport.fileName) == S_IFREG
            return night
        }
        try OutputFile.writeWhole(NightlyIndex(nights: nights).render(), to: root + NightlyIndex.fileName)
    }

    /// Removes `<reports>/<date>` folders older than the retention that this state's runs made.
    static func removeOldReports(settings: NightlySettings, date: String, dates: Set<String>, log: (String) -> Void)
        throws(ASNError)
    {
        guard let days = settings.retentionDays, let today = Timestamp.parseUTCDayOrInstant(date) else { return }
        let oldest = Timestamp.day(ms: today.ms - Int64(days) * Timestamp.millisecondsPerDay)
        for old in dates.sorted() where old < oldest {
            let path = reportFolder(settings, date: old)
            guard FileSystem.fileType(path) == S_IFDIR else { continue }
            FileSystem.removeTree(path)
            log("removed the report folder \(path) (older than \(days) days)")
        }
        if let backups = settings.stateBackup {
            for old in dates.sorted() where old < oldest {
                let path = (backups.hasSuffix("/") ? backups : backups + "/") + "before-\(old).sqlite"
                guard FileSystem.fileType(path) == S_IFREG else { continue }
                unlink(path)
                log("removed the state backup \(path) (older than \(days) days)")
            }
        }
    }

    /// The report folder of the night of `date` (`NightlySettings.reportFolder`).
    static func reportFolder(_ settings: NightlySettings, date: String) -> String {
        settings.reportFolder(date: date)
    }
}
