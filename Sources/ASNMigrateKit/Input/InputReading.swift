import Foundation

/// One run's reading of its inputs: its `InputLimits`, and what the readers found that the job reports at the end
/// (the zstd frames read without a checksum). Every `InputFile` a job lists carries its run's reading; copies share
/// it, so a worker thread's note reaches the job that warns.
package final class InputReading: Sendable {
    /// The version of the readers (splitting, decoding, mapping, and the checks that reject a record): raised by every
    /// release whose readers take or reject records differently, so a `nightly` state reads again the files an older
    /// reader rejected records of. 1: the first release that keeps it (earlier states count as 0).
    package static let readerVersion: Int64 = 1

    /// The limits the run's command line set.
    package let limits: InputLimits
    /// The zstd frames read without a content checksum, per input.
    package let unverifiedFrames = UnverifiedFrames()

    /// The shape each plain input was split in, by path, when the run keeps them (`nightly`'s ledger does).
    let shapes: DecidedShapes?

    /// A reading under `limits` (by default the options' defaults), with nothing found yet; `keepingShapes` keeps
    /// the shape each input was split in.
    package init(_ limits: InputLimits = InputLimits(), keepingShapes: Bool = false) {
        self.limits = limits
        self.shapes = keepingShapes ? DecidedShapes() : nil
    }
}

/// The shapes readers decided, by input path; readers on any thread note, the job takes.
final class DecidedShapes: @unchecked Sendable {
    // @unchecked: `shapes` is read and written under `lock` only.

    /// Guards `shapes`.
    private let lock = NSLock()
    /// The shapes noted and not yet taken.
    private var shapes: [String: FileShape] = [:]

    /// Notes the shape `path` was split in (nothing for an input of only blanks).
    func note(_ shape: FileShape?, for path: String) {
        lock.lock()
        defer { lock.unlock() }
        shapes[path] = shape
    }

    /// The shape noted for `path`, forgotten once taken.
    func take(_ path: String) -> FileShape? {
        lock.lock()
        defer { lock.unlock() }
        return shapes.removeValue(forKey: path)
    }
}
