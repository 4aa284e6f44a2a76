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
}
