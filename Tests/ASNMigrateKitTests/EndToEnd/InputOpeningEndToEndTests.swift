import Foundation
import Testing

@testable import ASNMigrateKit

/// Every input is opened once, and the look at its first bytes (format, swapped sides) reads
/// from the descriptor the reading then uses. A named FIFO fed by a writer process is read whole by every command
/// that takes one, and the writer is never killed by SIGPIPE.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct InputOpeningEndToEndTests {
    /// Lines enough for more than one look's worth of bytes (64 KiB), so a second opening would miss some.
    static let lineCount = 400

    /// A writer process (`sh -c 'cat SOURCE > FIFO'`) feeding `fifo` with the file at `source`.
    final class FIFOWriter: @unchecked Sendable {
        // @unchecked: `process` is set once in `init` and only read after.
        /// The writer process.
        let process = Process()

        /// Starts writing `source` into `fifo`; the writer waits until a reader opens it.
        init(source: String, fifo: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "cat \"$1\" > \"$2\"", "sh", source, fifo]
            try process.run()
        }

        /// Waits for the writer; returns whether it exited normally (not killed by SIGPIPE).
        func finish() -> Bool {
            process.waitUntilExit()
            return process.terminationReason == .exit && process.terminationStatus == 0
        }

        /// Opens and closes the FIFO for writing without blocking, releasing a reader waiting in `open`.
        static func release(_ fifo: String) {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
    }

    /// Runs `arguments` while a writer process feeds each FIFO of `feeds` (FIFO path → source file), releasing any
    /// reader left waiting once the writers are done (a binary that opens a FIFO a second time waits there for a
    /// second writer: the test then fails instead of hanging); returns the run and whether every writer exited
    /// cleanly.
    static func run(_ arguments: [String], feeds: [String: String]) throws -> (BinaryRun, Bool) {
        for fifo in feeds.keys { #expect(mkfifo(fifo, 0o600) == 0) }
        let writers = try feeds.map { try FIFOWriter(source: $0.value, fifo: $0.key) }
        let releaser = Thread {
            for writer in writers { writer.process.waitUntilExit() }
            Thread.sleep(forTimeInterval: 3)
            for fifo in feeds.keys { FIFOWriter.release(fifo) }
        }
        releaser.start()
        let run = try BinaryRun.run(arguments)
        let clean = writers.allSatisfy { $0.finish() }
        for fifo in feeds.keys { FIFOWriter.release(fifo) }
        return (run, clean)
    }

    @Test func aFIFOIsReadWholeByMigrateAndByEitherSideOfReconcile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write(
            "v1.jsonl", InputDamageEndToEndTests.goodV1Lines(Self.lineCount).joined(separator: "\n") + "\n")
        #expect(try tmp.read("v1.jsonl").count > 3 * 65_536)
        let v2 = tmp.path + "/v2.jsonl"
        let migrated = try BinaryRun.run(["migrate", v1, "--out", v2])
        #expect(migrated.status == 0, "\(migrated.stderr)")

        let (migrate, migrateClean) = try Self.run(
            ["migrate", tmp.path + "/m.fifo", "--out", tmp.path + "/m.jsonl"], feeds: [tmp.path + "/m.fifo": v1])
        #expect(migrate.status == 0 && migrateClean, "\(migrate.stderr)")
        #expect(try InputDamageEndToEndTests.counts(migrate).read == Self.lineCount)
        #expect(try tmp.read("m.jsonl").filter { $0 == 0x0A }.count == Self.lineCount)

        for side in ["--v1", "--v2"] {
            let fifo = tmp.path + "/\(side.dropFirst(2)).fifo"
            let report = tmp.path + "/report-\(side.dropFirst(2))"
            let arguments = [
                "reconcile", "--v1", side == "--v1" ? fifo : v1, "--v2", side == "--v2" ? fifo : v2, "--out", report
            ]
            let (run, clean) = try Self.run(arguments, feeds: [fifo: side == "--v1" ? v1 : v2])
            #expect(clean, "the writer of \(side) was killed: \(run.stderr)")
            #expect(run.status == 0, "\(side): \(run.stderr)")
            let metrics = try InputDamageEndToEndTests.metrics(report)
            #expect(metrics["v1_records_read"] == "\(Self.lineCount)", "\(side): \(metrics)")
            #expect(metrics["v2_records_read"] == "\(Self.lineCount)", "\(side): \(metrics)")
        }
    }

    @Test func bothSidesOfReconcileAsFIFOsAreEachOpenedOnce() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write(
            "v1.jsonl", InputDamageEndToEndTests.goodV1Lines(Self.lineCount).joined(separator: "\n") + "\n")
        let v2 = tmp.path + "/v2.jsonl"
        #expect(try BinaryRun.run(["migrate", v1, "--out", v2]).status == 0)
        let (run, clean) = try Self.run(
            [
                "reconcile", "--v1", tmp.path + "/a.fifo", "--v2", tmp.path + "/b.fifo", "--out", tmp.path + "/report"
            ], feeds: [tmp.path + "/a.fifo": v1, tmp.path + "/b.fifo": v2])
        #expect(clean && run.status == 0, "\(run.stderr)")
        let metrics = try InputDamageEndToEndTests.metrics(tmp.path + "/report")
        #expect(metrics["v1_records_read"] == "\(Self.lineCount)" && metrics["v2_records_read"] == "\(Self.lineCount)")
    }

    @Test func nightlyRefusesAFIFORootBeforeOpeningIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.write("v1.jsonl", InputDamageEndToEndTests.goodV1Lines(3).joined(separator: "\n") + "\n")
        let fifo = tmp.path + "/v1.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = try FIFOWriter(source: v1, fifo: fifo)
        let run = try BinaryRun.run([
            "nightly", "--v1", fifo, "--v2", v1, "--state", tmp.path + "/s.sqlite", "--reports", tmp.path + "/r",
            "--min-file-age", "0"
        ])
        #expect(run.status == ExitStatus.usage.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("v1 root '\(fifo)' is a FIFO"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/s.sqlite"))
        // The writer still waits for a reader: it was neither read from nor killed.
        #expect(writer.process.isRunning)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        if reader >= 0 {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while writer.process.isRunning || read(reader, &buffer, buffer.count) > 0 {
                _ = read(reader, &buffer, buffer.count)
            }
            close(reader)
        }
        #expect(writer.finish())
    }
}
