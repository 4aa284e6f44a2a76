import Foundation
import Testing

@testable import ASNMigrateKit

/// A team's own V2 table, exported the way databases print it (`t`/`f` booleans, prices in dollars, `… UTC`
/// timestamps, snake_case columns, no `version` column), read through a format-2 column map with conversions: the
/// sample's V1 side reconciles against it with zero differences.
@Suite(.serialized) struct TeamExportEndToEndTests {
    /// `data.transactionInfo.purchaseDate` → `data_transactioninfo_purchasedate`: a column name no migrate output has.
    private func teamColumn(_ path: String) -> String {
        path.replacingOccurrences(of: ".", with: "_").lowercased()
    }

    /// `2021-03-01T09:15:00.000Z` → `2021-03-01 09:15:00.000 UTC`, as a database client prints a timestamp.
    private func databaseTime(_ iso: String) -> String {
        iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }

    @Test func aTableExportWithDatabaseSpellingsReconcilesWithZeroDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let migrated = tmp.path + "/migrated.csv"
        let migrate = try BinaryRun.run(
            ["migrate"] + ReconcileEndToEndTests.cleanSample + ["--format", "csv", "--out", migrated])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let (header, records) = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: migrated))), path: migrated)
        let fieldKinds = Dictionary(V2ColumnMap.fields.map { ($0.path, $0.kind) }, uniquingKeysWith: { a, _ in a })

        // The team's table: every V2 column under a snake_case name, `version` dropped, a price column in dollars.
        let kept = header.indices.filter { fieldKinds[header[$0]] != nil && header[$0] != "version" }
        var rows: [[String]] = []
        var sawBoolean = false
        var sawTime = false
        for record in records {
            var row: [String] = []
            for index in kept {
                let cell = record[index] ?? ""
                switch (header[index], fieldKinds[header[index]]) {
                case (_, _) where cell.isEmpty:
                    row.append(cell)
                case ("data.renewalInfo.autoRenewStatus", _), (_, .boolean?):
                    row.append(["1": "t", "0": "f", "true": "t", "false": "f"][cell] ?? cell)
                    sawBoolean = true
                case (_, .date?):
                    row.append(databaseTime(cell))
                    sawTime = true
                default:
                    row.append(cell)
                }
            }
            rows.append(row + ["4.99"])
        }
        #expect(sawBoolean && sawTime && rows.count > 20, "the export exercises every conversion")
        let csv = CSVWriter.render(header: kept.map { teamColumn(header[$0]) } + ["price_usd"], rows: rows)
        try Data(csv.utf8).write(to: URL(fileURLWithPath: tmp.path + "/team.csv"))

        var map =
            "format 2\n# the team's table, with conversions\nversion = 2.0\ndata.transactionInfo.price | price_usd | scale 1000\n"
        for index in kept {
            let path = header[index]
            let conversion: String
            switch fieldKinds[path] {
            case .boolean?: conversion = " | boolean"
            case .date?: conversion = " | date"
            default: conversion = path == "data.renewalInfo.autoRenewStatus" ? " | boolean" : ""
            }
            map += "\(path) | \(teamColumn(path))\(conversion)\n"
        }
        try Data(map.utf8).write(to: URL(fileURLWithPath: tmp.path + "/team.map"))

        let report = tmp.path + "/report"
        let run = try BinaryRun.run(
            ["reconcile"] + ReconcileEndToEndTests.cleanSample.flatMap { ["--v1", $0] }
                + ["--v2", tmp.path + "/team.csv", "--v2-columns", tmp.path + "/team.map", "--out", report])
        #expect(run.status == 0, "\(run.stderr)")
        let differences = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv")), as: UTF8.self)
        #expect(differences.split(separator: "\n").count == 1, "no difference rows: \(differences)")
        let rejected = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/rejected.csv")), as: UTF8.self)
        #expect(rejected.split(separator: "\n").count == 1, "no rejects: \(rejected)")

        // Without the conversions, the same export is rejected row by row, and the message says what to add.
        let plainMap = map.replacingOccurrences(of: "format 2", with: "format 2\n").replacingOccurrences(
            of: " | boolean", with: "")
        try Data(plainMap.utf8).write(to: URL(fileURLWithPath: tmp.path + "/plain.map"))
        let plain = try BinaryRun.run(
            ["reconcile"] + ReconcileEndToEndTests.cleanSample.flatMap { ["--v1", $0] }
                + [
                    "--v2", tmp.path + "/team.csv", "--v2-columns", tmp.path + "/plain.map", "--out",
                    tmp.path + "/plain"
                ])
        let plainRejects = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/plain/rejected.csv")), as: UTF8.self)
        #expect(plain.status != 0)
        #expect(plainRejects.contains("which is not a whole number; add a boolean conversion"))
        // Grouped by cause on the console and in summary.csv: one line per distinct cause, counts adding up to the rejects.
        let summary = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/plain/summary.csv"))), path: "summary.csv"
        ).records
        let causes = summary.filter { $0.fields[0] == "rejects_by_cause" }.map { $0.fields[1] }
        let v2Rejected = Int(summary.first { $0.fields[0] == "v2_rejected" }?.fields[1] ?? "") ?? -1
        #expect(v2Rejected > 1 && !causes.isEmpty && causes.count < v2Rejected, "\(causes)")
        // `…: 13,619 rejected, first at …`: the count is the word before " rejected, first at ".
        let counted = causes.compactMap { line -> Int? in
            guard let end = line.range(of: " rejected, first at ") else { return nil }
            return Int(
                line[..<end.lowerBound].split(separator: " ").last?.replacingOccurrences(of: ",", with: "") ?? "")
        }
        #expect(counted.reduce(0, +) == v2Rejected, "\(causes)")
        #expect(
            causes.first?.contains("first at \(tmp.path)/team.csv:2; add a boolean conversion") == true, "\(causes)")
        for cause in causes { #expect(plain.stderr.contains("    " + cause), "\(plain.stderr)") }
    }

    @Test func snakeCaseCSVReadsBackThroughItsMapWithZeroDifferences() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let csv = tmp.path + "/migrated.csv"
        let migrate = try BinaryRun.run(
            ["migrate"] + ReconcileEndToEndTests.cleanSample + ["--format", "csv", "--csv-names", "snake", "--out", csv]
        )
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let header =
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: csv)), as: UTF8.self).split(separator: "\n")
            .first.map(String.init) ?? ""
        #expect(header.hasPrefix("notification_type,subtype,notification_uuid,version,signed_date,data_bundle_id,"))
        #expect(header.contains(",data_transaction_info_web_order_line_item_id,"))
        let report = tmp.path + "/report"
        let run = try BinaryRun.run(
            ["reconcile"] + ReconcileEndToEndTests.cleanSample.flatMap { ["--v1", $0] }
                + ["--v2", csv, "--v2-columns", "Mappings/v2-columns.migrate-csv-snake.map", "--out", report])
        #expect(run.status == 0, "\(run.stderr)")
        let differences = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv")), as: UTF8.self)
        #expect(differences.split(separator: "\n").count == 1, "no difference rows: \(differences)")
    }

    @Test func snakeNamesAreUniqueAndNeedNoQuotingInSQL() {
        let names = MigrationOutput.csvColumns(.snake)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(
                name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
                    && name.first?.isLetter == true, "\(name)")
        }
        #expect(MigrationOutput.snakeCase("notificationUUID") == "notification_uuid")
        #expect(MigrationOutput.snakeCase("migration.v1NotificationType") == "migration_v1_notification_type")
        #expect(
            MigrationOutput.snakeCase("data.renewalInfo.isInBillingRetryPeriod")
                == "data_renewal_info_is_in_billing_retry_period")
        #expect(
            MigrationOutput.csvColumns(.dotted) == MigrationOutput.csvColumns, "the default names stay as they were")
    }

    @Test func theSnakeMapNamesEveryColumnTheDottedMapDoes() throws {
        let dotted = try V2ColumnMap.load(
            path: PackagePaths.root.appendingPathComponent("Mappings/v2-columns.migrate-csv.map").path)
        let snake = try V2ColumnMap.load(
            path: PackagePaths.root.appendingPathComponent("Mappings/v2-columns.migrate-csv-snake.map").path)
        #expect(snake.entries.map(\.field.path) == dotted.entries.map(\.field.path))
        #expect(snake.entries.map(\.column) == dotted.entries.map { MigrationOutput.snakeCase($0.column) })
    }
}
