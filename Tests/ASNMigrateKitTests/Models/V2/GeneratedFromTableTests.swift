import Foundation
import Testing

@testable import ASNMigrateKit

/// The files written from `V2FieldTable`: the two shipped maps of `migrate --format csv`'s columns and
/// `Reports/schema.sql`'s `migrate_csv` table. Each is generated here from the table and compared byte for byte with
/// the file; `ASN_WRITE_GENERATED=1 swift test --filter GeneratedFromTableTests` writes them instead (after a field is
/// added to the table), leaving every line outside the generated part as it is.
@Suite struct GeneratedFromTableTests {
    /// A map's lines: each mappable migrated field, its path padded to the map's column, then its column name.
    static func mapLines(snake: Bool) -> [String] {
        V2FieldTable.migrated.filter(\.isMappable).map { field in
            pad(field.path, 46) + " | " + (snake ? field.snakeName : field.path)
        }
    }

    /// `migrate_csv`'s column lines: each migrated field's snake name and its `schemaType`.
    static func schemaLines() -> [String] {
        let fields = V2FieldTable.migrated
        return fields.enumerated().map { n, field in
            "    " + pad(field.snakeName, 51) + " " + field.schemaType + (n + 1 < fields.count ? "," : "")
        }
    }

    /// `text` padded with spaces to `width` characters (left as it is when longer).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` with the lines after the first line equal to `start` up to the first line `isEnd` accepts replaced by
    /// `lines`; nil when there is no such part.
    static func replacing(in text: String, after start: String, until isEnd: (Substring) -> Bool, with lines: [String])
        -> String?
    {
        var all = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = all.firstIndex(where: { $0 == start }) else { return nil }
        let end = all[(first + 1)...].firstIndex(where: isEnd) ?? all.endIndex
        all.replaceSubrange((first + 1)..<end, with: lines.map { Substring($0) })
        return all.joined(separator: "\n")
    }

    /// The file at `path` (relative to the package) as it should be, and as it is.
    static func check(_ path: String, generate: (String) -> String?) throws {
        let url = PackagePaths.root.appendingPathComponent(path)
        let found = String(decoding: try PackagePaths.read(path), as: UTF8.self)
        let expected = try #require(generate(found), "\(path) has no generated part to compare")
        if ProcessInfo.processInfo.environment["ASN_WRITE_GENERATED"] == "1" {
            try Data(expected.utf8).write(to: url, options: .atomic)
            return
        }
        #expect(
            found == expected,
            "\(path) differs from V2FieldTable: run ASN_WRITE_GENERATED=1 swift test --filter GeneratedFromTableTests")
    }

    @Test(arguments: [("v2-columns.migrate-csv.map", false), ("v2-columns.migrate-csv-snake.map", true)])
    func theMapsOfMigratesCSVAreTheTables(file: String, snake: Bool) throws {
        try Self.check("Mappings/" + file) { text in
            // The lines after `format 1` and its blank line are the table's.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let format = lines.firstIndex(of: "format 1"), format + 1 < lines.count else { return nil }
            lines.replaceSubrange((format + 2)..., with: Self.mapLines(snake: snake) + [""])
            return lines.joined(separator: "\n")
        }
    }

    @Test func schemaSQLsMigrateTableIsTheTables() throws {
        try Self.check("Reports/schema.sql") { text in
            Self.replacing(
                in: text, after: "CREATE TABLE migrate_csv (", until: { $0.hasPrefix(")") }, with: Self.schemaLines())
        }
    }

    @Test func aFieldAddedToTheTableChangesTheGeneratedLines() {
        // The generation reads the table: one more migrated field is one more line in each file.
        let extra = V2Field("data.transactionInfo.offerPeriod", .text, from: [.derived])
        #expect(
            Self.pad(extra.path, 46) + " | " + extra.snakeName == "data.transactionInfo.offerPeriod"
                + String(repeating: " ", count: 14) + " | data_transaction_info_offer_period")
        #expect(Self.mapLines(snake: false).count == V2FieldTable.migrated.filter(\.isMappable).count)
        #expect(Self.schemaLines().count == V2FieldTable.migrated.count)
    }
}
