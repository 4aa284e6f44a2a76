/// What reading one input file gave, counted so `read = stored + duplicates + other_environment + rejected`.
package struct IngestCounts: Sendable, Equatable {
    /// Records (lines, rows, array elements) read.
    package var read = 0
    /// New records stored.
    package var stored = 0
    /// Records whose notificationUUID was already in the state.
    package var duplicates = 0
    /// Records of the environment the `environment` setting leaves out.
    package var otherEnvironment = 0
    /// Records that could not be read.
    package var rejected = 0
    /// V2 records among the read ones given decoded, so not verified under `verify-signatures` (not part of the sum).
    package var unverified = 0

    /// Creates zero counts.
    package init() {}
}
