import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly` with Apple's App Store Server API view on its V2 side (`Reports/apple-view.md`): a state written before
/// the view was kept is upgraded and reads its V1 files again for their transaction facts; notifications and API
/// answers on one V2 side get both comparisons, as `reconcile` gives; a sharded night rejects API answers, saying why.
/// (`NightlyArrivalPropertyTests` proves the last night equals `reconcile` under random arrival.)
@Suite struct NightlyAPIViewTests {
    /// A simulation (V1 archive, V2 notifications, Apple's view) under `tmp/sim`, and a workspace `tmp/w` whose
    /// `in/v1` holds its V1 archive and whose `in/v2` is empty.
    static func workspace(_ tmp: TemporaryDirectory) throws -> (sim: String, work: String) {
        let sim = tmp.path + "/sim"
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(
            ["simulate", "--subscribers", "6", "--seed", "52", "--months", "3", "--inject", "0.3", "--out", sim],
            console: captured.console, commands: ToolCommands.all)
        #expect(status == .success, "\(captured.stderr)")
        let work = tmp.path + "/w"
        try copy(sim + "/v1", to: work + "/in/v1")
        try FileManager.default.createDirectory(atPath: work + "/in/v2", withIntermediateDirectories: true)
        return (sim, work)
    }

    /// Copies every file of `from` into `to`, named `prefix` + its name.
    private static func copy(_ from: String, to: String, prefix: String = "") throws {
        try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: from) {
            try FileManager.default.copyItem(atPath: from + "/" + name, toPath: to + "/" + prefix + name)
        }
    }

    /// Runs `arguments` in process; returns the status and standard error.
    private static func run(_ arguments: [String]) -> (status: ASNMigrateKit.ExitStatus, stderr: String) {
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(arguments, console: captured.console)
        return (status, captured.stderr)
    }

    /// A report's rows cut to `differences.csv`'s judged columns (nightly keeps no price), sorted.
    private static func rows(_ path: String) throws -> [[String]] {
        var reader = CSVReader(path: path)
        let records = try reader.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) + reader.finish()
        return records.map { Array($0.fields.prefix(DifferenceRow.pricedColumns)) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    /// `nightly` over `work/in` for `date`.
    private static func nightly(_ work: String, _ date: String, _ extra: [String] = []) -> [String] {
        [
            "nightly", "--v1", work + "/in/v1", "--v2", work + "/in/v2", "--state", work + "/state.sqlite",
            "--reports", work + "/Reports", "--run-date", date
        ] + NightlyWorkspace.timeless + extra
    }

    /// The rows of `table` in the state of `work`.
    private static func count(_ table: String, in work: String) throws -> Int64 {
        let database = try SQLiteDatabase(path: work + "/state.sqlite")
        defer { database.close() }
        var rows: Int64 = -1
        try database.prepare("SELECT COUNT(*) FROM \(table)").forEach { rows = $0.int64(0) }
        return rows
    }

    /// `reconcile` over `work/in` at `date` into `work/reconcile`; its differences and pending rows.
    private static func reconcile(_ work: String, _ date: String) throws -> (
        differences: [[String]], pending: [[String]]
    ) {
        _ = run([
            "reconcile", "--v1", work + "/in/v1", "--v2", work + "/in/v2", "--out", work + "/reconcile", "--run-date",
            date
        ])
        return (try rows(work + "/reconcile/differences.csv"), try rows(work + "/reconcile/pending.csv"))
    }

    @Test func aSchemaSevenStateIsUpgradedAndReadsItsV1FilesAgainForTheirTransactionFacts() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, work) = try Self.workspace(tmp)
        let first = Self.run(Self.nightly(work, "2021-04-03"))
        #expect([.success, .findings, .sanityCheckFailed].contains(first.status), "\(first.stderr)")
        // The state as schema 7 left it: no V1 transaction facts, no API tables, none of their meta values.
        let old = try SQLiteDatabase(path: work + "/state.sqlite")
        try old.execute(
            "DROP TABLE v1_transactions; DROP TABLE v1_entries; DROP TABLE api_records; DROP TABLE change_points; DELETE FROM meta WHERE key IN ('view_mode', 'api_view', 'api_rules_digest', 'api_v1_min', 'api_v1_max', 'api_v2_min', 'api_v2_max', 'v1_transactions_missing'); ALTER TABLE files DROP COLUMN shape; ALTER TABLE files DROP COLUMN reader_version; PRAGMA user_version = 7"
        )
        old.close()

        // Apple's view arrives: the upgraded state reads its V1 files again and the night equals reconcile.
        try Self.copy(sim + "/v2-api", to: work + "/in/v2")
        let second = Self.run(Self.nightly(work, "2022-05-01"))
        #expect([.success, .findings, .sanityCheckFailed].contains(second.status), "\(second.stderr)")
        #expect(second.stderr.contains("reading the V1 files still under the roots again"), "\(second.stderr)")
        let upgraded = try SQLiteDatabase(path: work + "/state.sqlite")
        #expect(try upgraded.userVersion == StateSchema.currentVersion)
        upgraded.close()
        let expected = try Self.reconcile(work, "2022-05-01")
        #expect(!expected.differences.isEmpty, "the data has differences to agree on")
        #expect(try Self.rows(work + "/Reports/2022-05-01/open.csv") == expected.differences)
        #expect(try Self.rows(work + "/Reports/2022-05-01/pending.csv") == expected.pending)

        // A night with nothing new re-pairs nothing: no span moved, nothing is pending.
        let quiet = Self.run(Self.nightly(work, "2022-05-02"))
        #expect(quiet.stderr.contains("0 file(s) read, 0 subscription(s) re-paired"), "\(quiet.stderr)")
        #expect(try Self.rows(work + "/Reports/2022-05-02/open.csv") == expected.differences)
    }

    @Test func notificationsAndAPIAnswersOnOneV2SideGetBothComparisonsAsReconcileGives() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, work) = try Self.workspace(tmp)
        // Notifications first, Apple's view a night later: the night it arrives, every subscription is compared
        // both ways (reconcile's `notifications_compared` and `transactions_compared`).
        try Self.copy(sim + "/v2", to: work + "/in/v2")
        #expect(Self.run(Self.nightly(work, "2022-04-30")).status != .failure)
        // A state of notifications alone keeps no receipt facts: only Apple's view reads them.
        #expect(try Self.count("v1_transactions", in: work) == 0)
        try Self.copy(sim + "/v2-api", to: work + "/in/v2", prefix: "api-")
        let night = Self.run(Self.nightly(work, "2022-05-01"))
        #expect([.success, .findings].contains(night.status), "\(night.stderr)")
        #expect(night.stderr.contains("for their receipt facts"), "\(night.stderr)")
        #expect(try Self.count("v1_transactions", in: work) > 0)
        let expected = try Self.reconcile(work, "2022-05-01")
        let open = try Self.rows(work + "/Reports/2022-05-01/open.csv")
        #expect(open == expected.differences)
        #expect(try Self.rows(work + "/Reports/2022-05-01/pending.csv") == expected.pending)
        #expect(!open.isEmpty, "the data has differences to agree on")
        let summary = try String(contentsOfFile: work + "/reconcile/summary.csv", encoding: .utf8)
        #expect(summary.contains("notifications_compared,yes\n") && summary.contains("transactions_compared,yes\n"))
    }

    @Test func aCopyOfAV1RecordArrivingLaterInAnEarlierFileNamesTheSourceReconcileNames() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, work) = try Self.workspace(tmp)
        // Night 1: the archive as one late-sorting file, and Apple's view. Night 2: copies of most of its records in a
        // file sorting first, which reconcile reads first and names as the transactions' source.
        var lines: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: work + "/in/v1").sorted() {
            lines += try String(contentsOfFile: work + "/in/v1/" + name, encoding: .utf8).split(separator: "\n").map(
                String.init)
            try FileManager.default.removeItem(atPath: work + "/in/v1/" + name)
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: work + "/in/v1/z.jsonl", atomically: true, encoding: .utf8)
        try Self.copy(sim + "/v2-api", to: work + "/in/v2")
        _ = Self.run(Self.nightly(work, "2022-04-30"))
        try (lines.dropLast().joined(separator: "\n") + "\n").write(
            toFile: work + "/in/v1/a.jsonl", atomically: true, encoding: .utf8)
        _ = Self.run(Self.nightly(work, "2022-05-01"))
        let expected = try Self.reconcile(work, "2022-05-01")
        #expect(expected.differences.contains { $0[13].contains("/a.jsonl:") }, "reconcile names the earlier file")
        #expect(try Self.rows(work + "/Reports/2022-05-01/open.csv") == expected.differences)
    }

    /// `fetch --update` rewrites its parts whenever anything is fetched: a night re-reading rewritten files of Apple's
    /// answers re-pairs only the subscriptions whose answers changed, notes the rewrite (no warning), and still equals
    /// one `reconcile`, whose `not_fetched` (no Sandbox history was fetched) its `summary.csv` gives too.
    @Test func aRewrittenFileOfAnswersRePairsOnlyTheSubscriptionsWhoseAnswersChanged() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, work) = try Self.workspace(tmp)
        try Self.copy(sim + "/v2-api", to: work + "/in/v2")
        try FileManager.default.removeItem(atPath: work + "/in/v2/history-Sandbox.jsonl")
        #expect(Self.run(Self.nightly(work, "2022-05-01")).status != .failure)
        // The history rewritten with the same answers in another order; one subscription's status changed.
        let history = work + "/in/v2/history-Production.jsonl"
        let pages = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        #expect(pages.count > 1, "a reordered history differs in bytes")
        try (pages.reversed().joined(separator: "\n") + "\n").write(toFile: history, atomically: true, encoding: .utf8)
        let statuses = work + "/in/v2/statuses-Production.jsonl"
        let text = try String(contentsOfFile: statuses, encoding: .utf8)
        let first = try #require(text.range(of: "\"status\":1,"))
        try text.replacingCharacters(in: first, with: "\"status\":2,").write(
            toFile: statuses, atomically: true, encoding: .utf8)

        let night = Self.run(Self.nightly(work, "2022-05-02"))
        #expect([.success, .findings].contains(night.status), "\(night.stderr)")
        #expect(night.stderr.contains("2 file(s) read, 1 subscription(s) re-paired"), "\(night.stderr)")
        #expect(night.stderr.contains("history-Production.jsonl (Apple's API view) was rewritten"), "\(night.stderr)")
        #expect(night.stderr.contains("0 subscription(s) with changed answers"), "\(night.stderr)")
        #expect(!night.stderr.contains("warning:"), "\(night.stderr)")
        let expected = try Self.reconcile(work, "2022-05-02")
        #expect(!expected.differences.isEmpty, "the data has differences to agree on")
        #expect(try Self.rows(work + "/Reports/2022-05-02/open.csv") == expected.differences)
        #expect(try Self.rows(work + "/Reports/2022-05-02/pending.csv") == expected.pending)
        let notFetched = { (path: String) throws -> String? in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("not_fetched,") }.map(String.init)
        }
        let reconciled = try notFetched(work + "/reconcile/summary.csv")
        #expect(reconciled != nil && reconciled != "not_fetched,0", "some V1 transactions are not fetched")
        #expect(try notFetched(work + "/Reports/2022-05-02/summary.csv") == reconciled)
    }

    @Test func aShardedNightRejectsAPIAnswersSayingWhy() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (sim, work) = try Self.workspace(tmp)
        try Self.copy(sim + "/v2-api", to: work + "/in/v2")
        _ = Self.run(
            Self.nightly(work, "2022-05-01", ["--shard", "0/2"]).map {
                $0 == work + "/state.sqlite" ? work + "/s-{shard}.sqlite" : $0
            })
        let rejected = try String(
            contentsOfFile: work + "/Reports/2022-05-01.shard-0-of-2/rejected.csv", encoding: .utf8)
        #expect(rejected.contains("not split by --shard"), "\(rejected)")
    }
}
