import Foundation

/// The files `fetch` writes beside Apple's answers, named once: `reconcile` reads a fetch folder as V2 records and
/// must skip these.
public enum FetchFolder {
    /// The run's summary.
    public static let summaryName = "fetch-summary.csv"
    /// The ids Apple did not know.
    public static let notFoundName = "not-found.csv"
    /// The checkpoint journal that marks a folder as a fetch folder.
    public static let checkpointName = ".fetch-checkpoint.jsonl"

    /// Whether the file at `path` is one of a fetch folder's own files (`fetch-summary.csv`, `not-found.csv` beside a
    /// fetch checkpoint), which `reconcile` does not read as V2 records.
    public static func isOwnFile(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        guard name == summaryName || name == notFoundName else { return false }
        let folder = FileSystem.parentDirectory(of: path)
        return FileManager.default.fileExists(atPath: folder + "/" + checkpointName)
    }
}
