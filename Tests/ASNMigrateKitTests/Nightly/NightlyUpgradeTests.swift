import Foundation
import Testing

@testable import ASNMigrateKit

/// States made by an earlier release (`Tests/Fixtures/nightly-states/`), through the built binary: a file an older
/// reader rejected records of is read again; `--reread` reads a file fixed in place again; states of schemas 7 and 8
/// are converted, a kill during the conversion leaving the old state usable; a state with a damaged page is refused
/// before anything is written, naming `--state-backup`'s last good copy.
@Suite(.serialized) struct NightlyUpgradeTests {
    /// The golden state of the release before reader versions, and the files it read.
    static let golden = PackagePaths.root.appendingPathComponent("Tests/Fixtures/nightly-states/reader-v0").path
    /// Where that release's ledger says the files were.
    static let goldenRoot = "/tmp/asn-golden/in"

    /// A workspace holding the golden state and its files, the ledger's paths moved to the workspace.
    static func upgraded() throws -> NightlyWorkspace {
        let w = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        for name in ["in/v1/a.jsonl", "in/v2/a.jsonl"] {
            _ = try w.tmp.write(name, try PackagePaths.read("Tests/Fixtures/nightly-states/reader-v0/" + name))
        }
        try FileManager.default.createDirectory(
            atPath: FileSystem.parentDirectory(of: w.state), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: golden + "/state.sqlite", toPath: w.state)
        let root = try #require(FileIdentity.realPath(w.tmp.path)) + "/in"
        let db = try SQLiteDatabase(path: w.state, create: false)
        defer { db.close() }
        try db.prepare("UPDATE files SET path = ? || substr(path, ?)").run([
            .text(root), .integer(Int64(goldenRoot.utf8.count + 1))
        ])
        return w
    }

    /// The open differences of a night, without their first/last-seen columns, sorted.
    static func open(_ w: NightlyWorkspace, _ date: String) throws -> [String] {
        try NightlyGrownFileTests.differenceRows(w.reports + "/\(date)/open.csv")
    }

    // MARK: - Reader versions

    @Test func theNextNightOfAnUpgradedStateReadsAgainWhatAnOlderReaderRejectedAndEqualsAFreshState() throws {
        let w = try Self.upgraded()
        defer { w.remove() }
        #expect(try w.query("SELECT COUNT(*) FROM differences WHERE resolved IS NULL") == "9", "the golden state's")
        let night = try w.run("2021-04-03")
        #expect([0, 1].contains(night.status), "\(night.stderr)")
        #expect(
            night.stderr.contains("read again (an older release's reader (version 0) rejected records of it"),
            "the night says it: \(night.stderr)")
        #expect(!night.stderr.contains("v1/a.jsonl: read again"), "a file without rejects is not read again")
        let s = try w.summary("2021-04-03")
        #expect(s["differences_open"] == "0" && s["differences_resolved"] == "9", "\(s)")
        #expect(try w.query("SELECT MIN(reader_version) FROM files WHERE rejects > 0") == "1")

        // A fresh state over the same files, the same night.
        let fresh = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        defer { fresh.remove() }
        for name in ["in/v1/a.jsonl", "in/v2/a.jsonl"] { _ = try fresh.tmp.write(name, try w.tmp.read(name)) }
        let full = try fresh.run("2021-04-03")
        #expect([0, 1].contains(full.status), "\(full.stderr)")
        #expect(try Self.open(w, "2021-04-03") == Self.open(fresh, "2021-04-03"))
        let f = try fresh.summary("2021-04-03")
        for key in ["v1_records_in_state", "v2_records_in_state", "pending"] { #expect(s[key] == f[key], "\(key)") }
        #expect(
            try w.query("SELECT COUNT(*) FROM rejects") == fresh.query("SELECT COUNT(*) FROM rejects"),
            "the old reject replaced by the new reader's")

        // The night after reads nothing again.
        let next = try w.run("2021-04-04")
        #expect(next.status == 0 && !next.stderr.contains("read again"), "\(next.stderr)")
    }

    @Test func rereadReadsAFileFixedInPlaceAgainAndAllReadsEveryFile() throws {
        let data = try SimulatedLines(NightlyArrivalEndToEndTests.simulation)
        let w = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        defer { w.remove() }
        var v1 = data.v1.map(\.text)
        let good = v1[1]
        // A damaged line of the same length: fixed in place later, size and modification time kept.
        v1[1] = "#" + good.dropFirst()
        try w.arrive("v1/a.jsonl", v1)
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        try w.age("v1/a.jsonl", secondsAgo: 3600)
        let first = try w.run("2021-03-01")
        #expect(first.status == 1, "one reject: \(first.stderr)")
        #expect(try w.summary("2021-03-01")["v1_rejected"] == "1")
        let first1Stored = try w.query("SELECT COUNT(*) FROM facts WHERE side = 1")
        let path = w.v1 + "/a.jsonl"
        let mtime = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        v1[1] = good
        try w.arrive("v1/a.jsonl", v1)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path)

        let unnoticed = try w.run("2021-03-02")
        #expect(try w.summary("2021-03-02")["files_ingested"] == "0", "same size and time: \(unnoticed.stderr)")
        #expect(try w.query("SELECT COUNT(*) FROM rejects") == "1")

        let reread = try w.run("2021-03-03", ["--reread", path])
        #expect([0, 1].contains(reread.status), "\(reread.stderr)")
        #expect(reread.stderr.contains("a.jsonl: read again (--reread)"), "\(reread.stderr)")
        let s = try w.summary("2021-03-03")
        #expect(s["files_ingested"] == "1" && s["v1_records_read"] == String(v1.count), "\(s)")
        #expect(try w.query("SELECT COUNT(*) FROM rejects") == "0", "the reject is gone with the fix")
        let stored = try w.query("SELECT COUNT(*) FROM facts WHERE side = 1")
        #expect(stored == s["v1_records_stored"] && stored != first1Stored, "the fixed record is stored")

        let all = try w.run("2021-03-04", ["--reread", "all"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try w.summary("2021-03-04")["files_ingested"] == "2")
        #expect(try w.query("SELECT COUNT(*) FROM facts WHERE side = 1") == stored, "replaced, not doubled")

        let missing = try w.run("2021-03-05", ["--reread", w.tmp.path + "/no-such-file.jsonl"])
        #expect(missing.status == 64 && missing.stderr.contains("--reread"), "\(missing.stderr)")
        let help = try BinaryRun.run(["nightly", "--help"])
        #expect(help.stdoutText.contains("--reread PATH|all"), "documented in --help")
    }

    // MARK: - States of earlier schemas

    /// A workspace holding the sample (`Tests/Fixtures/sample`) and the golden state an earlier release wrote over it
    /// (`Tests/Fixtures/nightly-states/schema-<schema>`), the ledger's paths moved to the workspace.
    static func earlierState(schema: Int) throws -> NightlyWorkspace {
        let w = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        try copySample(into: w)
        try FileManager.default.createDirectory(
            atPath: FileSystem.parentDirectory(of: w.state), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackagePaths.root.appendingPathComponent(
                "Tests/Fixtures/nightly-states/schema-\(schema)/state.sqlite"
            ).path, toPath: w.state)
        let root = try #require(FileIdentity.realPath(w.tmp.path)) + "/in"
        let db = try SQLiteDatabase(path: w.state, create: false)
        defer { db.close() }
        #expect(try db.userVersion == schema, "the golden state is of schema \(schema)")
        let goldenRoot = "/tmp/asn-golden-schema-\(schema)/in"
        try db.prepare("UPDATE files SET path = ? || substr(path, ?)").run([
            .text(root), .integer(Int64(goldenRoot.utf8.count + 1))
        ])
        return w
    }

    /// Copies the sample's V1 and V2 files into the workspace's `in/v1` and `in/v2`.
    static func copySample(into w: NightlyWorkspace) throws {
        for side in ["v1", "v2"] {
            let folder = "Tests/Fixtures/sample/" + side
            for name in try FileManager.default.contentsOfDirectory(
                atPath: PackagePaths.root.appendingPathComponent(folder).path)
            {
                _ = try w.tmp.write("in/\(side)/\(name)", try PackagePaths.read(folder + "/" + name))
            }
        }
    }

    /// A state written by an earlier release over the sample (schema 10, the release before this one; schema 8 and 7,
    /// the ones before): a run killed (SIGKILL) inside the conversion's transaction leaves the old state file byte for
    /// byte as it was, beside the copy kept until the conversion commits; the next run converts it and its night
    /// equals a fresh state's night over the same files, its index of change points included.
    @Test(arguments: [7, 8, 10])
    func aStateOfAnEarlierSchemaSurvivesAKillDuringItsConversionAndItsNextNightEqualsAFreshState(schema: Int)
        throws
    {
        let w = try Self.earlierState(schema: schema)
        defer { w.remove() }
        if schema >= 8 {
            let json = try #require(try w.query(Self.jsonBlobs))
            #expect(json != "0", "the schema-8 state keeps its API-view tables as JSON")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: w.state))
        let copy = StateSchema.conversionCopy(of: try #require(FileIdentity.realPath(w.state)))

        #expect(try NightlyKill.killAt(NightlyRun.conversionStep, w.arguments("2022-01-11")), "killed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.state)) == before, "the old state file is untouched")
        let kept = try SQLiteDatabase(inspecting: copy, immutable: true)
        #expect(try kept.userVersion == schema, "the copy of the old state is kept until the conversion commits")
        kept.close()

        let night = try w.run("2022-01-11")
        #expect([0, 1].contains(night.status), "\(night.stderr)")
        #expect(try w.query("PRAGMA user_version") == String(StateSchema.currentVersion))
        #expect(!FileManager.default.fileExists(atPath: copy), "the copy is removed once the conversion committed")
        #expect(night.stderr.contains("judging every subscription again"), "\(night.stderr)")
        #expect(try w.query(Self.jsonBlobs) == "0", "no JSON blob remains after the conversion")

        let fresh = try NightlyWorkspace(flags: ["--max-reject-rate", "100%"])
        defer { fresh.remove() }
        try Self.copySample(into: fresh)
        let full = try fresh.run("2022-01-11")
        #expect([0, 1].contains(full.status), "\(full.stderr)")
        for name in ["open.csv", "pending.csv"] {
            let converted = try NightlyGrownFileTests.differenceRows(w.reports + "/2022-01-11/" + name)
            let expected = try NightlyGrownFileTests.differenceRows(fresh.reports + "/2022-01-11/" + name)
            #expect(
                converted == expected,
                "\(name): only converted: \(Set(converted).subtracting(expected)); only fresh: \(Set(expected).subtracting(converted))"
            )
        }
        #expect(
            try !NightlyGrownFileTests.differenceRows(fresh.reports + "/2022-01-11/open.csv").isEmpty,
            "the sample has differences to agree on")
        let s = try w.summary("2022-01-11")
        let f = try fresh.summary("2022-01-11")
        for key in [
            "v1_records_in_state", "v2_records_in_state", "differences_open", "pending", "period_start", "period_end"
        ] {
            #expect(s[key] == f[key], "\(key): \(s[key] ?? "nil") against \(f[key] ?? "nil")")
        }
        #expect(try w.query("SELECT COUNT(*) FROM rejects") == fresh.query("SELECT COUNT(*) FROM rejects"))
        // The moments a subscription's judged state can change: the stored records' points were added in the
        // conversion, so a later night with nothing new re-pairs at least what a fresh state's night would (an older
        // release's facts may give a point more, which costs a re-pairing, never a missed one).
        let points = Set(try w.query(Self.changePoints)?.split(separator: ";") ?? [])
        let freshPoints = Set(try fresh.query(Self.changePoints)?.split(separator: ";") ?? [])
        #expect(!freshPoints.isEmpty, "the sample has change points")
        #expect(
            freshPoints.isSubset(of: points),
            "change points the converted state lacks: \(freshPoints.subtracting(points).sorted().prefix(5))")

        // The night after reads nothing again and changes nothing.
        let next = try w.run("2022-01-12")
        #expect(next.status == 0 || next.status == 1, "\(next.stderr)")
        #expect(try w.summary("2022-01-12")["files_ingested"] == "0")
        #expect(
            try NightlyGrownFileTests.differenceRows(w.reports + "/2022-01-12/open.csv")
                == NightlyGrownFileTests.differenceRows(fresh.reports + "/2022-01-11/open.csv"))
    }

    /// Every change point of the state, `originalTransactionId:at_ms`, sorted, joined by `;`.
    static let changePoints =
        "SELECT group_concat(k, ';') FROM (SELECT s.original_transaction_id || ':' || c.at_ms AS k FROM change_points c JOIN subscriptions s ON s.id = c.subscription_id ORDER BY k)"

    /// How many blobs of the API-view tables are JSON (start with `{`), as states of schemas 8 to 11 kept them.
    static let jsonBlobs =
        "SELECT (SELECT COUNT(*) FROM v1_transactions WHERE substr(facts, 1, 1) = X'7B') + (SELECT COUNT(*) FROM v1_entries WHERE substr(entry, 1, 1) = X'7B') + (SELECT COUNT(*) FROM api_records WHERE substr(record, 1, 1) = X'7B')"

    // MARK: - Damaged pages

    @Test func aStateWithADamagedPageIsRefusedUntouchedNamingTheLastGoodBackup() throws {
        let w = try Self.upgraded()
        defer { w.remove() }
        // Two copies --state-backup made: the older good, the newer damaged too.
        let backups = w.tmp.path + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: w.state, toPath: backups + "/before-2021-04-01.sqlite")
        try Self.zeroRootPage(of: "source_rows", in: w.state)
        try FileManager.default.copyItem(atPath: w.state, toPath: backups + "/before-2021-04-02.sqlite")
        let stateBytes = try Data(contentsOf: URL(fileURLWithPath: w.state))
        let backupBytes = try Self.folderBytes(backups)

        let night = try w.run("2021-04-03", ["--state-backup", backups, "--retention-days", "1"])
        #expect(night.status == 2, "\(night.stderr)")
        #expect(night.stderr.contains("is damaged (PRAGMA quick_check"), "\(night.stderr)")
        #expect(
            night.stderr.contains("the last good copy --state-backup holds is '\(backups)/before-2021-04-01.sqlite'"),
            "names the good copy, not the damaged newer one: \(night.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: w.state)) == stateBytes, "the state is untouched")
        #expect(try Self.folderBytes(backups) == backupBytes, "the backups are untouched")
        #expect(!FileManager.default.fileExists(atPath: w.reports + "/2021-04-03"), "nothing published")

        // Without --state-backup, the message says there is no copy to name.
        let bare = try w.run("2021-04-03")
        #expect(bare.status == 2 && bare.stderr.contains("no --state-backup is set"), "\(bare.stderr)")
    }

    /// Zeroes the root page of `table` in the database file at `path`.
    static func zeroRootPage(of table: String, in path: String) throws {
        let db = try SQLiteDatabase(path: path, create: false)
        var root: Int64 = 0
        try db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").forEach([.text(table)]) {
            (s: SQLiteStatement) throws(ASNError) in root = s.int64(0)
        }
        let pageSize = try db.integerPragma("page_size")
        db.close()
        try #require(root > 1 && pageSize > 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(count: Int(pageSize)))
    }

    /// Every file of a folder, by name, with its bytes.
    static func folderBytes(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }
}
