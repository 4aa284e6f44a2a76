import Foundation
import Testing

/// Only the state's stores (`State/`) and the database engines (`Storage/`) reach SQL: `NightlyPass` and every other
/// step of the job call a store (`store.ledger.beginFile`, `store.facts.insert`, …), never a query, a statement or the
/// SQLite connection. Read from the sources, so a query written into a step fails here, naming the file and line.
@Suite struct OnlyStoresReachSQLTests {
    /// The folders whose files may hold SQL and use the connection.
    static let storageFolders = ["State/", "Storage/"]

    /// What a file outside those folders must not name: the connection's types, the shared connection of the stores
    /// and its statement cache, and SQL in a string literal.
    static let forbidden: [(what: String, pattern: String)] = [
        ("the SQLite connection", #"\b(SQLiteDatabase|SQLiteStatement|SQLiteValue)\b"#),
        ("the stores' shared connection", #"\b(StateDatabase|StateStore)\b|\bstore\.(state|database)\b"#),
        ("a cached statement", #"\.cached\("#),
        ("SQL", #""\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|VACUUM|WITH)\s"#)
    ]

    /// The code of a line without a `//` comment (a doc comment may name a table or a query).
    static func code(_ line: Substring) -> Substring {
        let trimmed = line.drop { $0 == " " }
        return trimmed.hasPrefix("//") ? "" : line
    }

    /// Every line of `files` that names something `forbidden`, as `path:line: what`.
    static func findings(_ files: [(path: String, text: String)]) throws -> [String] {
        // Simple word boundaries: Unicode's default keeps `store.state.scalar` one word.
        let patterns = try forbidden.map { (what: $0.what, regex: try Regex($0.pattern).wordBoundaryKind(.simple)) }
        var found: [String] = []
        for file in files where !storageFolders.contains(where: { file.path.hasPrefix($0) }) {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = Self.code(line)
                for pattern in patterns where code.contains(pattern.regex) {
                    found.append("\(file.path):\(index + 1): \(pattern.what)")
                }
            }
        }
        return found
    }

    @Test func theJobAndItsStepsReachTheStateOnlyThroughItsStores() throws {
        let files = try PackagePaths.swiftFiles(under: "Sources/ASNMigrateKit")
        let paths = Set(files.map(\.path))
        #expect(paths.contains("Nightly/NightlyPass.swift"), "the scan reads the nightly pass")
        #expect(paths.contains("State/FactsStore.swift"), "the scan sees the stores it leaves out")
        let found = try Self.findings(files)
        #expect(found.isEmpty, "only State/ and Storage/ reach SQL:\n\(found.joined(separator: "\n"))")
    }

    @Test func aQueryOrTheConnectionInAStepIsCaught() throws {
        let step = """
            /// Counts what is open (`SELECT COUNT(*) FROM differences`, in a comment: fine).
            func record(_ store: NightlyStore) throws {
                let open = try store.state.scalar("SELECT COUNT(*) FROM differences WHERE resolved IS NULL")
                let db: SQLiteDatabase = store.database
                try store.differences.insertPending([])
                _ = try store.facts.cached(" DELETE FROM pending")
            }
            """
        let store = "let sql = \"SELECT 1\"\nlet db: SQLiteDatabase"
        let found = try Self.findings([("Nightly/NightlyPass.swift", step), ("State/FactsStore.swift", store)])
        #expect(
            found == [
                "Nightly/NightlyPass.swift:3: the stores' shared connection",
                "Nightly/NightlyPass.swift:3: SQL",
                "Nightly/NightlyPass.swift:4: the SQLite connection",
                "Nightly/NightlyPass.swift:4: the stores' shared connection",
                "Nightly/NightlyPass.swift:6: a cached statement",
                "Nightly/NightlyPass.swift:6: SQL"
            ], "\(found)")
    }
}
