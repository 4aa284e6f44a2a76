/// What reading one input file gave, counted so `read = stored + duplicates + other_environment + rejected`.
public struct IngestCounts: Sendable, Equatable {
    /// Records (lines, rows, array elements) read.
    public var read = 0
    /// New records stored.
    public var stored = 0
    /// Records whose notificationUUID was already in the state.
    public var duplicates = 0
    /// Records of the environment the `environment` setting leaves out.
    public var otherEnvironment = 0
    /// Records that could not be read.
    public var rejected = 0
    /// V2 records among the read ones given decoded, so not verified under `verify-signatures` (not part of the sum).
    public var unverified = 0

    /// Creates zero counts.
    public init() {}
}
