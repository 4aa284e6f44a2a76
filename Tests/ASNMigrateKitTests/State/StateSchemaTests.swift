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
}
