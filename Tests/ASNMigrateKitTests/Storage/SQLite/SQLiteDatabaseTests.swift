import Foundation
import Testing

@testable import ASNMigrateKit

/// The SQLite wrapper: binding and reading every value kind, transactions that roll back, errors naming the file.
@Suite struct SQLiteDatabaseTests {
    @Test func bindsStepsAndReadsEveryKind() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let db = try SQLiteDatabase(path: tmp.path + "/t.sqlite")
        try db.execute("CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n INTEGER)")
        try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)").run([
            .integer(170_000_812_345_604_999), .text("é,\"x\"\n"), .blob([0, 1, 255]), .null
        ])
        let select = try db.prepare("SELECT i, s, b, n FROM t")
        #expect(try select.step())
        #expect(select.int64(0) == 170_000_812_345_604_999, "a 64-bit ID keeps every digit")
        #expect(select.text(1) == "é,\"x\"\n")
        #expect(select.blob(2) == [0, 1, 255])
        #expect(select.optionalInt64(3) == nil && select.isNull(3))
        #expect(select.columnCount == 4)
        #expect(try !select.step())
    }

    @Test func aThrowingTransactionRollsBack() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let db = try SQLiteDatabase(path: tmp.path + "/t.sqlite")
        try db.execute("CREATE TABLE t (i INTEGER)")
        #expect(throws: ASNError.self) {
            try db.transaction { () throws(ASNError) in
                try db.execute("INSERT INTO t VALUES (1)")
                throw ASNError(.usage, "stop")
            }
        }
        try db.transaction { () throws(ASNError) in try db.execute("INSERT INTO t VALUES (2)") }
        let count = try db.prepare("SELECT group_concat(i) FROM t")
        #expect(try count.step())
        #expect(count.text(0) == "2")
    }

    @Test func errorsNameTheFileAndSQLitesMessage() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/t.sqlite"
        let db = try SQLiteDatabase(path: path)
        do {
            try db.execute("SELECT * FROM no_such_table")
            Issue.record("a bad statement must throw")
        } catch {
            #expect(error.code == .stateDatabase)
            #expect(error.message.contains(path) && error.message.contains("no such table"), "\(error.message)")
        }
        #expect(throws: ASNError.self) { try SQLiteDatabase(path: tmp.path + "/missing-folder/t.sqlite", create: true) }
    }

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
        try old.execute("DROP TABLE records; \(NightlyStore.recordsView); PRAGMA user_version = 5")
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
        #expect(try store.textId("X") == 2, "an existing text keeps its id")
        #expect(try store.textId("X\u{0}a") != store.textId("X\u{0}b"), "texts differing after a NUL are two")
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

    /// The state stores a difference as its report cells and reads it back: every column survives the round trip, so
    /// a column added to the reports without a reader here fails this test.
    @Test func aDifferenceReadsBackFromItsCellsWithEveryColumn() throws {
        var difference = Discrepancy(kind: .fieldMismatch)
        difference.eventDate = 1_614_582_000_000
        difference.v2SignedDate = 1_614_582_000_123
        difference.v1EventTimeInferred = true
        difference.webOrderLineItemId = "9300000019970001"
        difference.v1NotificationType = "DID_RENEW"
        difference.expectedType = "DID_RENEW"
        difference.expectedSubtype = "BILLING_RECOVERY"
        difference.v2NotificationType = "DID_RENEW"
        difference.v2Subtype = "BILLING_RECOVERY"
        difference.v1Value = "2021-05-01T08:00:05.000Z"
        difference.v2Value = "2021-05-02T08:00:05.000Z"
        difference.v1Source = "v1.jsonl:5"
        difference.v2NotificationUUID = "ed35168f-be04-56fd-a9e5-af3e691753ef"
        difference.environment = "Production"
        difference.originalTransactionId = "18446744073709551623"
        difference.productId = "com.example.pro"
        difference.bundleId = "com.example"
        difference.field = "expiresDate"
        difference.price = V2PriceList.Price(milliunits: 1_250, currency: "KWD")
        #expect(!difference.cells.contains(""), "every column is filled, so a column read back empty shows")
        let back = try #require(Discrepancy(cells: difference.cells))
        #expect(back.cells == difference.cells)
    }
}
