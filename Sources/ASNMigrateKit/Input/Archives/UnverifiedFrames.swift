import Synchronization

/// The zstd frames one run read without a content checksum, per input: their data cannot be checked, so a flipped
/// bit would pass. Each `ZstdByteSource` notes its count in its run's `InputReading` when it ends; the job warns once
/// per file and reports the total (`unverified_frames` in `summary.csv`). With `--require-checksums` such a frame is
/// refused instead (`InputLimits.requireChecksums`), a reject for its file.
package final class UnverifiedFrames: Sendable {
    /// Frames without a checksum per input name (the most seen for a name, as an input may be read more than once).
    private let counts = Mutex<[String: Int]>([:])

    /// An empty count.
    package init() {}

    /// Notes that `name` held `frames` frames without a checksum.
    func note(_ name: String, frames: Int) {
        guard frames > 0 else { return }
        counts.withLock { $0[name] = max($0[name] ?? 0, frames) }
    }

    /// The inputs with frames read without a checksum, sorted by name, and forgets them.
    package func take() -> [(name: String, frames: Int)] {
        counts.withLock { counts in
            defer { counts = [:] }
            return counts.sorted { $0.key < $1.key }.map { (name: $0.key, frames: $0.value) }
        }
    }

    /// The warning for one input.
    package static func warning(name: String, frames: Int) -> String {
        "warning: '\(ConsoleText.path(name))' holds \(frames) zstd frame\(frames == 1 ? "" : "s") written without a content checksum; \(frames == 1 ? "its" : "their") data was read unverified (damage would pass unnoticed). Recompress with 'zstd' (which writes checksums by default), or pass --require-checksums to reject such files"
    }
}
