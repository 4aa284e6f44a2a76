import Foundation
import Testing

@testable import ASNMigrateKit

/// A small simulated data set loaded into a throwaway PostgreSQL server as a team would keep it (V1 bodies in
/// `jsonb` with a receive time, V2 as signed payloads), and the same rows as files named like the tables, one
/// record per line with the line number as the row's `id`, so reports from either path name the same sources.
struct PostgresDataSet {
    /// One V1 row: its body as archived and the receive time, when the archive kept one.
    struct V1Row {
        /// The V1 body (or envelope) as one line of JSON.
        var body: String
        /// `received_at` as PostgreSQL text, or nil (SQL NULL).
        var receivedAt: String?
    }

    /// V1 rows in id order (id = index + 1).
    var v1: [V1Row] = []
    /// V2 JWS values in id order.
    var v2: [String] = []

    /// The simulation's V1 and V2 lines that are valid JSON (a `jsonb` column cannot hold the others), plus one
    /// V1 row that is not a notification; every seventh V1 row gets a receive time.
    init(simulation out: String) throws {
        let parser = JSONParser()
        for line in try Self.lines(under: out + "/v1") where (try? parser.parse(line)) != nil {
            let index = v1.count
            let received =
                index % 7 == 3
                ? "2021-01-\(String(format: "%02d", 1 + index % 28)) 10:0\(index % 10):00.\(100 + index)+00" : nil
            v1.append(V1Row(body: line, receivedAt: received))
        }
        // A row that is JSON but no notification: a reject, named `asn_v1:ID`, on both paths.
        v1.insert(V1Row(body: "{\"note\":\"not a V1 notification\"}", receivedAt: nil), at: v1.count / 2)
        for line in try Self.lines(under: out + "/v2") {
            guard case .object(let object)? = try? parser.parse(line), case .string(let jws)? = object["signedPayload"]
            else { continue }
            v2.append(jws)
        }
    }

    // MARK: - Files

    /// The V1 rows as the JSON Lines file `name`: `{"received_at":MS,"body":BODY}` for a row with a receive time.
    func writeV1File(_ name: String, rows: Range<Int>? = nil, in directory: TemporaryDirectory, appending: Bool = false)
        throws
    {
        var text = ""
        for row in v1[rows ?? v1.indices] {
            if let received = row.receivedAt, let ms = Timestamp.parseDatabaseText(received) {
                text += "{\"received_at\":\(ms),\"body\":\(row.body)}\n"
            } else {
                text += row.body + "\n"
            }
        }
        try write(text, name, in: directory, appending: appending)
    }

    /// The V2 rows as the JSON Lines file `name` of raw V2 bodies.
    func writeV2File(_ name: String, rows: Range<Int>? = nil, in directory: TemporaryDirectory, appending: Bool = false)
        throws
    {
        let text = v2[rows ?? v2.indices].map { "{\"signedPayload\":\"\($0)\"}\n" }.joined()
        try write(text, name, in: directory, appending: appending)
    }

    // MARK: - Tables

    /// Creates `asn_v1 (id, received_at timestamptz, body jsonb)` and `asn_v2 (id, signed_payload text)` and loads
    /// every row, ids counting from 1, in one psql call.
    func load(on server: PostgresServer, in directory: TemporaryDirectory) throws {
        let v1CSV = v1.indices.map { Self.csvLine([String($0 + 1), v1[$0].receivedAt ?? "", v1[$0].body]) }.joined()
        let v2CSV = v2.indices.map { Self.csvLine([String($0 + 1), v2[$0]]) }.joined()
        try directory.write("v1-rows.csv", Array(v1CSV.utf8))
        try directory.write("v2-rows.csv", Array(v2CSV.utf8))
        try Self.run(
            server,
            """
            create table asn_v1 (id bigint primary key, received_at timestamptz, body jsonb not null);
            create table asn_v2 (id bigint primary key, signed_payload text not null);
            \\copy asn_v1 (id, received_at, body) from 'v1-rows.csv' with (format csv)
            \\copy asn_v2 (id, signed_payload) from 'v2-rows.csv' with (format csv)
            """, in: directory)
    }

    /// Runs `sql` through psql on `database` in `directory`, recording psql's complaint as a test failure.
    static func run(
        _ server: PostgresServer, _ sql: String, in directory: TemporaryDirectory, database: String = "postgres"
    ) throws {
        let file = "load-\(UUID().uuidString.prefix(8)).sql"
        try directory.write(file, Array(sql.utf8))
        let result = server.psql("-f \(file)", in: directory.path, database: database)
        try #require(result.status == 0, "psql: \(result.stderr)")
    }

    /// One CSV line; an empty field is written bare, so COPY reads it as NULL.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { $0.isEmpty ? "" : "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(
            separator: ",") + "\n"
    }

    // MARK: - Private

    /// The non-blank lines of every file under `folder`, in the order `reconcile` reads them.
    private static func lines(under folder: String) throws -> [String] {
        try InputPaths.expand([folder]).flatMap { file in
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: file.path)), as: UTF8.self)
                .split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
    }

    private func write(_ text: String, _ name: String, in directory: TemporaryDirectory, appending: Bool) throws {
        let path = directory.path + "/" + name
        if appending, let handle = FileHandle(forWritingAtPath: path) {
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } else {
            try directory.write(name, Array(text.utf8))
        }
    }
}
