import Foundation

/// The files `fetch` writes beside Apple's answers, named once: `reconcile` reads a fetch folder as V2 records and
/// must skip these.
package enum FetchFolder {
    /// The run's summary.
    package static let summaryName = "fetch-summary.csv"
    /// The ids Apple did not know.
    package static let notFoundName = "not-found.csv"
    /// The ids `nightly --fetch` could not get answered, to retry.
    package static let notAnsweredName = "not-answered.csv"
    /// The checkpoint journal that marks a folder as a fetch folder.
    package static let checkpointName = ".fetch-checkpoint.jsonl"

    /// Whether the file at `path` is one of a fetch folder's own files (`fetch-summary.csv`, `not-found.csv`,
    /// `not-answered.csv` beside a fetch checkpoint), which `reconcile` and `nightly` do not read as V2 records.
    package static func isOwnFile(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        guard name == summaryName || name == notFoundName || name == notAnsweredName else { return false }
        let folder = FileSystem.parentDirectory(of: path)
        return FileManager.default.fileExists(atPath: folder + "/" + checkpointName)
    }
}
