import Foundation

@testable import ASNMigrateKit

/// The machine's tools some tests need and the image may lack, each looked for once: a test that needs one is
/// `.enabled(if:)` on it, so it shows as skipped, with the reason, where the tool is missing and runs where it is.
enum MachineTools {
    /// Whether `flock(1)` (util-linux) is installed.
    static let flock = FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")

    /// Whether the `sqlite3` shell is installed.
    static let sqlite3Shell = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    /// Whether libzstd (`libzstd.so.1`, loaded at run time) loads.
    static let libzstd: Bool = {
        if case .success = ZstdLibrary.shared { return true }
        return false
    }()

    /// Whether the source tree is a git checkout (an export has no `.git`).
    static let gitCheckout = FileManager.default.fileExists(atPath: PackagePaths.root.path + "/.git")

    /// Whether `python3` is on the path and imports PyYAML.
    static let pyYAML: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import yaml"]
        probe.standardError = FileHandle.nullDevice
        probe.standardOutput = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()
}
