import Foundation
import Testing

@testable import ASNMigrateKit

/// Whether this machine has PostgreSQL's server binaries; the database tests skip, saying why, only without them.
let postgresServerBinariesPresent = PostgresServer.binaries != nil

/// One throwaway server for the database suites, asking for a password, started on first use and stopped at exit.
enum SharedPostgres {
    /// The superuser's password: never to appear in a message or report.
    static let password = "pw-Secret-7391"
    /// The server, or nil when it could not start.
    static let server: PostgresServer? = {
        let server = PostgresServer(password: password)
        if server != nil { atexit { SharedPostgres.server?.stop() } }
        return server
    }()
}

/// `reconcile --v1 postgres://… --v2 postgres://…` against a real server: the reports equal the files path's byte
/// for byte, and connection trouble is exit 75 or 78 with the server named and the password never shown.
@Suite(.serialized) struct PostgresReconcileEndToEndTests {
    /// The simulated data, loaded once into `asn_v1` / `asn_v2` and written as the files `asn_v1` / `asn_v2`.
    private static let loaded: Result<(folder: TemporaryDirectory, data: PostgresDataSet), any Error> = Result {
        let folder = try TemporaryDirectory()
        let simulated = try SimulationFixture.run(subscribers: 24, seed: 24, months: 2, inject: 0.06, into: folder)
        let data = try PostgresDataSet(simulation: simulated.out)
        let server = try #require(SharedPostgres.server, "the PostgreSQL server did not start")
        try data.load(on: server, in: folder)
        try data.writeV1File("asn_v1", in: folder)
        try data.writeV2File("asn_v2", in: folder)
        return (folder, data)
    }

    /// The report files of `folder`, by name.
    private func reports(_ folder: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)), as: UTF8.self)
        }
        return files
    }

    /// `summary.csv` without its input rows (a URI there, a path here).
    private func withoutInputs(_ summary: String?) -> String {
        (summary ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("v1_input,") && !$0.hasPrefix("v2_input,") }.joined(separator: "\n")
    }

    @Test(
        .enabled(
            if: postgresServerBinariesPresent,
            "needs PostgreSQL server binaries (initdb, pg_ctl, psql) under /usr/lib/postgresql"))
    func reportsFromTablesAreByteIdenticalToTheFiles() throws {
        let (folder, data) = try Self.loaded.get()
        let server = try #require(SharedPostgres.server)
        let files = try BinaryRun.run(
            [
                "reconcile", "--v1", "asn_v1", "--v2", "asn_v2", "--out", "files-report",
                "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ], in: URL(fileURLWithPath: folder.path))
        let database = try BinaryRun.run(
            [
                "reconcile", "--v1", server.uri(), "--v1-query", "asn_v1", "--v2", server.uri(),
                "--v2-query", "select id, signed_payload from asn_v2 order by id;",
                "--out", "db-report", "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ],
            in: URL(fileURLWithPath: folder.path))
        #expect(files.status == 1, "\(files.stderr)")
        #expect(database.status == files.status, "\(database.stderr)")
        let fromFiles = try reports(folder.path + "/files-report")
        let fromDatabase = try reports(folder.path + "/db-report")
        #expect(fromFiles.keys.sorted() == fromDatabase.keys.sorted())
        // Not vacuous: the injected faults give differences and rejects on both sides.
        #expect((fromFiles["differences.csv"] ?? "").split(separator: "\n").count > 3)
        #expect((fromFiles["rejected.csv"] ?? "").contains("\nv1,asn_v1,"), "\(fromFiles["rejected.csv"] ?? "")")
        #expect(
            (fromFiles["summary.csv"] ?? "").contains("v1_records_read,\(data.v1.count)\n"),
            "\(fromFiles["summary.csv"] ?? "")")
        for (name, text) in fromFiles where name != "summary.csv" {
            #expect(fromDatabase[name] == text, "\(name) differs between the files and the database")
        }
        #expect(withoutInputs(fromDatabase["summary.csv"]) == withoutInputs(fromFiles["summary.csv"]))
        let summary = fromDatabase["summary.csv"] ?? ""
        #expect(
            summary.contains(
                "v1_input,postgresql://postgres@/postgres?host=\(server.directory)&port=\(server.port) table asn_v1\n"),
            "\(summary)")
        #expect(
            summary.contains(
                "v2_input,postgresql://postgres@/postgres?host=\(server.directory)&port=\(server.port) query v2-query\n"
            ), "\(summary)")
        for text in [summary, database.stderr] + Array(fromDatabase.values) {
            #expect(!text.contains(SharedPostgres.password))
        }
    }

    @Test(
        .enabled(
            if: postgresServerBinariesPresent,
            "needs PostgreSQL server binaries (initdb, pg_ctl, psql) under /usr/lib/postgresql"))
    func decodedColumnsThroughTheColumnMapMatchTheCSVExport() throws {
        let (folder, _) = try Self.loaded.get()
        let server = try #require(SharedPostgres.server)
        let directory = URL(fileURLWithPath: folder.path)
        // V2 as decoded columns: `migrate --format csv --csv-names snake` of the V1 rows, with an id column first.
        let migrated = try BinaryRun.run(
            ["migrate", "asn_v1", "--format", "csv", "--csv-names", "snake"], in: directory)
        let exported = try CSVReader.read(migrated.stdout, path: "migrated.csv")
        let header = exported.header
        let rows = exported.records.prefix(40)
        var csv = PostgresDataSet.csvLine(["id"] + header)
        for record in rows { csv += PostgresDataSet.csvLine([String(record.line)] + record.fields) }
        try folder.write("asn_v2_columns.csv", Array(csv.utf8))
        let columns = header.map { "\"\($0)\" text" }.joined(separator: ", ")
        try PostgresDataSet.run(
            server,
            "create table asn_v2_columns (id bigint primary key, \(columns));\n"
                + "\\copy asn_v2_columns from 'asn_v2_columns.csv' with (format csv, header)", in: folder)
        let map = PackagePaths.root.appendingPathComponent("Mappings/v2-columns.migrate-csv-snake.map").path
        let files = try BinaryRun.run(
            [
                "reconcile", "--v1", "asn_v1", "--v2", "asn_v2_columns.csv", "--v2-columns", map,
                "--out", "files-columns", "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ], in: directory)
        let database = try BinaryRun.run(
            [
                "reconcile", "--v1", server.uri(), "--v1-query", "asn_v1", "--v2", server.uri(),
                "--v2-query", "asn_v2_columns", "--v2-columns", map,
                "--out", "db-columns", "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ], in: directory)
        #expect(files.status == 1, "\(files.stderr)")
        #expect(database.status == files.status, "\(database.stderr)")
        let fromFiles = try reports(folder.path + "/files-columns")
        let fromDatabase = try reports(folder.path + "/db-columns")
        #expect(
            (fromFiles["summary.csv"] ?? "").contains("v2_records_read,\(rows.count)\n"),
            "\(fromFiles["summary.csv"] ?? "")")
        #expect((fromFiles["summary.csv"] ?? "").contains("\nmatched,3"), "\(fromFiles["summary.csv"] ?? "")")
        for (name, text) in fromFiles {
            // The CSV file's rows are `asn_v2_columns.csv:LINE`, the table's `asn_v2_columns:ID` with ID = LINE.
            let expected =
                name == "summary.csv"
                ? withoutInputs(text) : text.replacingOccurrences(of: "asn_v2_columns.csv", with: "asn_v2_columns")
            let found = name == "summary.csv" ? withoutInputs(fromDatabase[name]) : fromDatabase[name]
            #expect(found == expected, "\(name) differs between the CSV export and the table")
        }
    }

    @Test(
        .enabled(
            if: postgresServerBinariesPresent,
            "needs PostgreSQL server binaries (initdb, pg_ctl, psql) under /usr/lib/postgresql"))
    func connectionProblemsAreExit75Or78NamingTheServerNeverThePassword() throws {
        let (folder, _) = try Self.loaded.get()
        let server = try #require(SharedPostgres.server)
        let directory = URL(fileURLWithPath: folder.path)
        func reconcile(_ uri: String, query: String = "asn_v1") throws -> BinaryRun {
            try BinaryRun.run(
                ["reconcile", "--v1", uri, "--v1-query", query, "--v2", "asn_v2", "--out", "failed-report"],
                in: directory)
        }
        let wrongPassword = try reconcile(server.uri(password: "Wrong-Guess-55"))
        #expect(wrongPassword.status == ExitStatus.configuration.rawValue, "\(wrongPassword.stderr)")
        #expect(wrongPassword.stderr.contains("password authentication failed"), "\(wrongPassword.stderr)")
        #expect(
            wrongPassword.stderr.contains(
                "database 'postgres' on host '\(server.directory)' port \(server.port) as user 'postgres'"),
            "\(wrongPassword.stderr)")
        #expect(
            !wrongPassword.stderr.contains("Wrong-Guess-55") && !wrongPassword.stderr.contains(SharedPostgres.password))
        let noPassword = try reconcile(server.uri(withPassword: false))
        #expect(noPassword.status == ExitStatus.configuration.rawValue, "\(noPassword.stderr)")
        let noDatabase = try reconcile(server.uri(database: "no_such_db"))
        #expect(
            noDatabase.status == ExitStatus.configuration.rawValue && noDatabase.stderr.contains("no_such_db"),
            "\(noDatabase.stderr)")
        let noTable = try reconcile(server.uri(), query: "no_such_table")
        #expect(
            noTable.status == ExitStatus.configuration.rawValue && noTable.stderr.contains("42P01"), "\(noTable.stderr)"
        )
        let noBody = try reconcile(server.uri(), query: "select id from asn_v1")
        #expect(
            noBody.status == ExitStatus.configuration.rawValue && noBody.stderr.contains("'body'"), "\(noBody.stderr)")
        let badURI = try reconcile(server.uri() + "&no_such_option=1")
        #expect(badURI.status == ExitStatus.configuration.rawValue, "\(badURI.stderr)")
        let down = try reconcile(
            "postgresql://postgres:\(SharedPostgres.password)@/postgres?host=\(server.directory)&port=\(server.port + 1)"
        )
        #expect(down.status == ExitStatus.temporaryFailure.rawValue, "\(down.stderr)")
        #expect(down.stderr.contains("port \(server.port + 1)"), "\(down.stderr)")
        // nightly alike: nothing published, and the state keeps no run.
        let downNight = try BinaryRun.run(
            [
                "nightly", "--v1",
                server.uri(database: "postgres").replacingOccurrences(
                    of: "port=\(server.port)", with: "port=\(server.port + 1)"),
                "--v1-query", "asn_v1", "--v2", folder.path + "/asn_v2", "--state", "failed-state/state.sqlite",
                "--reports", "failed-nights", "--run-date", "2021-03-01", "--min-file-age", "0"
            ], in: directory)
        #expect(downNight.status == ExitStatus.temporaryFailure.rawValue, "\(downNight.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/failed-nights/2021-03-01"), "no nightly report")
        let wrongNight = try BinaryRun.run(
            [
                "nightly", "--v1", server.uri(password: "Wrong-Guess-55"), "--v1-query", "asn_v1",
                "--v2", folder.path + "/asn_v2", "--state", "failed-state/state.sqlite",
                "--reports", "failed-nights", "--run-date", "2021-03-01", "--min-file-age", "0"
            ], in: directory)
        #expect(wrongNight.status == ExitStatus.configuration.rawValue, "\(wrongNight.stderr)")
        #expect(!wrongNight.stderr.contains("Wrong-Guess-55") && !downNight.stderr.contains(SharedPostgres.password))
        #expect(
            try NightlyStore(path: folder.path + "/failed-state/state.sqlite").runs.latestRun() == nil,
            "no night was committed")
        let noQuery = try BinaryRun.run(
            ["reconcile", "--v1", server.uri(), "--v2", "asn_v2", "--out", "failed-report"], in: directory)
        #expect(noQuery.status == ExitStatus.usage.rawValue, "\(noQuery.stderr)")
        for run in [wrongPassword, noPassword, noDatabase, noTable, noBody, badURI, down, noQuery] {
            #expect(!run.stderr.contains(SharedPostgres.password), "\(run.stderr)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.path + "/failed-report"),
            "no report after a failed connection")
    }

    @Test(
        .enabled(
            if: postgresServerBinariesPresent,
            "needs PostgreSQL server binaries (initdb, pg_ctl, psql) under /usr/lib/postgresql"))
    func aServerKilledMidRunIsExit75AndTheLastReportStays() throws {
        let (folder, _) = try Self.loaded.get()
        let server = try #require(SharedPostgres.server)
        let directory = URL(fileURLWithPath: folder.path)
        let good = try BinaryRun.run(
            [
                "reconcile", "--v1", server.uri(), "--v1-query", "asn_v1", "--v2", "asn_v2", "--out", "kept-report",
                "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ], in: directory)
        #expect(good.status == 1, "\(good.stderr)")
        let before = try reports(folder.path + "/kept-report")
        // The query stops at row 5 until the server dies; a thread kills the server once it is waiting there.
        let slow =
            "select id, received_at, body, pg_sleep(case when id = 5 then 60 else 0 end) as pause from asn_v1 order by id"
        let killer = Thread {
            for _ in 0..<400 {
                let waiting = server.psql(
                    "-c \"select 1 / count(*)::int from pg_stat_activity where wait_event = 'PgSleep'\"",
                    in: folder.path)
                if waiting.status == 0 { break }
                usleep(25_000)
            }
            server.kill()
        }
        killer.start()
        let killed = try BinaryRun.run(
            [
                "reconcile", "--v1", server.uri(), "--v1-query", slow, "--v2", "asn_v2", "--out", "kept-report",
                "--run-date", "2024-01-01", "--max-reject-rate", "50%"
            ], in: directory)
        while !killer.isFinished { usleep(10_000) }
        #expect(server.start(), "the server restarts for the other tests")
        #expect(killed.status == ExitStatus.temporaryFailure.rawValue, "\(killed.stderr)")
        #expect(killed.stderr.contains("no report written"), "\(killed.stderr)")
        #expect(try reports(folder.path + "/kept-report") == before, "the last good report is untouched")
    }

    // MARK: - nightly

    @Test(
        .enabled(
            if: postgresServerBinariesPresent,
            "needs PostgreSQL server binaries (initdb, pg_ctl, psql) under /usr/lib/postgresql"))
    func threeNightsFromTablesEqualThreeNightsFromAppendedFiles() throws {
        let (folder, data) = try Self.loaded.get()
        let server = try #require(SharedPostgres.server)
        let directory = URL(fileURLWithPath: folder.path)
        // Arrival order: a third of each side per night; one V1 row of night 2 arrives on night 3 with an
        // inserted_at older than the mark night 2 left (inside the 3-day overlap). Row ids count arrivals, so a
        // row's id is its line in the appended files.
        let a = data.v1.count / 3
        let b = 2 * data.v1.count / 3
        let late = a + 2
        let nightsV1 = [Array(0..<a), Array(a..<b).filter { $0 != late }, [late] + Array(b..<data.v1.count)]
        let c = data.v2.count / 3
        let d = 2 * data.v2.count / 3
        let nightsV2 = [Array(0..<c), Array(c..<d), Array(d..<data.v2.count)]
        let insertedAt = ["2021-03-01 00:00:00+00", "2021-03-02 00:00:00+00", "2021-03-03 00:00:00+00"]
        try PostgresDataSet.run(server, "create database nightly", in: folder)
        try PostgresDataSet.run(
            server,
            """
            create table asn_v1 (id bigint primary key, inserted_at timestamptz not null, received_at timestamptz, body jsonb not null);
            create table asn_v2 (id bigint primary key, signed_payload text not null);
            """, in: folder, database: "nightly")
        let root = FileIdentity.realPath(folder.path) ?? folder.path
        try FileManager.default.createDirectory(atPath: root + "/in/v1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/in/v2", withIntermediateDirectories: true)
        let uri = server.uri(database: "nightly")
        let dates = ["2021-01-25", "2021-02-15", "2021-03-10"]
        var v1Id = 0
        var v2Id = 0
        var rowsSeen = 0
        for night in 0..<3 {
            var v1CSV = ""
            var v2CSV = ""
            var v1File = ""
            var v2File = ""
            for index in nightsV1[night] {
                v1Id += 1
                let row = data.v1[index]
                let stamp = index == late ? "2021-03-01 12:00:00+00" : insertedAt[night]
                v1CSV += PostgresDataSet.csvLine([String(v1Id), stamp, row.receivedAt ?? "", row.body])
                if let received = row.receivedAt, let ms = Timestamp.parseDatabaseText(received) {
                    v1File += "{\"received_at\":\(ms),\"body\":\(row.body)}\n"
                } else {
                    v1File += row.body + "\n"
                }
            }
            for index in nightsV2[night] {
                v2Id += 1
                v2CSV += PostgresDataSet.csvLine([String(v2Id), data.v2[index]])
                v2File += "{\"signedPayload\":\"\(data.v2[index])\"}\n"
            }
            try folder.write("night-v1.csv", Array(v1CSV.utf8))
            try folder.write("night-v2.csv", Array(v2CSV.utf8))
            try PostgresDataSet.run(
                server,
                "\\copy asn_v1 (id, inserted_at, received_at, body) from 'night-v1.csv' with (format csv)\n"
                    + "\\copy asn_v2 (id, signed_payload) from 'night-v2.csv' with (format csv)", in: folder,
                database: "nightly")
            for (name, text) in [("in/v1/asn_v1", v1File), ("in/v2/asn_v2", v2File)] {
                let handle = try FileHandle(
                    forWritingTo: URL(
                        fileURLWithPath: FileManager.default.fileExists(atPath: root + "/" + name)
                            ? root + "/" + name : try folder.write(name, [])))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(text.utf8))
                try handle.close()
            }
            // report.html shows the file ledger's figures too, which a database source has no counterpart for.
            let common = [
                "--run-date", dates[night], "--max-lag", "36500d", "--min-file-age", "0", "--max-reject-rate", "50%",
                "--no-html"
            ]
            let files = try BinaryRun.run(
                [
                    "nightly", "--v1", root + "/in/v1", "--v2", root + "/in/v2", "--state", "files-state/state.sqlite",
                    "--reports", "files-nights"
                ] + common, in: directory)
            // The last night runs twice from the database: a re-run reads nothing new and publishes the same reports.
            for _ in 0..<(night == 2 ? 2 : 1) {
                let database = try BinaryRun.run(
                    [
                        "nightly", "--v1", uri, "--v1-query", "asn_v1", "--v1-since-column", "inserted_at",
                        "--v2", uri, "--v2-query", "asn_v2", "--v2-since-column", "id",
                        "--state", "db-state/state.sqlite", "--reports", "db-nights"
                    ] + common, in: directory)
                #expect(database.status == files.status, "night \(night + 1): \(files.stderr)\n\(database.stderr)")
                #expect(!database.stderr.contains(SharedPostgres.password))
                let fromFiles = try reports(folder.path + "/files-nights/" + dates[night])
                let fromDatabase = try reports(folder.path + "/db-nights/" + dates[night])
                #expect(fromFiles.keys.sorted() == fromDatabase.keys.sorted() && !fromFiles.isEmpty)
                for (name, text) in fromFiles {
                    var expected = text.replacingOccurrences(of: root + "/in/v1/", with: "").replacingOccurrences(
                        of: root + "/in/v2/", with: "")
                    var found = fromDatabase[name] ?? ""
                    if name == "summary.csv" {
                        // The file ledger's own figures (files appended, …) have no database counterpart.
                        let keep = { (text: String) in
                            text.split(separator: "\n").filter { !$0.hasPrefix("files_") }.joined(separator: "\n")
                        }
                        expected = keep(expected)
                        found = keep(found)
                    }
                    #expect(found == expected, "night \(night + 1), \(name) differs between appended files and tables")
                }
                rowsSeen += fromFiles.filter { $0.key != "summary.csv" }.values.map {
                    $0.split(separator: "\n").count - 1
                }.reduce(0, +)
            }
        }
        #expect(rowsSeen > 5, "the nights have differences or pending items to compare")
    }
}
