import Foundation
import Testing

@testable import ASNMigrateKit

/// The state file's safety, through the built binary: one lock per state file however it is named, a state that is
/// created whole or not at all, texts kept as bytes, an unreadable input counted as a reject, and a file that is not
/// a state (another program's database, a folder, a read-only file) refused and left as it was.
@Suite(.serialized) struct NightlyStateFileEndToEndTests {
    private func workspace() throws -> NightlyWorkspace {
        let data = try SimulatedLines(["--subscribers", "4", "--seed", "4", "--months", "1"])
        let w = try NightlyWorkspace()
        try w.arrive("v1/a.jsonl", data.v1.map(\.text))
        try w.arrive("v2/a.jsonl", data.v2.map(\.text))
        return w
    }

    /// The names in the state's folder: the state, its lock, and `-wal` / `-shm` files while a run has it open.
    private func stateFolder(_ w: NightlyWorkspace) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: w.tmp.path + "/state").sorted()
    }

    @Test func aSecondNameOfTheStateMeetsTheRunHoldingItAndExits75() throws {
        let w = try workspace()
        defer { w.remove() }
        #expect([0, 1, 3].contains(try w.run("2021-03-01").status))
        try w.tmp.makeDirectory("elsewhere")
        let hardLink = w.tmp.path + "/elsewhere/hard.sqlite"
        let symbolicLink = w.tmp.path + "/elsewhere/soft.sqlite"
        try FileManager.default.linkItem(atPath: w.state, toPath: hardLink)
        try FileManager.default.createSymbolicLink(atPath: symbolicLink, withDestinationPath: w.state)
        let holder = try #require(try NightlyKill.startPaused("ingested", w.arguments("2021-03-02")))
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        for name in [hardLink, symbolicLink] {
            let started = Date()
            let second = try BinaryRun.run(
                ["nightly", "--v1", w.v1, "--v2", w.v2, "--state", name, "--reports", w.tmp.path + "/other"]
                    + ["--run-date", "2021-03-02"] + NightlyWorkspace.timeless)
            #expect(
                second.status == 75,
                "\(name): turned away at once, not a second night on the same state: \(second.stderr)")
            #expect(second.stderr.contains("another asn-migrate run"), "\(second.stderr)")
            #expect(Date().timeIntervalSince(started) < 4, "refused by the lock, not after SQLite's busy wait")
        }
        #expect(!FileManager.default.fileExists(atPath: w.tmp.path + "/other"), "the turned-away runs wrote nothing")
    }

    @Test func anEmptyStateLeftByAStoppedFirstNightIsStartedAfreshButNotOneThatPublishedANight() throws {
        let w = try workspace()
        defer { w.remove() }
        // A first night of an older release killed right after it opened the state: a 0-byte file, no report yet.
        try w.tmp.makeDirectory("state")
        _ = try w.tmp.write("state/state.sqlite", "")
        let first = try w.run("2021-03-01")
        #expect([0, 1, 3].contains(first.status), "not blocked for ever: \(first.stderr)")
        #expect(first.stderr.contains("is empty (0 bytes) and no night was published"), "\(first.stderr)")
        #expect(try w.query("SELECT COUNT(*) FROM runs") == "1")
        #expect(try w.query("PRAGMA application_id") == String(StateFile.applicationId))
        #expect(try stateFolder(w) == [".state.sqlite.lock", "state.sqlite"], "nothing else left beside the state")

        // The same empty file once a night was published from the state: it lost what it held, so it is refused.
        _ = try w.tmp.write("state/state.sqlite", "")
        let refused = try w.run("2021-03-02")
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("is empty (0 bytes)") && refused.stderr.contains("2021-03-01"), "\(refused.stderr)")
        #expect(try w.tmp.read("state/state.sqlite").isEmpty)
    }

    @Test func aFirstNightStoppedAtAnyStepLeavesAWholeStateOrNone() throws {
        let w = try workspace()
        defer { w.remove() }
        #expect(try NightlyKill.killAt("ingested", w.arguments("2021-03-01")))
        // The state was written beside and renamed into place before the night began: a whole, stamped database
        // that the next night opens; no hidden half-made file is left.
        #expect(try w.query("PRAGMA application_id") == String(StateFile.applicationId))
        #expect(try stateFolder(w).filter { $0.contains(".new-") }.isEmpty)
        let next = try w.run("2021-03-01")
        #expect([0, 1, 3].contains(next.status), "\(next.stderr)")
    }

    @Test func textsThatDifferOnlyAfterANulAreTwoTextsAndTheNightEqualsReconcile() throws {
        let w = try NightlyWorkspace()
        defer { w.remove() }
        try w.arrive(
            "v1/a.jsonl",
            [
                #"{"notification_type":"X\u0000a","original_transaction_id":"1"}"#,
                #"{"notification_type":"X\u0000b","original_transaction_id":"1"}"#
            ])
        for date in ["2021-03-01", "2021-03-02", "2021-03-20"] {
            let night = try w.run(date)
            #expect(![2, 64].contains(night.status), "\(date): \(night.stderr)")
        }
        #expect(try w.query("SELECT typeof(text) FROM texts LIMIT 1") == "blob")
        let out = w.tmp.path + "/reconcile"
        let reconcile = try BinaryRun.run(["reconcile", "--v1", w.v1, "--v2", w.v2, "--out", out])
        #expect([0, 1, 3].contains(reconcile.status), "\(reconcile.stderr)")
        func reconcileRows(_ name: String) throws -> [[String]] {
            var reader = CSVReader(path: name)
            return try (reader.feed(try w.tmp.read("reconcile/\(name)")) + reader.finish()).map(\.fields)
        }
        let cells = Discrepancy.columns.count
        let nightly = (try w.rows("2021-03-20", "open.csv") + w.rows("2021-03-20", "pending.csv")).map {
            Array($0.prefix(cells))
        }
        let expected = (try reconcileRows("differences.csv") + reconcileRows("pending.csv"))
            .map { Array($0.prefix(cells)) }
        #expect(!expected.isEmpty, "the two records give rows: the comparison is not vacuous")
        #expect(
            nightly.sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) })
        // Two texts, each with its NUL written \u0000 in the CSV files (raw 0x00 bytes would not be text).
        #expect(nightly.contains { $0.contains("X\\u0000a") } && nightly.contains { $0.contains("X\\u0000b") })
    }

    @Test func anUnreadableInputIsOneRejectAndIsReadOnceItCanBe() throws {
        let w = try workspace()
        defer { w.remove() }
        let link = w.v1 + "/late.jsonl"
        let target = w.tmp.path + "/late-target.jsonl"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let night = try w.run("2021-03-01")
        #expect(night.status != 2, "one dangling link does not stop the night: \(night.stderr)")
        #expect(try w.summary("2021-03-01")["v1_rejected"] == "1")
        let rejected = try w.rows("2021-03-01", "rejected.csv")
        #expect(rejected.count == 1 && rejected[0].contains { $0.contains("late.jsonl") }, "\(rejected)")
        // The link's target arrives: the next night reads it as a new file.
        let line = try #require(
            String(decoding: try w.tmp.read("in/v1/a.jsonl"), as: UTF8.self).split(separator: "\n").first)
        _ = try w.tmp.write("late-target.jsonl", String(line) + "\n")
        let next = try w.run("2021-03-02")
        #expect(next.status != 2, "\(next.stderr)")
        #expect(try w.summary("2021-03-02")["v1_rejected"] == "0")
        #expect(try w.query("SELECT COUNT(*) FROM files WHERE path LIKE '%late-target.jsonl'") == "1")
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftByteForByte() throws {
        let w = try workspace()
        defer { w.remove() }
        try w.tmp.makeDirectory("state")
        for schema in ["CREATE TABLE notes (x TEXT)", "CREATE TABLE files (path TEXT); CREATE TABLE meta (k TEXT)"] {
            try? FileManager.default.removeItem(atPath: w.state)
            let foreign = try SQLiteDatabase(path: w.state)
            try foreign.execute(schema + "; INSERT INTO \(schema.contains("notes") ? "notes" : "files") VALUES ('a')")
            foreign.close()
            let before = try w.tmp.read("state/state.sqlite")
            let run = try w.run("2021-03-01")
            #expect(run.status == 2, "\(schema): \(run.stderr)")
            #expect(
                run.stderr.contains("is an SQLite database but not an asn-migrate nightly state")
                    && run.stderr.contains("left unchanged"), "\(run.stderr)")
            #expect(try w.tmp.read("state/state.sqlite") == before, "byte for byte as it was (no WAL switch)")
            #expect(try stateFolder(w) == ["state.sqlite"], "no lock, -wal or -shm beside it")
        }
        // A state of ours from before states were stamped is recognised by its tables, and stamped.
        try FileManager.default.removeItem(atPath: w.state)
        #expect([0, 1, 3].contains(try w.run("2021-03-01").status))
        let ours = try SQLiteDatabase(path: w.state)
        try ours.execute("PRAGMA application_id = 0")
        ours.close()
        let again = try w.run("2021-03-02")
        #expect([0, 1, 3].contains(again.status), "\(again.stderr)")
        #expect(try w.query("PRAGMA application_id") == String(StateFile.applicationId))
    }

    @Test func aFolderOrAReadOnlyStateIsRefusedAndLeavesNothingBehind() throws {
        let w = try workspace()
        defer { w.remove() }
        try w.tmp.makeDirectory("state/state.sqlite")
        let folder = try w.run("2021-03-01")
        #expect(folder.status == 64, "\(folder.stderr)")
        #expect(folder.stderr.contains("is a directory") && !folder.stderr.contains("0 bytes"), "\(folder.stderr)")
        #expect(try stateFolder(w) == ["state.sqlite"])
        try FileManager.default.removeItem(atPath: w.state)
        #expect([0, 1, 3].contains(try w.run("2021-03-01").status))
        // A night refused after the state was opened (its run date goes back) leaves no -wal or -shm file.
        #expect(try w.run("2021-02-01").status == 64)
        #expect(try stateFolder(w) == [".state.sqlite.lock", "state.sqlite"])
    }

    /// Whether a test can run the binary as `nobody` (through `setpriv`), so a file mode can refuse it a read or a write.
    private static let canRunAsNobody =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// Runs the built binary with `arguments` as `nobody`; its exit status and standard error.
    private func runAsNobody(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let executable = try #require(BinaryRun.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    @Test(.enabled(if: canRunAsNobody, "needs root and setpriv to run the binary as nobody"))
    func aStateThisUserCannotWriteIsRefusedAndLeavesNoWalFiles() throws {
        let w = try workspace()
        defer { w.remove() }
        #expect([0, 1, 3].contains(try w.run("2021-03-01").status))
        chmod(w.tmp.path, 0o755)
        chmod(w.tmp.path + "/state", 0o777)
        chmod(w.state, 0o444)
        chmod(w.tmp.path + "/state/.state.sqlite.lock", 0o666)
        let run = try runAsNobody(w.arguments("2021-03-02"))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("is not writable by this user"), "\(run.stderr)")
        #expect(try stateFolder(w) == [".state.sqlite.lock", "state.sqlite"], "no -wal or -shm left behind")
    }

    @Test(.enabled(if: canRunAsNobody, "needs root and setpriv to run the binary as nobody"))
    func anInputThisUserCannotReadIsOneReject() throws {
        let w = try workspace()
        defer { w.remove() }
        _ = try w.tmp.write("in/v1/secret.jsonl", "{}\n")
        for path in [w.tmp.path, w.tmp.path + "/in", w.v1, w.v2] { chmod(path, 0o777) }
        for path in [w.v1 + "/a.jsonl", w.v2 + "/a.jsonl"] { chmod(path, 0o644) }
        chmod(w.v1 + "/secret.jsonl", 0o000)
        let run = try runAsNobody(w.arguments("2021-03-01"))
        #expect(run.status != 2, "one unreadable file does not stop the night: \(run.stderr)")
        #expect(try w.summary("2021-03-01")["v1_rejected"] == "1", "\(run.stderr)")
    }
}
