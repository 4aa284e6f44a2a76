import Foundation
import Testing

/// A file a command writes goes through `OutputFile` (or a folder through `AtomicOutput`'s directory writes),
/// which writes a device or FIFO through and replaces only a regular file. A direct `AtomicFile` or
/// `writeFileAtomically` renames over whatever is at the path, as `nightly --metrics-file` did to `/dev/null`.
@Suite struct OneOutputPathTests {
    /// Files allowed to open an `AtomicFile` themselves, and why.
    static let allowed: [String: String] = [
        "ASNMigrateKit/Jobs/PartitionDataWriter.swift":
            "entries of the partition folder it creates, up to 1000 open at once with 64 KiB blocks",
        "ASNSimulation/SimulationFiles.swift": "entries of the staging folder simulate swaps into place"
    ]

    @Test func everyFileIsWrittenThroughTheOneOutputPath() throws {
        let sources = PackagePaths.root.appendingPathComponent("Sources").path
        let walk = try #require(FileManager.default.enumerator(atPath: sources))
        var checked = 0
        while let entry = walk.nextObject() as? String {
            guard entry.hasSuffix(".swift"), !entry.hasPrefix("ASNMigrateKit/Reports/") else { continue }
            let text = try String(contentsOfFile: sources + "/" + entry, encoding: .utf8)
            checked += 1
            for call in ["AtomicOutput.writeFileAtomically(", "AtomicFile(path"] where text.contains(call) {
                #expect(
                    Self.allowed[entry] != nil,
                    "\(entry) calls \(call) directly: write the file with OutputFile (or OutputFile.writeWhole), which keeps devices and FIFOs"
                )
            }
        }
        #expect(checked > 100)
    }
}
