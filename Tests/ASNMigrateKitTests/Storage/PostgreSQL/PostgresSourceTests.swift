import Foundation
import Testing

@testable import ASNMigrateKit

/// Naming a PostgreSQL source without its password, reading `--v1-query` as a table or SQL, and sorting libpq's
/// failures into exit 75 or 78; no server needed.
@Suite struct PostgresSourceTests {
    @Test(arguments: [
        ("postgres://app:s3cret@db.internal:5432/billing", "postgres://app@db.internal:5432/billing"),
        ("postgresql://app:p%40ss@/billing?host=/run/postgresql", "postgresql://app@/billing?host=/run/postgresql"),
        (
            "postgresql://app@db/x?password=hunter2&sslmode=require",
            "postgresql://app@db/x?password=***&sslmode=require"
        ),
        ("POSTGRES://u:x@h/d?PASSWORD=y", "POSTGRES://u@h/d?PASSWORD=***"),
        ("postgres://app@db/billing", "postgres://app@db/billing"),
        ("postgres:///billing?host=/tmp&port=5432", "postgres:///billing?host=/tmp&port=5432")
    ])
    func redactedURIsKeepEverythingButThePassword(uri: String, expected: String) {
        #expect(PostgresSource.redacted(uri) == expected)
    }

    /// Random passwords (every printable ASCII character that a URI's userinfo or query may carry, percent-encoded
    /// or not) never survive redaction, nor scrubbing of a message that quotes them.
    @Test func noRandomPasswordSurvivesRedactionOrScrubbing() {
        var random = SplitMix64(seed: 24)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*+,;=%")
        for _ in 0..<500 {
            let password = String((0..<(6 + random.below(20))).map { _ in random.pick(alphabet) })
            let user = random.pick(["app", "asn_reader", "u"])
            let uri =
                random.oneIn(2)
                ? "postgres://\(user):\(password)@db\(random.below(9)).internal:\(5432 + random.below(3))/billing"
                : "postgresql://\(user)@/billing?host=/tmp&password=\(password)&port=5432"
            let redacted = PostgresSource.redacted(uri)
            #expect(
                !redacted.contains(":" + password + "@") && !redacted.contains("=" + password), "\(uri) → \(redacted)")
            #expect(redacted.contains(user))
            let message = "FATAL: password \(password) rejected for \(uri)"
            #expect(
                !PostgresFailure.scrub(message, secrets: PostgresFailure.secrets(in: uri)).contains(password), "\(uri)")
        }
    }

    @Test func aTableNameIsReadInKeyOrderAndSQLAsWritten() {
        let table = PostgresSource(side: "v1", uri: "postgres:///x", query: "archive.asn_v1")
        #expect(table.isTableName && table.label == "archive.asn_v1")
        #expect(table.selectStatement == "SELECT * FROM archive.asn_v1 ORDER BY 1")
        let sql = PostgresSource(side: "v2", uri: "postgres:///x", query: "select id, body from t order by id ;\n")
        #expect(!sql.isTableName && sql.label == "v2-query")
        #expect(sql.selectStatement == "select id, body from t order by id")
        for notTable in ["asn v1", "a.b.c", "1table", "t; drop table t", ""] {
            #expect(!PostgresSource(side: "v1", uri: "", query: notTable).isTableName, "\(notTable)")
        }
        #expect(
            PostgresSource.isURI("postgresql://h/d") && PostgresSource.isURI("Postgres://h")
                && !PostgresSource.isURI("archive/postgres://x"))
    }

    @Test(arguments: [
        (
            "connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: No such file or directory", false,
            ASNError.Code.databaseUnavailable
        ),
        (
            "connection to server at \"db\" (10.0.0.5), port 5432 failed: Connection refused", false,
            .databaseUnavailable
        ),
        (
            "connection to server at \"db\", port 5432 failed: FATAL:  the database system is shutting down", false,
            .databaseUnavailable
        ),
        ("connection to server at \"db\", port 5432 failed: timeout expired", false, .databaseUnavailable),
        (
            "connection to server at \"db\", port 5432 failed: FATAL:  password authentication failed for user \"app\"",
            false, .databaseConfiguration
        ),
        (
            "connection to server at \"db\", port 5432 failed: FATAL:  database \"billing\" does not exist", false,
            .databaseConfiguration
        ),
        (
            "connection to server at \"db\", port 5432 failed: FATAL:  no pg_hba.conf entry for host \"10.0.0.9\"",
            false, .databaseConfiguration
        ),
        (
            "connection to server at \"db\", port 5432 failed: fe_sendauth: no password supplied", true,
            .databaseConfiguration
        )
    ])
    func connectionFailuresAreTemporaryOrConfiguration(message: String, needsPassword: Bool, code: ASNError.Code) {
        let error = PostgresFailure.connectionError(
            message, target: "database 'billing' on host 'db' port 5432 as user 'app'", needsPassword: needsPassword)
        #expect(error.code == code, "\(message)")
        #expect(error.message.contains("database 'billing' on host 'db' port 5432 as user 'app'"))
        #expect(ExitStatus(stoppedBy: error).rawValue == (code == .databaseUnavailable ? 75 : 78))
    }

    @Test(
        arguments: [
            ("08006", false, ASNError.Code.databaseUnavailable), ("57P01", false, .databaseUnavailable),
            ("53300", false, .databaseUnavailable),
            ("40001", false, .databaseUnavailable), (nil, false, .databaseUnavailable),
            ("42P01", true, .databaseUnavailable),
            ("42P01", false, .databaseConfiguration), ("42703", false, .databaseConfiguration),
            ("42601", false, .databaseConfiguration),
            ("3D000", false, .databaseConfiguration), ("28P01", false, .databaseConfiguration)
        ] as [(String?, Bool, ASNError.Code)])
    func queryFailuresFollowTheirSQLState(state: String?, connectionLost: Bool, code: ASNError.Code) {
        let error = PostgresFailure.queryError(
            "ERROR: something", sqlState: state, connectionLost: connectionLost, target: "db", doing: "fetching rows")
        #expect(error.code == code)
    }

    @Test func receiveTimesAndJWSBecomeTheJSONAFileWouldHold() {
        #expect(PostgresReader.receiveTime("2021-03-01 00:00:00.5+00") == Array("1614556800500".utf8))
        #expect(PostgresReader.receiveTime("2021-03-01 02:00:00+02") == Array("1614556800000".utf8))
        #expect(PostgresReader.receiveTime("1614556800000") == Array("1614556800000".utf8))
        #expect(
            PostgresReader.receiveTime("next tuesday") == Array("\"next tuesday\"".utf8),
            "kept as text, so the V1 reader rejects it naming the key")
        #expect(PostgresReader.quoted(Array("a\"b\\c\n".utf8)) == Array("\"a\\\"b\\\\c\\u000a\"".utf8))
    }

    @Test func aDatabaseSideIsOneURIWithItsQuery() throws {
        let uri = "postgresql://app:Never-Shown-1@/billing?host=/nonexistent&port=1"
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let runs = [
            ["reconcile", "--v1", uri, "--v2", "x.jsonl", "--out", tmp.path + "/r"],
            [
                "reconcile", "--v1", uri, "--v1", "a.jsonl", "--v1-query", "asn_v1", "--v2", "x.jsonl", "--out",
                tmp.path + "/r"
            ],
            ["reconcile", "--v1", "a.jsonl", "--v1-query", "asn_v1", "--v2", "x.jsonl", "--out", tmp.path + "/r"],
            [
                "nightly", "--v1", uri, "--v2", tmp.path, "--state", tmp.path + "/s/state.sqlite", "--reports",
                tmp.path + "/n"
            ],
            [
                "nightly", "--v1", tmp.path, "--v1-since-column", "received_at", "--v2", tmp.path, "--state",
                tmp.path + "/s/state.sqlite"
            ]
        ]
        for arguments in runs {
            let run = try BinaryRun.run(arguments)
            #expect(run.status == ExitStatus.usage.rawValue, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Never-Shown-1"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/s"), "no state is created by a usage error")
    }
}
