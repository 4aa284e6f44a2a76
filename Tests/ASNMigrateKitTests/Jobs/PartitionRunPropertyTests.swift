import Foundation
import Testing

@testable import ASNMigrateKit

/// `partition`, each partition reconciled alone and `merge`, over random inputs in the shapes archives have (JSON
/// Lines, gzip, top-level arrays, pretty-printed objects, tar.gz members), with damaged, repeated and missing records,
/// for random partition and slice counts: always the unsharded report, byte for byte.
///
/// Seeded; `ASN_PARTITION_CASES=N` runs more (default 8).
@Suite struct PartitionRunPropertyTests {
    /// `lines` as the bytes of one file in a random shape (named by `name`, which it may extend).
    static func file(_ lines: [[UInt8]], _ random: inout SplitMix64) throws -> (suffix: String, bytes: [UInt8]) {
        let joined = Array(lines.joined(separator: [0x0A])) + [0x0A]
        switch random.next() % 5 {
        case 0:
            return (".jsonl", joined)
        case 1:
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let path = try dir.writeGzip("x.gz", joined)
            return (".jsonl.gz", Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        case 2:
            return (".json", Array("[".utf8) + Array(lines.joined(separator: Array(",\n".utf8))) + Array("]\n".utf8))
        case 3:
            // Pretty-printed objects one after another (a damaged line stays as it is).
            let pretty = lines.map { line -> [UInt8] in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)),
                    let data = try? JSONSerialization.data(
                        withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                else { return line }
                return Array(data)
            }
            return (".json", Array(pretty.joined(separator: [0x0A])) + [0x0A])
        default:
            let tar = ArchiveFixture.tar([ArchiveFixture.Member(path: "notifications/part.jsonl", bytes: joined)])
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let path = try dir.writeGzip("x.tar.gz", tar)
            return (".tar.gz", Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }

    /// Every report file of a folder, by name.
    static func files(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    /// Runs the library's commands in this process; returns the status and standard error.
    static func run(_ arguments: [String]) -> (status: ASNMigrateKit.ExitStatus, stderr: String) {
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(arguments, console: captured.console)
        return (status, captured.stderr)
    }

    @Test func partitionedReconcilesMergeIntoTheUnshardedReportForRandomInputs() throws {
        let cases = Int(ProcessInfo.processInfo.environment["ASN_PARTITION_CASES"] ?? "") ?? 8
        var withRejects = 0
        for seed in 0..<cases {
            var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 3)
            let tmp = try TemporaryDirectory()
            defer { tmp.remove() }
            var v1 = DamageHarness.v1Lines(20 + Int(random.next() % 40), seed: UInt64(seed))
            var v2 = DamageHarness.v2Lines(v1).filter { _ in random.next() % 10 != 0 }
            for side in [0, 1] {
                var lines = side == 0 ? v1 : v2
                for k in lines.indices where random.next() % 10 == 0 {
                    lines[k] = DamageHarness.damage(lines[k], &random)
                }
                if let again = lines.randomElement(using: &random) { lines.append(again) }
                if side == 0 { v1 = lines } else { v2 = lines }
            }
            var description = ["seed \(seed)"]
            for (side, lines) in [("v1", v1), ("v2", v2)] {
                try FileManager.default.createDirectory(
                    atPath: "\(tmp.path)/\(side)", withIntermediateDirectories: true)
                let pieces = 1 + Int(random.next() % 4)
                for piece in 0..<pieces {
                    let part = Array(lines[(piece * lines.count / pieces)..<((piece + 1) * lines.count / pieces)])
                    let (suffix, bytes) = try Self.file(part, &random)
                    try Data(bytes).write(to: URL(fileURLWithPath: "\(tmp.path)/\(side)/f\(piece)\(suffix)"))
                    description.append("\(side)/f\(piece)\(suffix): \(part.count) lines")
                }
            }
            let judging = ["--run-date", "2024-01-01", "--max-reject-rate", "100%"]
            let whole = Self.run(
                ["reconcile", "--v1", tmp.path + "/v1", "--v2", tmp.path + "/v2", "--out", tmp.path + "/whole"]
                    + judging)
            #expect([.success, .findings].contains(whole.status), "\(description): \(whole.stderr)")
            let expected = Self.files(tmp.path + "/whole")
            if (String(decoding: expected["rejected.csv"] ?? Data(), as: UTF8.self).split(separator: "\n").count) > 1 {
                withRejects += 1
            }

            let shards = 1 + Int(random.next() % 5)
            let slices = 1 + Int(random.next() % 3)
            let gzip = random.next() % 2 == 0
            description.append("N = \(shards), M = \(slices)\(gzip ? ", gzip" : "")")
            for j in 0..<slices {
                let pass = Self.run(
                    [
                        "partition", "--v1", tmp.path + "/v1", "--v2", tmp.path + "/v2", "--shards", String(shards),
                        "--files", "\(j)/\(slices)", "--out", tmp.path + "/parts"
                    ] + (gzip ? ["--gzip"] : []))
                #expect(pass.status == .success, "\(description): \(pass.stderr)")
            }
            var reports: [String] = []
            for k in 0..<shards {
                let report = "\(tmp.path)/reports/\(k)"
                let one = Self.run(
                    ["reconcile", "--partition", "\(tmp.path)/parts/part-\(k)-of-\(shards)", "--out", report] + judging)
                #expect(one.status == .success, "\(description): \(one.stderr)")
                reports.append(report)
            }
            let merge = Self.run(["merge", "--max-reject-rate", "100%", "--out", tmp.path + "/merged"] + reports)
            #expect(merge.status == whole.status, "\(description): \(merge.stderr)")
            #expect(
                Self.files(tmp.path + "/merged") == expected,
                "\(description.joined(separator: "; ")): not the same bytes")
        }
        #expect(withRejects > cases / 2, "most cases have rejects to place in partition 0 (not vacuous)")
    }
}
