import Foundation
import Testing

@testable import ASNMigrateKit

/// Opening the state: its schema versioned and converted, a newer one refused, older forms kept readable.
@Suite struct NightlyStoreTests {
    @Test func schemaIsVersionedAndANewerOneIsRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/state.sqlite"
        _ = try NightlyStore(path: path)
        let db = try SQLiteDatabase(path: path)
        #expect(try db.userVersion == StateSchema.currentVersion)
        // Opening again is a no-op migration.
        _ = try NightlyStore(path: path)
        try db.execute("PRAGMA user_version = \(StateSchema.currentVersion + 1)")
        do {
            _ = try NightlyStore(path: path)
            Issue.record("a newer schema must be refused")
        } catch {
            #expect(error.code == .stateDatabase)
            #expect(error.message.contains("supports up to \(StateSchema.currentVersion)"), "\(error.message)")
        }
    }

    @Test func aSchemaFiveStateKeepsItsTextsAsBytesAndItsRecordsView() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/state.sqlite"
        // A state as schema 5 left it (no application_id yet): texts as TEXT, the records view over them.
        let old = try SQLiteDatabase(path: path)
        try old.execute("PRAGMA journal_mode = WAL")
        for version in 0..<5 { try old.execute(StateSchema.migrations[version]) }
        try old.execute("DROP TABLE records; \(FactsStore.recordsView); PRAGMA user_version = 5")
        try old.execute("INSERT INTO texts (text) VALUES ('Production'), ('X')")
        try old.execute("INSERT INTO subscriptions (environment_id, original_transaction_id) VALUES (1, '7')")
        try old.execute(
            "INSERT INTO facts (file_id, subscription_id, side, inferred, facts) VALUES (1, 1, 1, 0, x'00')")
        old.close()
        let store = try NightlyStore(path: path)
        #expect(try store.database.userVersion == StateSchema.currentVersion)
        #expect(try store.database.integerPragma("application_id") == Int64(StateFile.applicationId))
        let kinds = try store.database.prepare("SELECT DISTINCT typeof(text) FROM texts")
        #expect(try kinds.step() && kinds.text(0) == "blob" && !(try kinds.step()))
        #expect(try store.state.textId("X") == 2, "an existing text keeps its id")
        #expect(
            try store.state.textId("X\u{0}a") != store.state.textId("X\u{0}b"), "texts differing after a NUL are two")
        let view = try store.database.prepare("SELECT environment, typeof(environment) FROM records")
        #expect(try view.step() && view.text(0) == "Production" && view.text(1) == "text")
    }

    @Test func aColumnAppendedToDifferencesCSVIsAddedToTheCellTables() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let db = try SQLiteDatabase(path: tmp.path + "/t.sqlite")
        try StateSchema.migrate(db)
        // A state written before the last column existed: the column is missing from every cell table.
        let last = try #require(Discrepancy.columns.last)
        for table in StateSchema.cellTables { try db.execute("ALTER TABLE \(table) DROP COLUMN \(last)") }
        try db.execute(
            "INSERT INTO pending (identity, settles_at, pending_reason, first_seen, \(Discrepancy.columns.dropLast().joined(separator: ", "))) VALUES ('i', 's', 'edge', 'f', \(Array(repeating: "'x'", count: Discrepancy.columns.count - 1).joined(separator: ", ")))"
        )
        try StateSchema.migrate(db)
        for table in StateSchema.cellTables {
            var columns: [String] = []
            try db.prepare("PRAGMA table_info(\(table))").forEach { s in columns.append(s.text(1)) }
            #expect(Discrepancy.columns.allSatisfy(columns.contains), "\(table): \(columns)")
        }
        let read = try db.prepare("SELECT \(last) FROM pending")
        #expect(try read.step())
        #expect(read.text(0) == "", "a row stored before the column existed reads back with the cell empty")
        try StateSchema.migrate(db)
    }
}
