import Foundation
import Testing

@testable import ASNMigrateKit

/// `Sources/README.md` walks the edit of a compared field that V1 and V2 both carry, for a real field, file by file;
/// this test holds the walk true: the field's V2 key and its V1 key (as the field table's V1 column names it, in the V1
/// body's spelling and in Swift's) appear in exactly the files the walk lists. A hand-written line naming the field
/// anywhere else fails it, and so does a place the walk lists that no longer names the field.
@Suite struct FieldWalkTests {
    /// The walk's section of `Sources/README.md`.
    static let section = "## The field tables and adding a compared V2 field"

    /// The walk's example field and the files it lists (paths under `Sources/`), read from the README.
    static func walk() throws -> (field: ComparedField, files: Set<String>) {
        let readme = String(decoding: try PackagePaths.read("Sources/README.md"), as: UTF8.self)
        let start = try #require(readme.range(of: section), "Sources/README.md has no '\(section)'")
        let text = readme[start.upperBound...]
        let end = text.range(of: "\n## ")?.lowerBound ?? text.endIndex
        let body = text[..<end]
        let example = try #require(
            body.split(separator: "\n").first { $0.hasPrefix("The walk's example field is `") },
            "the walk names no example field")
        let name = example.split(separator: "`")[1]
        let field = try #require(ComparedField(rawValue: String(name)), "the walk's example \(name) is not compared")
        var files: Set<String> = []
        for line in body.split(separator: "\n") where line.first?.isNumber == true {
            for (n, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where n % 2 == 1 && part.hasSuffix(".swift") {
                files.insert(String(part))
            }
        }
        return (field, files)
    }

    /// The spellings of `field`'s keys: its V2 key, and each V1 key its table row names (snake and Swift case).
    static func spellings(_ field: ComparedField) throws -> Set<String> {
        let row = try #require(field.paths.first.flatMap(V2FieldTable.field))
        var words: Set<String> = [row.key]
        for key in row.sources.compactMap(\.key) {
            words.insert(key.name)
            words.insert("\(key)")
        }
        return words
    }

    /// The Swift files under `Sources/` (paths relative to it) naming one of `words` as a whole word. The bench's
    /// baselines (`asn-migrate-bench`) are other programs the tool is measured against, not the tool.
    static func files(naming words: Set<String>) throws -> Set<String> {
        var found: Set<String> = []
        for (relative, text) in try PackagePaths.swiftFiles(under: "Sources") {
            guard !relative.hasPrefix("asn-migrate-bench/") else { continue }
            if names(text, words) { found.insert(relative) }
        }
        return found
    }

    /// Whether `text` holds one of `words` not inside a longer identifier.
    static func names(_ text: String, _ words: Set<String>) -> Bool {
        let bytes = Array(text.utf8)
        func isWord(_ b: UInt8) -> Bool {
            b == 0x5F || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || (b >= 0x30 && b <= 0x39)
        }
        for word in words {
            let w = Array(word.utf8)
            var i = 0
            while i + w.count <= bytes.count {
                if bytes[i] == w[0], Array(bytes[i..<(i + w.count)]) == w,
                    i == 0 || !isWord(bytes[i - 1]), i + w.count == bytes.count || !isWord(bytes[i + w.count])
                {
                    return true
                }
                i += 1
            }
        }
        return false
    }

    @Test func theWalkListsExactlyTheFilesNamingItsField() throws {
        let (field, listed) = try Self.walk()
        let named = try Self.files(naming: try Self.spellings(field))
        #expect(
            named.subtracting(listed).isEmpty,
            "\(field) is named in files Sources/README.md's walk does not list: \(named.subtracting(listed).sorted())")
        #expect(
            listed.subtracting(named).isEmpty,
            "the walk lists files that do not name \(field): \(listed.subtracting(named).sorted())")
    }

    @Test func theScanFindsAWordOnlyWhole() {
        #expect(Self.names("let x = t.originalPurchaseDate", ["originalPurchaseDate"]))
        #expect(Self.names("\"original_purchase_date\"", ["original_purchase_date"]))
        #expect(!Self.names("originalPurchaseDateMs", ["originalPurchaseDate"]))
        #expect(!Self.names("x_original_purchase_date", ["original_purchase_date"]))
    }
}
