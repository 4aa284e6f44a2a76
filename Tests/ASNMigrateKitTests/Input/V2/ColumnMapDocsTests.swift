import Foundation
import Testing

@testable import ASNMigrateKit

/// Every column map shown in `Mappings/README.md` loads, so the documentation cannot drift from the parser.
@Suite struct ColumnMapDocsTests {
    @Test func everyMapInTheMappingsReadmeLoads() throws {
        let path = PackagePaths.root.appendingPathComponent("Mappings/README.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let blocks = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let maps = blocks.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("format ") }
        #expect(maps.count >= 4, "the README shows format 1, format 2 and the examples")
        for map in maps {
            #expect(throws: Never.self, "\(map)") { _ = try V2ColumnMap.parse(map + "\n", path: "Mappings/README.md") }
        }
    }
}
