import Foundation
import Testing

@testable import ASNMigrateKit

/// `Reports/schema.sql` covers every nightly report and every table of the state database, column for column.
@Suite struct StateSchemaTests {
    @Test func everyNightlyReportHasItsTable() throws {
        let tables = try SchemaFile.tables()
        #expect(tables["nightly_new"] == NightlyReport.openColumns)
        #expect(tables["nightly_open"] == NightlyReport.openColumns)
        #expect(tables["nightly_resolved"] == NightlyReport.resolvedColumns)
        #expect(tables["nightly_pending"] == NightlyReport.pendingColumns)
        #expect(tables["rejected"] == RejectRow.columns, "nightly's rejected.csv is reconcile's")
        #expect(tables["summary"] == ["metric", "value"])
    }

    @Test func everyStateTableHasItsTableWithTheStatesColumns() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let store = try NightlyStore(path: tmp.path + "/state.sqlite")
        let tables = try SchemaFile.tables()
        var names: [String] = []
        try store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").forEach { s in
            names.append(s.text(0))
        }
        #expect(names.count == 18, "\(names)")
        for name in names {
            var columns: [String] = []
            try store.database.prepare("PRAGMA table_info(\(name))").forEach { s in columns.append(s.text(1)) }
            #expect(tables["state_" + name] == columns, "state_\(name)")
        }
    }

    @Test func sourcesReadmeShowsEveryTableOfTheStateAndTheStoreThatWritesIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let store = try NightlyStore(path: tmp.path + "/state.sqlite")
        var names: Set<String> = []
        try store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").forEach { s in
            names.insert(s.text(0))
        }
        let readme = String(decoding: try PackagePaths.read("Sources/README.md"), as: UTF8.self)
        guard let section = readme.range(of: "## The nightly state\n") else {
            Issue.record("Sources/README.md has no section 'The nightly state'")
            return
        }
        var documented: [String: String] = [:]
        for line in readme[section.upperBound...].split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") })
        where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells.last
        }
        #expect(
            Set(documented.keys) == names, "documented \(documented.keys.sorted()), the state has \(names.sorted())")
        // The store named first writes the table: one of its files inserts into, updates or deletes from it.
        let sources = try PackagePaths.swiftFiles(under: "Sources/ASNMigrateKit/State")
        for (table, writer) in documented.sorted(by: { $0.key < $1.key }) {
            let store = writer.split(separator: "`").first.map(String.init) ?? ""
            let code = sources.filter { $0.path.hasPrefix(store) && !store.isEmpty }.map(\.text).joined()
            let writes = ["INTO \(table) ", "UPDATE \(table) ", "DELETE FROM \(table) "].contains { code.contains($0) }
            #expect(writes, "\(table): the store Sources/README.md names, '\(store)', does not write it")
        }
    }
}
