import Foundation

/// Paths of the package and its shared neighbours, located from this source file so tests work from any directory.
enum PackagePaths {
    /// The package root (the directory holding `Package.swift`).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TestSupport
        .deletingLastPathComponent() // ASNMigrateKitTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures/sample`, the sample archive set and its golden output.
    static let sample: URL = root.appendingPathComponent("Tests/Fixtures/sample")

    /// `../shared/corpus/v1` next to the package, when that folder exists (it is not part of the repository).
    static let corpusV1: URL? = {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/v1")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return url
    }()

    /// The bytes of a file under the package root.
    static func read(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// The Swift files under `folder` (a path under the package root), each with its path relative to `folder` and
    /// its text, in path order: what the tests that scan the sources read.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var files: [(path: String, text: String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((relative, try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }
}
