/// How a run reads its inputs, as its command line set it: the longest record kept (`--max-record-bytes`) and
/// whether a zstd frame without a content checksum is refused (`--require-checksums`). A value in each job's
/// settings, so two runs in one process (the library's Swift API) never share them.
package struct InputLimits: Sendable, Hashable {
    /// The longest record kept; a longer one is one `record_too_large` reject, read past in bounded memory.
    package var maxRecordBytes: Int
    /// Whether a zstd frame without a content checksum is a reject for its file rather than read with a warning.
    package var requireChecksums: Bool

    /// The default `--max-record-bytes`: 64 MiB, far above any notification, far below what a machine holds.
    package static let defaultMaxRecordBytes = 64 << 20

    /// Limits of `maxRecordBytes` (at least 1) and `requireChecksums`; the defaults are the options' defaults.
    package init(maxRecordBytes: Int = defaultMaxRecordBytes, requireChecksums: Bool = false) {
        self.maxRecordBytes = max(1, maxRecordBytes)
        self.requireChecksums = requireChecksums
    }
}
