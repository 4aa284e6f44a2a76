/// What a build embedded about itself: the git commit, when the binary was built by `.ci/install`, which writes
/// `BuildCommit.generated.swift` (not in git) and compiles with `-DASN_BUILD_COMMIT`. Swift has no `-D NAME=VALUE`
/// and SwiftPM no generated sources without plugins, so a plain `swift build` says `unknown`.
public enum BuildInfo {
    /// The tool's version number (`tool_version` in summaries).
    public static let versionNumber = "0.1.0"

    /// The git commit the binary was built from (`-dirty` when the tree had changes), or `unknown`.
    public static var commit: String {
        #if ASN_BUILD_COMMIT
            return BuildCommit.value
        #else
            return "unknown"
        #endif
    }
}
