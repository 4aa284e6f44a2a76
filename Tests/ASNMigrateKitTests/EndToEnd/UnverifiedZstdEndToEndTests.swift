import Foundation
import Testing

@testable import ASNMigrateKit

/// Zstd frames written without a content checksum (as `ZSTD_compress` writes them) cannot be
/// checked, so damage in them would pass. They are counted (`unverified_frames` in `summary.csv`) and warned about
/// once per file; `--require-checksums` makes such a file one reject.
@Suite(
    .enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"),
    .enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
struct UnverifiedZstdEndToEndTests {
    /// Whether the `zstd` tool is installed (it writes checksummed frames by default).
    static let zstdTool: String? = ["/usr/bin/zstd", "/usr/local/bin/zstd"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Writes `v1.zst` (two frames without a checksum) and `v2.jsonl` (what migrate makes of the same records).
    static func inputs(_ tmp: TemporaryDirectory) throws -> (v1: String, v2: String) {
        let lines = InputDamageEndToEndTests.goodV1Lines(4)
        let first = try #require(try ArchiveFixture.zstd(Array((lines[0..<2].joined(separator: "\n") + "\n").utf8)))
        let second = try #require(try ArchiveFixture.zstd(Array((lines[2..<4].joined(separator: "\n") + "\n").utf8)))
        // Frame_Header_Descriptor, the byte after the magic number: bit 2 is Content_Checksum_flag.
        #expect(first[4] & 0x04 == 0 && second[4] & 0x04 == 0)
        let v1 = try tmp.write("v1.zst", first + second)
        let plain = try tmp.write("plain.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(try BinaryRun.run(["migrate", plain, "--out", tmp.path + "/v2.jsonl"]).status == 0)
        return (v1, tmp.path + "/v2.jsonl")
    }

    @Test func framesWithoutAChecksumAreCountedAndWarnedOncePerFile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.inputs(tmp)
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/report"])
        #expect(run.status == 0, "\(run.stderr)")
        let metrics = try InputDamageEndToEndTests.metrics(tmp.path + "/report")
        #expect(metrics["unverified_frames"] == "2", "\(metrics)")
        #expect(metrics["v1_records_read"] == "4")
        #expect(run.stderr.components(separatedBy: "zstd frames written without a content checksum").count == 2)
        #expect(run.stderr.contains("'\(v1)' holds 2 zstd frames"), "\(run.stderr)")

        let migrate = try BinaryRun.run(["migrate", v1, "--out", tmp.path + "/out.jsonl"])
        #expect(migrate.status == 0)
        #expect(migrate.stderr.contains("'\(v1)' holds 2 zstd frames"), "\(migrate.stderr)")

        let partition = try BinaryRun.run([
            "partition", "--v1", v1, "--v2", v2, "--shards", "2", "--out", tmp.path + "/parts"
        ])
        #expect(partition.status == 0, "\(partition.stderr)")
        #expect(partition.stderr.contains("'\(v1)' holds 2 zstd frames"), "\(partition.stderr)")

        // nightly warns on the night it reads the file, and not again on the nights it skips it.
        let night = [
            "nightly", "--v1", v1, "--v2", v2, "--state", tmp.path + "/state.sqlite", "--reports", tmp.path + "/nights",
            "--min-file-age", "0", "--max-lag", "36500d", "--metrics-file", tmp.path + "/nightly.prom", "--run-date"
        ]
        let gauge = "asn_migrate_nightly_run_unverified_zstd_frames "
        let first = try BinaryRun.run(night + ["2024-01-01"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.components(separatedBy: "zstd frames written without a content checksum").count == 2)
        #expect(try InputDamageEndToEndTests.metrics(tmp.path + "/nights/2024-01-01")["unverified_frames"] == "2")
        #expect(try String(contentsOfFile: tmp.path + "/nightly.prom", encoding: .utf8).contains(gauge + "2\n"))
        let next = try BinaryRun.run(night + ["2024-01-02"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!next.stderr.contains("without a content checksum"), "\(next.stderr)")
        #expect(try InputDamageEndToEndTests.metrics(tmp.path + "/nights/2024-01-02")["unverified_frames"] == "0")
        #expect(try String(contentsOfFile: tmp.path + "/nightly.prom", encoding: .utf8).contains(gauge + "0\n"))
    }

    @Test func requireChecksumsMakesSuchAFileOneReject() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (v1, v2) = try Self.inputs(tmp)
        let run = try BinaryRun.run([
            "reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/report", "--require-checksums"
        ])
        let metrics = try InputDamageEndToEndTests.metrics(tmp.path + "/report")
        #expect(metrics["v1_rejected"] == "1" && metrics["v1_records_read"] == "1", "\(metrics) \(run.stderr)")
        #expect(metrics["unverified_frames"] == nil)
        let rejected = String(decoding: try tmp.read("report/rejected.csv"), as: UTF8.self)
        #expect(rejected.contains("has no content checksum, and --require-checksums is given"), "\(rejected)")
    }

    @Test(.enabled(if: zstdTool != nil, "needs the zstd tool to write checksummed frames"))
    func checksummedFramesPassWithoutAWord() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let plain = try tmp.write(
            "v1.jsonl", InputDamageEndToEndTests.goodV1Lines(3).joined(separator: "\n") + "\n")
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: try #require(Self.zstdTool))
        tool.arguments = ["-q", plain, "-o", tmp.path + "/v1.zst"]
        try tool.run()
        tool.waitUntilExit()
        #expect(try tmp.read("v1.zst")[4] & 0x04 != 0)
        let run = try BinaryRun.run([
            "migrate", tmp.path + "/v1.zst", "--out", tmp.path + "/out.jsonl", "--require-checksums"
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("checksum"), "\(run.stderr)")
        #expect(try InputDamageEndToEndTests.counts(run).migrated == 3)
    }
}
