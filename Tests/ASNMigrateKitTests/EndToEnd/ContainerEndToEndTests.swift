import Foundation
import Testing

@testable import ASNMigrateKit

/// Runs the built binary on archives and compressions made in each test (no `tar`, `zip` or `zstd` tool needed):
/// they are told by their magic bytes, their records give the reports plain files give, a damaged member costs one
/// reject and no record, and a binary format that is not read is one reject naming it, never `malformed_json` per line.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct ContainerEndToEndTests {
    /// Every report file of a `reconcile` folder, with `replacements` applied to its text.
    static func reports(_ directory: String, _ replacements: [(String, String)]) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var text = String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)), as: UTF8.self)
            for (from, to) in replacements { text = text.replacingOccurrences(of: from, with: to) }
            files[name] = text
        }
        return files
    }

    /// The files directly in `directory`, sorted, as archive members named by their file names.
    static func members(_ directory: String) throws -> [ArchiveFixture.Member] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map {
            ArchiveFixture.Member(
                path: $0, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))))
        }
    }

    /// Property: a simulated archive, packed at random (seeded) into tar, tar.gz, zip (stored, deflate, data
    /// descriptors), zstd or tar.zst per side and file group, gives the reports of the same files read plain,
    /// byte for byte once the sources' path prefixes are rewritten (`sim/v1/2021-01.jsonl` → `v1.tar:2021-01.jsonl`).
    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"), arguments: [7 as UInt64, 8])
    func containersGiveTheReportsOfPlainFiles(seed: UInt64) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let sim = tmp.path + "/sim"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "40", "--seed", String(seed), "--months", "3", "--inject", "0.05", "--out", sim
        ])
        try #require(simulate.status == 0, "\(simulate.stderr)")
        let plain = try BinaryRun.run([
            "reconcile", "--v1", sim + "/v1", "--v2", sim + "/v2", "--out", tmp.path + "/plain", "--run-date",
            "2026-01-01"
        ])
        #expect(plain.status == 0 || plain.status == 1, "\(plain.stderr)")

        var random = SplitMix64(seed: seed)
        var replacements: [(String, String)] = []
        var roots: [String: [String]] = ["v1": [], "v2": []]
        for side in ["v1", "v2"] {
            let members = try Self.members(sim + "/" + side)
            // Two groups per side, each in a container kind of its own, read in name order like the plain folder.
            let cut = 1 + random.below(members.count - 1)
            for (group, part) in [members[..<cut], members[cut...]].enumerated() {
                let kind = random.below(5)
                let name = "\(side)-\(group).\(["tar", "tar.gz", "zip", "zst", "tar.zst"][kind])"
                let path = tmp.path + "/packed-\(side)/" + name
                let tar = ArchiveFixture.tar(Array(part), longNames: random.oneIn(2) ? .gnu : .pax)
                switch kind {
                case 0: try tmp.write("packed-\(side)/" + name, tar)
                case 1: try tmp.writeGzip("packed-\(side)/" + name, tar)
                case 2:
                    try tmp.write(
                        "packed-\(side)/" + name,
                        try ArchiveFixture.zip(Array(part)) { _ in
                            random.pick([.stored, .deflate, .deflateWithDescriptor])
                        })
                default:
                    // zstd: a lone file is one stream; several go through a tar.
                    let inner = kind == 3 && part.count == 1 ? part[part.startIndex].bytes : tar
                    let compressed = try #require(try ArchiveFixture.zstd(inner), "libzstd.so.1 did not load")
                    try tmp.write("packed-\(side)/" + name, compressed)
                }
                for member in part {
                    let inArchive = kind == 3 && part.count == 1 ? path : path + ":" + member.path
                    replacements.append((inArchive, sim + "/" + side + "/" + member.path))
                }
                roots[side, default: []].append(path)
            }
        }
        let packed = try BinaryRun.run(
            ["reconcile"] + (roots["v1"] ?? []).flatMap { ["--v1", $0] } + (roots["v2"] ?? []).flatMap { ["--v2", $0] }
                + ["--out", tmp.path + "/packed", "--run-date", "2026-01-01"])
        try #require(packed.status == plain.status, "\(packed.stderr)")
        var expected = try Self.reports(tmp.path + "/plain", [])
        var got = try Self.reports(tmp.path + "/packed", replacements)
        // summary.csv names the input roots, which differ by design; and the zstd files here are written by
        // ZSTD_compress, without content checksums, so the packed run counts them (`unverified_frames`).
        expected["summary.csv"] = expected["summary.csv"]?.split(separator: "\n").filter {
            !$0.hasPrefix("v1_input") && !$0.hasPrefix("v2_input")
        }.joined(separator: "\n")
        got["summary.csv"] = got["summary.csv"]?.split(separator: "\n").filter {
            !$0.hasPrefix("v1_input") && !$0.hasPrefix("v2_input") && !$0.hasPrefix("unverified_frames,")
        }.joined(separator: "\n")
        #expect(got.keys.sorted() == expected.keys.sorted())
        for name in expected.keys.sorted() {
            #expect(got[name] == expected[name], "\(name) differs (seed \(seed))")
        }
    }

    /// Damage and formats that are not read, all in one run: each file or member is one reject naming it, the good
    /// members around a damaged one are read, and no record of a damaged part is output.
    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func damagedMembersAndBinaryFormatsAreOneRejectEach() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let good = InputDamageEndToEndTests.goodV1Lines(3).joined(separator: "\n") + "\n"
        let other = InputDamageEndToEndTests.goodV1Lines(2, from: 10).joined(separator: "\n") + "\n"
        var zip = try ArchiveFixture.zip([
            .init(path: "a.jsonl", bytes: Array(good.utf8)), .init(path: "b.jsonl", bytes: Array(other.utf8))
        ]) { _ in .stored }
        // A digit: still JSON, wrong CRC.
        zip[try #require(ContainerReadingTests.find(Array("2000000010".utf8), in: zip)) + 9] ^= 0x01
        var inputs = [
            try tmp.write("in/01-damaged.zip", zip),
            try tmp.write("in/02.bz2", Array("BZh91AY&SY".utf8) + [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0]),
            try tmp.write("in/03.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04, 0xE6, 0xD6, 0xB4, 0x46]),
            try tmp.write("in/04.7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04, 0x8D, 0x9B, 0xD5, 0x0F]),
            try tmp.write("in/05.jsonl", Array("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)),
            try tmp.write(
                "in/06.jsonl", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 56))
        ]
        var random = SplitMix64(seed: 5)
        inputs.append(try tmp.write("in/07.jsonl", (0..<3000).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        let zstd = try #require(try ArchiveFixture.zstd(Array((good + other).utf8)), "libzstd.so.1 did not load")
        inputs.append(try tmp.write("in/08-truncated.zst", Array(zstd.dropLast(3))))
        inputs.append(try tmp.write("in/09.zst", zstd))
        let expectedRecords = 3 + 5 // a.jsonl, and 09.zst's five
        let run = try BinaryRun.run([
            "migrate", tmp.path + "/in", "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/rejects.csv"
        ])
        let rows = try CSVReader.read(try tmp.read("rejects.csv"), path: "rejects.csv").records.map(\.fields)
        let counts = try InputDamageEndToEndTests.counts(run)
        #expect(
            counts.migrated == expectedRecords && counts.rejected == inputs.count - 1,
            "\(run.stderr)")
        #expect(counts.read == counts.migrated + counts.rejected)
        #expect(!rows.contains { $0[3].hasPrefix("malformed_json") }, "\(rows)")
        let reasons = Dictionary(rows.map { ($0[1].replacingOccurrences(of: tmp.path + "/in/", with: ""), $0[3]) }) {
            $1
        }
        #expect(reasons["01-damaged.zip:b.jsonl"]?.contains("CRC-32") == true, "\(reasons)")
        #expect(reasons["02.bz2"]?.contains("bzip2") == true)
        #expect(reasons["03.xz"]?.contains("xz") == true)
        #expect(reasons["04.7z"]?.contains("7-Zip") == true)
        #expect(reasons["05.jsonl"]?.contains("PDF") == true)
        #expect(reasons["06.jsonl"]?.contains("ELF") == true)
        #expect(reasons["07.jsonl"]?.contains("binary data") == true)
        #expect(
            reasons["08-truncated.zst"]?.contains("zstd stream starting at byte offset 0 is corrupt or truncated")
                == true, "\(reasons)")
    }

    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func aMissingLibzstdIsOneRejectNamingTheLibrary() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let zstd = try #require(
            try ArchiveFixture.zstd(
                Array((InputDamageEndToEndTests.goodV1Lines(2).joined(separator: "\n") + "\n").utf8)),
            "libzstd.so.1 did not load")
        let path = try tmp.write("feed.jsonl.zst", zstd)
        let run = try BinaryRun.run(
            ["migrate", path, "--out", tmp.path + "/out.jsonl"],
            environment: ["ASN_MIGRATE_LIBZSTD": tmp.path + "/no-such-libzstd.so.1"])
        let counts = try InputDamageEndToEndTests.counts(run)
        #expect(run.status == 1 && counts.read == 1 && counts.rejected == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("no-such-libzstd.so.1") && run.stderr.contains("apt-get install libzstd1"),
            "\(run.stderr)")
    }
}
