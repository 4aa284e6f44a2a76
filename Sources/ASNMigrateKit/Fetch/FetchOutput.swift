import Foundation

/// The fetch folder: the answers of the checkpoint laid out as `reconcile --v2 DIR` reads Apple's API view, and the
/// fetch's own files, which `reconcile` recognises and leaves alone.
///
/// - `history/part-NNNN.jsonl.gz`: every Get Transaction History page, one per line, as Apple sent it;
/// - `statuses/part-NNNN.jsonl.gz`: the latest Get All Subscription Statuses response of each id (each JWS in it
///   carries `signedDate`, the instant Apple answered, which `reconcile` takes as the fetch time);
/// - `notifications/part-NNNN.jsonl.gz`: Get Notification History pages (with `--notifications-since`);
/// - `fetch-summary.csv`, `not-found.csv` and the checkpoint `.fetch-checkpoint.jsonl`.
///
/// Ids are in environment, then numeric id order, pages in the order Apple gave them, so the same answers give the
/// same bytes whatever the concurrency or the interruptions.
package enum FetchOutput {
    /// The response folders, in the order they are written.
    package static let responseFolders = ["history", "statuses", "notifications"]
    /// The summary file's name.
    package static let summaryName = FetchFolder.summaryName
    /// The not-found list's name.
    package static let notFoundName = FetchFolder.notFoundName
    /// Lines per part file.
    package static let linesPerPart = 10_000

    /// Every name `fetch` writes in its folder (besides hidden temporaries).
    package static var ownNames: Set<String> {
        Set(responseFolders + [summaryName, notFoundName, FetchFolder.notAnsweredName, FetchCheckpoint.fileName])
    }

    /// Throws `.outputFailed` when `directory` exists and holds anything `fetch` does not write (a folder given by
    /// mistake), or is not a folder; creates it when missing.
    package static func prepare(_ directory: String) throws(ASNError) {
        var info = stat()
        if stat(directory, &info) != 0 {
            try FileSystem.createDirectories(directory)
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ASNError(
                .outputFailed,
                "'\(ConsoleText.path(directory))' is not a folder; give --out a folder for the fetched responses",
                at: SourceLocation(path: directory))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if let foreign = names.sorted().first(where: { !$0.hasPrefix(".") && !ownNames.contains($0) }) {
            throw ASNError(
                .outputFailed,
                "'\(ConsoleText.path(directory))' holds '\(foreign)', which fetch did not write; give --out an empty or new folder, or an earlier fetch's folder",
                at: SourceLocation(path: directory))
        }
    }

    /// A row of `not-found.csv`.
    package struct NotFound: Sendable, Equatable {
        /// The id asked for.
        package var id: String
        /// Its environment.
        package var environment: String
        /// Apple's error code, when it gave one.
        package var errorCode: Int?
    }

    /// Writes the response folders from `checkpoint`; returns the not-found rows.
    @discardableResult
    package static func writeResponses(_ checkpoint: FetchCheckpoint, directory: String) throws(ASNError) -> [NotFound]
    {
        let entries = checkpoint.entries
        var byKey: [[String]: [FetchCheckpoint.Entry]] = [:]
        var notifications: [FetchCheckpoint.Entry] = []
        var covers: [[String]: Set<String>] = [:]
        for entry in entries {
            if entry.kind == "notifications" { notifications.append(entry) }
            if entry.kind == "done" { covers[[entry.environment, entry.id], default: []].formUnion(entry.covers) }
            guard !entry.id.isEmpty, ["history", "statuses", "notFound"].contains(entry.kind) else { continue }
            byKey[[entry.environment, entry.id], default: []].append(entry)
        }
        let keys = byKey.keys.sorted { a, b in a[0] != b[0] ? a[0] < b[0] : IdentifierOrder.less(a[1], b[1]) }
        var history: [FetchCheckpoint.Entry] = []
        var statuses: [FetchCheckpoint.Entry] = []
        var notFound: [NotFound] = []
        // Apple answers per customer: an id the answers of a smaller id already hold is left out, whichever of the two
        // was asked first (or both), so the output does not depend on the order answers came in.
        var held: [String: Set<String>] = [:]
        for key in keys {
            if held[key[0]]?.contains(key[1]) == true { continue }
            held[key[0], default: []].formUnion(covers[key] ?? [])
            let list = byKey[key] ?? []
            let pages = unique(list.filter { $0.kind == "history" }).sorted { $0.generation < $1.generation }
            history += pages
            let latestStatuses = list.filter { $0.kind == "statuses" }.max { $0.generation < $1.generation }
            if let latestStatuses { statuses.append(latestStatuses) }
            if pages.isEmpty, let missing = list.last(where: { $0.kind == "notFound" }) {
                notFound.append(NotFound(id: key[1], environment: key[0], errorCode: missing.errorCode))
            }
        }
        let notificationPages = unique(notifications).sorted { a, b in
            a.environment != b.environment ? a.environment < b.environment : a.generation < b.generation
        }
        for (folder, list) in zip(responseFolders, [history, statuses, notificationPages]) {
            let path = directory + "/" + folder
            if list.isEmpty && FileSystem.fileType(path) == nil && folder == "notifications" { continue }
            try writeParts(list, of: checkpoint, to: path)
        }
        return notFound
    }

    /// `not-found.csv`: `original_transaction_id,environment,error_code`.
    package static func notFoundCSV(_ rows: [NotFound]) -> [UInt8] {
        CSVWriter.renderBytes(
            header: ["original_transaction_id", "environment", "error_code"],
            rows: rows.map { [$0.id, $0.environment, $0.errorCode.map(String.init) ?? ""] })
    }

    // MARK: - Private

    /// The entries without repeats of one request (same environment, id, generation and `after`): the first kept.
    /// (Sorting afterwards is stable, so Apple's page order stays.)
    private static func unique(_ entries: [FetchCheckpoint.Entry]) -> [FetchCheckpoint.Entry] {
        var seen: Set<[String]> = []
        return entries.filter {
            seen.insert([$0.environment, $0.id, String($0.generation), $0.after ?? "\u{0}"]).inserted
        }
    }

    /// Replaces the folder at `path` with gzip part files holding the bodies of `entries`, one per line.
    private static func writeParts(_ entries: [FetchCheckpoint.Entry], of checkpoint: FetchCheckpoint, to path: String)
        throws(ASNError)
    {
        let existing = Set(((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(isPartName))
        let partCount = (entries.count + linesPerPart - 1) / linesPerPart
        try AtomicOutput.writeDirectoryAtomically(path: path, replacing: existing) {
            (staging: StagingDirectory) throws(ASNError) in
            for part in 0..<partCount {
                let name = partName(part + 1)
                let target = staging.path + "/" + name
                do {
                    let writer = try GzipWriter(path: target)
                    for entry in entries[(part * linesPerPart)..<min(entries.count, (part + 1) * linesPerPart)] {
                        var line = try checkpoint.body(of: entry)
                        line.append(0x0A)
                        try writer.write(line)
                    }
                    try writer.close()
                } catch let error as ASNError {
                    throw error
                } catch {
                    throw ASNError(.outputFailed, "cannot write '\(target)'", cause: "\(error)")
                }
            }
        }
    }

    /// `part-0001.jsonl.gz`, …
    static func partName(_ number: Int) -> String {
        let digits = String(number)
        return "part-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jsonl.gz"
    }

    /// Whether `name` is a part file's name.
    static func isPartName(_ name: String) -> Bool {
        name.hasPrefix("part-") && name.hasSuffix(".jsonl.gz")
    }
}
