import Foundation
import Testing

/// The library's folders depend on each other one way (`Sources/README.md`, "Layout"): a file uses only types declared
/// in its own layer or a layer before it. Read from the sources, so a new upward dependency fails here, naming the
/// file, the type and both folders.
@Suite struct LayerOrderTests {
    /// The layers, lowest first; folders in one layer may use each other.
    static let layers: [[String]] = [
        ["Support"], ["Storage/SQLite"], ["JSON"], ["Models"], ["Input", "Input/Archives", "Input/CSV"], ["Signatures"],
        ["Input/V1", "Input/V2"],
        ["Reconciliation/State"], ["Mapping"], ["Reconciliation/Results"], ["Facts"], ["Reconciliation/Pairing"],
        ["Reconciliation/Transactions"], ["Reports"], ["Sharding"], ["Thresholds"], ["Jobs", "Storage/PostgreSQL"],
        ["State"], ["Fetch", "Nightly"],
        ["Commands"]
    ]

    /// The library's sources.
    static let library = PackagePaths.root.appendingPathComponent("Sources/ASNMigrateKit")

    /// A file's folder as the layers name it: the first component, or the first two under `Input`, `Reconciliation`
    /// and `Storage` when there are two (`Reports/HTML` is part of `Reports`).
    static func folder(of relativePath: String) -> String {
        let parts = relativePath.split(separator: "/").map(String.init)
        if parts.count > 2, ["Input", "Reconciliation", "Storage"].contains(parts[0]) {
            return parts[0] + "/" + parts[1]
        }
        return parts[0]
    }

    /// The text of a source without comments and string literals (a type named in a message is not a dependency).
    static func code(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var kept = ""
            var inString = false
            var previous: Character = " "
            for character in line {
                if !inString && character == "/" && previous == "/" {
                    kept.removeLast()
                    break
                }
                if character == "\"" && previous != "\\" {
                    inString.toggle()
                } else if !inString {
                    kept.append(character)
                }
                previous = character
            }
            out += kept + "\n"
        }
        return out
    }

    /// One source file: its folder, path and code.
    struct Source {
        /// The folder as `folder(of:)` names it.
        let folder: String
        /// The path under `Sources/ASNMigrateKit`.
        let path: String
        /// The code, without comments and strings.
        let code: String
    }

    /// Every use of a type declared in a later layer, and every folder in no layer, as messages.
    static func violations(_ files: [Source]) throws -> [String] {
        let rank = Dictionary(
            uniqueKeysWithValues: layers.enumerated().flatMap { index, folders in folders.map { ($0, index) } })
        let declaration = try Regex(
            #"(?m)^(?:public |package |final )*(?:struct|enum|class|protocol|typealias) ([A-Z][A-Za-z0-9]*)"#)
        var declaredIn: [String: String] = [:]
        for file in files {
            for match in file.code.matches(of: declaration) {
                if let name = match.output[1].substring, declaredIn[String(name)] == nil {
                    declaredIn[String(name)] = file.folder
                }
            }
        }
        var found: [String] = []
        for file in files {
            guard let own = rank[file.folder] else {
                found.append(
                    "\(file.path): folder \(file.folder) is in no layer; add it to LayerOrderTests.layers and Sources/README.md"
                )
                continue
            }
            let words = Set(file.code.split { !$0.isLetter && !$0.isNumber }.map(String.init))
            for word in words.sorted() {
                guard let folder = declaredIn[word], folder != file.folder, let used = rank[folder], used > own else {
                    continue
                }
                found.append("\(file.path) (\(file.folder)) uses \(word) from \(folder), a later layer")
            }
        }
        return found
    }

    @Test func everyFolderUsesOnlyItsLayerAndTheLayersBeforeIt() throws {
        var files: [Source] = []
        let walker = FileManager.default.enumerator(atPath: Self.library.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: Self.library.appendingPathComponent(relative), encoding: .utf8)
            files.append(Source(folder: Self.folder(of: relative), path: relative, code: Self.code(text)))
        }
        #expect(files.count > 200, "the walk found the library's sources")
        let found = try Self.violations(files)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func anUpwardUseAndAnUnknownFolderAreCaught() throws {
        let files = [
            Source(
                folder: "Commands", path: "Commands/Tool.swift",
                code: Self.code("public enum Tool { static let x = Helper.y }")),
            Source(
                folder: "Support", path: "Support/Helper.swift",
                code: Self.code("enum Helper {\n static let y = Tool.x // fine in a comment: Tool\n}")),
            Source(folder: "Elsewhere", path: "Elsewhere/Odd.swift", code: "struct Odd {}")
        ]
        let found = try Self.violations(files)
        #expect(
            found.sorted() == [
                "Elsewhere/Odd.swift: folder Elsewhere is in no layer; add it to LayerOrderTests.layers and Sources/README.md",
                "Support/Helper.swift (Support) uses Tool from Commands, a later layer"
            ])
        #expect(Self.folder(of: "Reconciliation/Pairing/Reconciler.swift") == "Reconciliation/Pairing")
        #expect(Self.folder(of: "Reports/HTML/HTMLPage.swift") == "Reports")
        #expect(Self.folder(of: "Storage/SQLite/SQLiteDatabase.swift") == "Storage/SQLite")
        #expect(!Self.code("let a = \"ReconcileCommand\" // Nightly\nlet b = 1").contains("ReconcileCommand"))
    }
}
