import Foundation
import Synchronization
import Testing

@testable import ASNMigrateKit

/// `--max-record-bytes` and `--require-checksums` belong to the run that was given them, and so do the zstd frames
/// its readers found unverified: runs in one process (the library's Swift API, or the tests) never see each other's.
@Suite struct InputReadingTests {
    /// Runs a command of the library in this process; returns the status and standard error.
    static func run(_ arguments: [String]) -> (status: ASNMigrateKit.ExitStatus, stderr: String) {
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(arguments, console: captured.console)
        return (status, captured.stderr)
    }

    @Test func aRunsRecordLimitIsNotLeftForTheNextReader() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let lines = InputDamageEndToEndTests.goodV1Lines(3)
        let path = try tmp.write("v1.jsonl", lines.joined(separator: "\n") + "\n")
        let small = Self.run(["migrate", path, "--max-record-bytes", "16", "--out", tmp.path + "/out.jsonl"])
        #expect(small.stderr.contains("record_too_large") || small.stderr.contains("--max-record-bytes"), "\(small)")
        // A reader made afterwards in the same process reads under the default limit, not the run's 16 bytes.
        let items = try RecordReader(file: InputFile(path: path)).items()
        let records = items.filter { if case .record = $0 { return true } else { return false } }
        #expect(records.count == 3, "\(items)")
    }

    @Test func aLimitGivenToOneFileDoesNotReachAnother() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.write("v1.jsonl", InputDamageEndToEndTests.goodV1Lines(2).joined(separator: "\n") + "\n")
        let limited = InputReading(InputLimits(maxRecordBytes: 16))
        let broken = try RecordReader(file: InputFile(path: path, reading: limited)).items()
        #expect(broken.allSatisfy { if case .broken(let e) = $0 { e.code == .recordTooLarge } else { false } })
        #expect(broken.count == 2)
        let whole = try RecordReader(file: InputFile(path: path)).items()
        #expect(whole.allSatisfy { if case .record = $0 { true } else { false } } && whole.count == 2)
    }

    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func unverifiedFramesAreReportedByTheRunThatReadThemOnly() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let lines = InputDamageEndToEndTests.goodV1Lines(4)
        let frame = try #require(try ArchiveFixture.zstd(Array((lines.joined(separator: "\n") + "\n").utf8)))
        #expect(frame[4] & 0x04 == 0, "the fixture's frame has no content checksum")
        let zstd = try tmp.write("v1.zst", frame)
        let plain = try tmp.write("v1.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(
            Self.run(["migrate", plain, "--out", tmp.path + "/v2.jsonl"]).status == ASNMigrateKit.ExitStatus.success)

        // Runs at once in this process: those reading the zstd file report its frame, the others report none.
        let results = Mutex<[Int: (ASNMigrateKit.ExitStatus, String, String)]>([:])
        DispatchQueue.concurrentPerform(iterations: 12) { k in
            let v1 = k % 2 == 0 ? zstd : plain
            let out = "\(tmp.path)/report-\(k)"
            let run = Self.run(["reconcile", "--v1", v1, "--v2", tmp.path + "/v2.jsonl", "--out", out])
            let summary = (try? String(contentsOfFile: out + "/summary.csv", encoding: .utf8)) ?? ""
            results.withLock { $0[k] = (run.status, run.stderr, summary) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 12)
        for (k, (status, stderr, summary)) in all.sorted(by: { $0.key < $1.key }) {
            #expect(status == .success, "run \(k): \(stderr)")
            if k % 2 == 0 {
                #expect(summary.contains("\nunverified_frames,1\n"), "run \(k): \(summary)")
                #expect(stderr.contains("holds 1 zstd frame"), "run \(k): \(stderr)")
            } else {
                #expect(!summary.contains("unverified_frames"), "run \(k): \(summary)")
                #expect(!stderr.contains("zstd frame"), "run \(k): \(stderr)")
            }
        }
    }

    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func requireChecksumsHoldsForItsRunOnly() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let lines = InputDamageEndToEndTests.goodV1Lines(2)
        let frame = try #require(try ArchiveFixture.zstd(Array((lines.joined(separator: "\n") + "\n").utf8)))
        let zstd = try tmp.write("v1.zst", frame)
        let strict = InputReading(InputLimits(requireChecksums: true))
        #expect(throws: ASNError.self) { try RecordReader(file: InputFile(path: zstd, reading: strict)).items() }
        let lenient = InputReading()
        let items = try RecordReader(file: InputFile(path: zstd, reading: lenient)).items()
        #expect(items.count == 2)
        #expect(lenient.unverifiedFrames.take().map(\.frames) == [1])
        #expect(strict.unverifiedFrames.take().isEmpty)
    }
}
