import Foundation

/// What a build knows about itself: the git commit, embedded when the binary was built by `.ci/install`, which writes
/// `BuildCommit.generated.swift` (not in git) and compiles with `-DASN_BUILD_COMMIT`. Swift has no `-D NAME=VALUE`
/// and SwiftPM no generated sources without plugins, so a plain `swift build` or `swift run` embeds none: such a
/// binary reads the git HEAD of the source tree it was compiled from, at run time, and says so; `unknown` when that
/// tree is gone (a binary copied to another machine).
public enum BuildInfo {
    /// The tool's version number (`tool_version` in summaries).
    public static let versionNumber = "0.1.0"

    /// The git commit the binary was built from (`-dirty` when the tree had changes), else the source tree's HEAD at
    /// run time with the tree's path, else `unknown`.
    public static var commit: String {
        #if ASN_BUILD_COMMIT
            return BuildCommit.value
        #else
            let root = sourceRoot
            guard let head = GitHead.commit(ofTree: root) else { return "unknown" }
            return "\(head.prefix(12)) (the git HEAD of the source tree \(root) at run time; not embedded in the build)"
        #endif
    }

    /// The package's root folder as the compiler saw it: three folders above this file.
    static var sourceRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }
}
