import Foundation
import Testing

@testable import ASNMigrateKit

/// The README's recipe for getting V1 bodies and V2 rows out of PostgreSQL, run against a real throwaway server:
/// its output shapes read as the recipe says. Skips when the machine has no PostgreSQL server binaries.
@Suite(.serialized) struct DatabaseExportRecipeTests {
    /// Whether the server binaries are on this machine.
    static let serverBinariesPresent =
        FileManager.default.fileExists(atPath: "/usr/lib/postgresql")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/psql")

    /// `text` as a dollar-quoted SQL literal.
    private func dollarQuoted(_ text: String) -> String { "$asn$" + text + "$asn$" }

    /// The sample's V1 bodies, one per line, BOM removed, plus one holding a backslash escape.
    private func v1Bodies() throws -> [String] {
        let text = String(
            decoding: try Data(
                contentsOf: PackagePaths.root.appendingPathComponent("Tests/Fixtures/sample/v1/01-live-feed.jsonl")),
            as: UTF8.self)
        var bodies = text.split(whereSeparator: \.isNewline).map { line -> String in
            let bytes = Array(line.utf8)
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            return String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
        if let first = bodies.first, first.hasPrefix("{") {
            bodies.append("{\"offer_code_ref_name\":\"C:\\\\spring \\\"21\\\"\"," + first.dropFirst())
        }
        return bodies
    }

    /// The notificationUUIDs in `migrate` output, sorted.
    private func uuids(_ jsonl: String) throws -> [String] {
        try jsonl.split(separator: "\n").map { line -> String in
            guard case .object(let object) = try JSONParser().parse(String(line)),
                case .string(let uuid)? = object["notificationUUID"]
            else { return "" }
            return uuid
        }.sorted()
    }

    @Test(.enabled(if: serverBinariesPresent, "needs a PostgreSQL server on the machine"))
    func v1BodiesExportedWithPsqlMigrateAsTheOriginals() throws {
        let server = try #require(PostgresServer(), "the PostgreSQL server did not start")
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let bodies = try v1Bodies()
        var sql =
            "create table asn_v1 (id bigserial primary key, received_at timestamptz not null, body jsonb not null);\n"
        for (index, body) in bodies.enumerated() {
            sql +=
                "insert into asn_v1 (received_at, body) values (timestamptz '2021-03-01 00:00:00+00' + \(index) * interval '1 minute', \(dollarQuoted(body)));\n"
        }
        try tmp.write("load.sql", Array(sql.utf8))
        let load = Shell.run("psql \(server.psqlOptions) -q -v ON_ERROR_STOP=1 -f load.sql", in: tmp.path)
        #expect(load.status == 0, "\(load.stderr)")

        // The recipe, as the README gives it: one JSON object per line, with the receive time as an envelope.
        let recipe =
            "psql \(server.psqlOptions) -At -c \"select json_build_object('received_at', received_at, 'body', body) from asn_v1 order by id\" > v1.jsonl"
        #expect(Shell.run(recipe, in: tmp.path).status == 0)
        // What the README warns against: text-format COPY doubles backslashes.
        #expect(
            Shell.run(
                "psql \(server.psqlOptions) -c \"copy (select body from asn_v1 order by id) to stdout\" > copied.jsonl",
                in: tmp.path
            ).status == 0)
        try tmp.write("original.jsonl", Array(bodies.joined(separator: "\n").utf8))

        let exported = try BinaryRun.run(["migrate", tmp.path + "/v1.jsonl"])
        let original = try BinaryRun.run(["migrate", tmp.path + "/original.jsonl"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("read \(bodies.count) "), "\(exported.stderr)")
        #expect(
            try uuids(exported.stdoutText) == (try uuids(original.stdoutText)),
            "jsonb keeps every value the UUID is made of")
        #expect(exported.stdoutText.contains("\"signedDate\":1614556800000"), "received_at is the V1 event time")
        let copied = try BinaryRun.run(["migrate", tmp.path + "/copied.jsonl"])
        let copiedUUIDs = try uuids(copied.stdoutText)
        let originalUUIDs = try uuids(original.stdoutText)
        #expect(
            copied.status != 0 || copiedUUIDs != originalUUIDs,
            "COPY's text format changes a body with a backslash: the README is right to warn")
    }

    @Test(.enabled(if: serverBinariesPresent, "needs a PostgreSQL server on the machine"))
    func v2RowsExportedWithCopyCSVReconcileThroughTheExampleMap() throws {
        let server = try #require(PostgresServer(), "the PostgreSQL server did not start")
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let mapPath = PackagePaths.root.appendingPathComponent("Mappings/v2-columns.example.map").path
        let mapText = String(decoding: try Data(contentsOf: URL(fileURLWithPath: mapPath)), as: UTF8.self)
        // The table the example map documents, taken from its comment.
        let commentLines = mapText.split(separator: "\n").filter { $0.hasPrefix("#") }.map { String($0.dropFirst()) }
        guard let start = commentLines.firstIndex(where: { $0.contains("CREATE TABLE") }),
            let end = commentLines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == ");" })
        else {
            Issue.record("the example map documents its table")
            return
        }
        var sql = commentLines[start...end].joined(separator: "\n") + "\n"
        let map = try V2ColumnMap.load(path: mapPath)

        // IDs above 2^63 (the sample's 03 file) do not fit the documented table's bigint columns; Apple's do.
        let v1Files = ReconcileEndToEndTests.cleanSample.filter { !$0.contains("big-ids") }
        let migrated = try BinaryRun.run(["migrate"] + v1Files)
        #expect(migrated.status == 0)
        var uuids: Set<String> = []
        for line in migrated.stdoutText.split(separator: "\n") {
            guard case .object(let object) = try JSONParser().parse(String(line)) else { continue }
            var columns: [String] = []
            var values: [String] = []
            for entry in map.entries where !columns.contains(entry.column) {
                var current: JSONValue? = .object(object)
                for key in entry.field.path.split(separator: ".") {
                    guard case .object(let inner)? = current else {
                        current = nil
                        break
                    }
                    current = inner[String(key)]
                }
                let literal: String
                switch (entry.field.kind, current) {
                case (.date, .number(let ms)?): literal = "timestamptz 'epoch' + \(ms) * interval '1 millisecond'"
                case (_, .number(let n)?): literal = n
                case (_, .bool(let flag)?): literal = flag ? "true" : "false"
                case (.identifier, .string(let digits)?): literal = digits
                case (_, .string(let text)?): literal = dollarQuoted(text)
                default: continue
                }
                columns.append(entry.column)
                values.append(literal)
            }
            // Apple's retried delivery is one row in a table keyed by notificationUUID.
            sql +=
                "insert into app_store_notifications_v2 (\(columns.joined(separator: ", "))) values (\(values.joined(separator: ", "))) on conflict do nothing;\n"
            if case .string(let uuid)? = object["notificationUUID"] { uuids.insert(uuid) }
        }
        try tmp.write("load.sql", Array(sql.utf8))
        let load = Shell.run("psql \(server.psqlOptions) -q -v ON_ERROR_STOP=1 -f load.sql", in: tmp.path)
        #expect(load.status == 0, "\(load.stderr)")

        // The recipe: \copy … with (format csv, header).
        let recipe =
            "psql \(server.psqlOptions) -c \"\\copy (select * from app_store_notifications_v2 order by signed_at) to 'v2.csv' with (format csv, header)\""
        #expect(Shell.run(recipe, in: tmp.path).status == 0)
        let csv = String(decoding: try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/v2.csv")), as: UTF8.self)
        #expect(csv.split(separator: "\n").count == uuids.count + 1)
        #expect(csv.contains("+00,"), "psql writes timestamptz as '2021-03-01 09:15:00+00'")

        let report = tmp.path + "/report"
        let run = try BinaryRun.run(
            ["reconcile"] + v1Files.flatMap { ["--v1", $0] }
                + ["--v2", tmp.path + "/v2.csv", "--v2-columns", mapPath, "--out", report])
        #expect(run.status == 0, "\(run.stderr)")
        let differences = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: report + "/differences.csv")), as: UTF8.self)
        #expect(differences.split(separator: "\n").count == 1, "zero differences: \(differences)")
    }
}
