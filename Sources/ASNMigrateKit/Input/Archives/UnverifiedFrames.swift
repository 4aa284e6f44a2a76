import Synchronization

/// The zstd frames read without a content checksum, per input: their data cannot be checked, so
/// a flipped bit would pass. Each `ZstdByteSource` notes its count here when it ends; the job warns once per file and
/// reports the total (`unverified_frames` in `summary.csv`). With `--require-checksums` such a frame is refused
/// instead (`required`), a reject for its file.
package enum UnverifiedFrames {
    /// Frames without a checksum per input name (the most seen for a name, as an input may be read more than once).
    private static let counts = Mutex<[String: Int]>([:])
    /// Whether a frame without a checksum is refused (`--require-checksums`).
    private static let requiredFlag = Mutex<Bool>(false)

    /// Whether a frame without a checksum is refused (`--require-checksums`); set once by the command.
    package static var required: Bool {
        get { requiredFlag.withLock { $0 } }
        set { requiredFlag.withLock { $0 = newValue } }
    }

    /// Notes that `name` held `frames` frames without a checksum.
    static func note(_ name: String, frames: Int) {
        guard frames > 0 else { return }
        counts.withLock { $0[name] = max($0[name] ?? 0, frames) }
    }

    /// The inputs with frames read without a checksum, sorted by name, and forgets them.
    package static func take() -> [(name: String, frames: Int)] {
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
