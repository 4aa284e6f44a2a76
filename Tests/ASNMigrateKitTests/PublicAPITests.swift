import Foundation
import Testing

/// The library's public API is what README's "Using it from Swift" lists, and nothing else: everything another
/// target of this package needs is `package`.
@Suite struct PublicAPITests {
    /// The names of the library's `public` declarations, each with its file.
    static func publicNames() throws -> [(name: String, file: String)] {
        let library = PackagePaths.root.appendingPathComponent("Sources/ASNMigrateKit")
        let declaration = try Regex(
            #"(?m)^\s*public (?:static )?(?:let|var|func|enum|struct|class|protocol|typealias) ([A-Za-z_][A-Za-z0-9_]*)"#
        )
        var names: [(String, String)] = []
        let walker = FileManager.default.enumerator(atPath: library.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: library.appendingPathComponent(relative), encoding: .utf8)
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { names.append((String(name), relative)) }
            }
        }
        return names
    }

    /// README's "Using it from Swift" section.
    static func readmeSection() throws -> String {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "## Using it from Swift") else { return "" }
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    @Test func everyPublicDeclarationIsListedInTheReadme() throws {
        let names = try Self.publicNames()
        let section = try Self.readmeSection()
        #expect(!section.isEmpty, "README.md has a 'Using it from Swift' section")
        #expect(names.count >= 10 && names.count <= 30, "a small public API: \(names.count) public declarations")
        let words = Set(section.split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init))
        for (name, file) in names {
            #expect(
                words.contains(name),
                "\(file): public '\(name)' is not listed in README's 'Using it from Swift'; list it or make it package")
        }
    }
}
