import Foundation
import Testing

@testable import ASNMigrateKit

/// Runs the built `asn-migrate` binary on the sample archive set in `Tests/Fixtures/sample` and checks what a user sees:
/// exit codes, the golden output files, the stderr summary, and that secrets never leave the input.
///
/// `ASN_MIGRATE_RECORD_GOLDEN=1 swift test --filter MigrateEndToEndTests` rewrites the golden files.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct MigrateEndToEndTests {
    /// The sample input directory as given on the command line (relative to the package root, as in the README).
    static let sampleInput = "Tests/Fixtures/sample/v1"
    /// The golden JSON Lines output.
    static let goldenOut = "Tests/Fixtures/sample/expected/migrate.jsonl"
    /// The golden rejects CSV.
    static let goldenRejects = "Tests/Fixtures/sample/expected/rejects.csv"
    /// The fake secrets planted in the sample bodies (`password`, `latest_receipt`).
    static let secrets = ["sample-shared-secret-do-not-log", "sample-latest-receipt-do-not-log"]

    /// True when the golden files are to be rewritten rather than compared.
    static var recordingGolden: Bool { ProcessInfo.processInfo.environment["ASN_MIGRATE_RECORD_GOLDEN"] == "1" }

    // MARK: - Golden run

    /// Sample run matches golden files and exits one.
    @Test func sampleRunMatchesGoldenFilesAndExitsOne() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let out =
            Self.recordingGolden
            ? PackagePaths.root.appendingPathComponent(Self.goldenOut).path : scratch.path + "/migrate.jsonl"
        let rejects =
            Self.recordingGolden
            ? PackagePaths.root.appendingPathComponent(Self.goldenRejects).path : scratch.path + "/rejects.csv"

        let run = try BinaryRun.run(["migrate", Self.sampleInput, "--out", out, "--rejects", rejects])

        #expect(
            run.status == ExitStatus.findings.rawValue, "the sample has rejected and unmapped records: \(run.stderr)")
        #expect(run.stdout.isEmpty, "with --out nothing goes to standard output")
        let produced = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
        let producedRejects = Array(try Data(contentsOf: URL(fileURLWithPath: rejects)))
        let golden = try PackagePaths.read(Self.goldenOut)
        let goldenRejects = try PackagePaths.read(Self.goldenRejects)
        // Compared as Bools so a failure prints the first differing line, not two byte arrays.
        let outputMatches = produced == golden
        let rejectsMatch = producedRejects == goldenRejects
        #expect(outputMatches, "migrate.jsonl differs from the golden file: \(Self.firstDifference(produced, golden))")
        #expect(
            rejectsMatch,
            "rejects.csv differs from the golden file: \(Self.firstDifference(producedRejects, goldenRejects))")

        // The summary balances and agrees with the files.
        let counts = try #require(Self.summaryCounts(run.stderr), "no summary line in: \(run.stderr)")
        #expect(counts.read == counts.migrated + counts.unmapped + counts.rejected)
        #expect(counts.migrated == Self.lines(produced).count)
        let rejectRows = try CSVReader.read(producedRejects, path: "rejects.csv").records
        #expect(counts.unmapped + counts.rejected == rejectRows.count)
        #expect(counts.unmapped == rejectRows.filter { $0.fields.last?.hasPrefix("unmapped:") == true }.count)
        #expect(counts.unmapped > 0 && counts.rejected > 0, "the sample is meant to exercise both")
    }

    /// Every rule of the built in table is exercised by sample data.
    @Test func everyRuleOfTheBuiltInTableIsExercisedBySampleData() throws {
        let golden = try PackagePaths.read(Self.goldenOut)
        var rulesSeen: Set<String> = []
        for line in Self.lines(golden) {
            let payload = try #require(try JSONParser().parse(line).objectValue)
            if let rule = payload["migration"]?.objectValue?["rule"]?.stringValue { rulesSeen.insert(rule) }
        }
        let table = try MappingTable.builtIn()
        #expect(
            Set(table.rules.map(\.id)).subtracting(rulesSeen).isEmpty,
            "rules without a sample record: \(Set(table.rules.map(\.id)).subtracting(rulesSeen).sorted())")
    }

    /// Running twice gives byte identical output.
    @Test func runningTwiceGivesByteIdenticalOutput() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        var results: [([UInt8], [UInt8], String)] = []
        for attempt in 0..<2 {
            let out = scratch.path + "/out\(attempt).jsonl"
            let rejects = scratch.path + "/rejects\(attempt).csv"
            let run = try BinaryRun.run(["migrate", Self.sampleInput, "--out", out, "--rejects", rejects])
            #expect(run.status == ExitStatus.findings.rawValue)
            // The last line names the rejects file, whose name differs between the runs.
            let stderr = run.stderr.replacingOccurrences(of: rejects, with: "REJECTS")
            results.append((try scratch.read("out\(attempt).jsonl"), try scratch.read("rejects\(attempt).csv"), stderr))
        }
        let sameOutput = results[0].0 == results[1].0
        let sameRejects = results[0].1 == results[1].1
        #expect(!results[0].0.isEmpty && !results[0].1.isEmpty)
        #expect(sameOutput)
        #expect(sameRejects)
        #expect(results[0].2 == results[1].2)
    }

    // MARK: - Secrets

    /// Secrets appear in no output rejects or stderr.
    @Test(arguments: [["--format", "jsonl"], ["--format", "csv"]])
    func secretsAppearInNoOutputRejectsOrStderr(format: [String]) throws {
        // Precondition: the secrets really are in the input, so this test can fail.
        let input =
            try PackagePaths.read(Self.sampleInput + "/01-live-feed.jsonl")
            + PackagePaths.read(Self.sampleInput + "/06-rejects-and-unmapped.jsonl")
        for secret in Self.secrets {
            #expect(Self.contains(input, secret), "sample input lost its planted secret \(secret)")
        }

        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let withFiles = try BinaryRun.run(
            ["migrate", Self.sampleInput, "--rejects", scratch.path + "/rejects.csv"] + format)
        // Without --rejects the first rejects are printed to standard error instead.
        let toConsole = try BinaryRun.run(["migrate", Self.sampleInput] + format)
        let rejects = try scratch.read("rejects.csv")
        #expect(
            !withFiles.stdout.isEmpty && !rejects.isEmpty && toConsole.stderr.contains("06-rejects-and-unmapped.jsonl"))
        for secret in Self.secrets {
            #expect(!Self.contains(withFiles.stdout, secret))
            #expect(!Self.contains(rejects, secret))
            #expect(!withFiles.stderr.contains(secret))
            #expect(!Self.contains(toConsole.stdout, secret))
            #expect(!toConsole.stderr.contains(secret))
        }
    }

    // MARK: - Standard input

    /// Standard input through a pipe gives the same records as the file.
    @Test(arguments: ["01-live-feed.jsonl", "05-archive-2021-q4.jsonl.gz"])
    func standardInputThroughAPipeGivesTheSameRecordsAsTheFile(name: String) throws {
        let path = Self.sampleInput + "/" + name
        let fromFile = try BinaryRun.run(["migrate", path])
        let fromPipe = try BinaryRun.run(["migrate", "-"], stdin: try PackagePaths.read(path))
        #expect(fromFile.status == fromPipe.status)
        let fileLines = Self.lines(fromFile.stdout)
        let pipeLines = Self.lines(fromPipe.stdout)
        #expect(!fileLines.isEmpty)
        #expect(fileLines.count == pipeLines.count)
        for (a, b) in zip(fileLines, pipeLines) {
            let fileRecord = try #require(try JSONParser().parse(a).objectValue)
            let pipeRecord = try #require(try JSONParser().parse(b).objectValue)
            #expect(
                pipeRecord["migration"]?.objectValue?["source"]?.stringValue == "stdin",
                "standard input is named stdin in sources")
            #expect(Self.withoutSource(fileRecord) == Self.withoutSource(pipeRecord))
        }
    }

    // MARK: - CSV

    /// CSV format writes the header and one row per migrated record.
    @Test func csvFormatWritesTheHeaderAndOneRowPerMigratedRecord() throws {
        let csvRun = try BinaryRun.run(["migrate", Self.sampleInput, "--format", "csv"])
        let jsonRun = try BinaryRun.run(["migrate", Self.sampleInput])
        #expect(csvRun.status == ExitStatus.findings.rawValue)
        let table = try CSVReader.read(csvRun.stdout, path: "stdout")
        #expect(table.header == MigrationOutput.csvColumns)
        let counts = try #require(Self.summaryCounts(csvRun.stderr))
        #expect(table.records.count == counts.migrated)
        // Row by row, the CSV holds the same notifications as the JSON Lines output, in the same order.
        let uuidColumn = try #require(table.header.firstIndex(of: "notificationUUID"))
        let csvUUIDs = table.records.map { $0.fields[uuidColumn] }
        let jsonUUIDs = try Self.lines(jsonRun.stdout).map { line in
            try #require(try JSONParser().parse(line).objectValue?["notificationUUID"]?.stringValue)
        }
        #expect(csvUUIDs == jsonUUIDs)
    }

    // MARK: - Exit codes

    /// Clean input exits zero.
    @Test func cleanInputExitsZero() throws {
        // The JSON array file holds only records that migrate.
        let run = try BinaryRun.run(["migrate", Self.sampleInput + "/02-interactive-and-pref.json"])
        #expect(run.status == ExitStatus.success.rawValue, "stderr: \(run.stderr)")
        let counts = try #require(Self.summaryCounts(run.stderr))
        #expect(counts.migrated == counts.read && counts.read > 0)
        #expect(Self.lines(run.stdout).count == counts.migrated)
    }

    /// Help exits zero and prints usage.
    @Test(arguments: [["--help"], ["migrate", "--help"], ["help", "migrate"]])
    func helpExitsZeroAndPrintsUsage(arguments: [String]) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == ExitStatus.success.rawValue)
        #expect(run.stdoutText.contains("USAGE"))
        #expect(run.stdoutText.contains("migrate"))
    }

    /// Usage errors exit64 with a message.
    @Test(arguments: [
        (["migrate"], "give at least one input"),
        (["migrate", "Tests/Fixtures/sample/v1", "--format", "xml"], "--format"),
        (["migrate", "Tests/Fixtures/sample/v1", "--no-such-option"], "--no-such-option"),
        (["migrat", "Tests/Fixtures/sample/v1"], "did you mean 'migrate'")
    ])
    func usageErrorsExit64WithAMessage(arguments: [String], mentions: String) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == ExitStatus.usage.rawValue)
        #expect(run.stderr.contains(mentions), "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// Unreadable input path exits two without creating the output.
    @Test func unreadableInputPathExitsTwoWithoutCreatingTheOutput() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let out = scratch.path + "/out.jsonl"
        let rejects = scratch.path + "/rejects.csv"
        let missing = scratch.path + "/no-such-archive.json"
        let run = try BinaryRun.run(["migrate", Self.sampleInput, missing, "--out", out, "--rejects", rejects])
        #expect(run.status == ExitStatus.failure.rawValue)
        #expect(run.stderr.contains(missing), "stderr: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: rejects))
    }

    /// Bad mappings directory exits two naming the file and line.
    @Test func badMappingsDirectoryExitsTwoNamingTheFileAndLine() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        var lines = String(decoding: try PackagePaths.read("Mappings/v1-to-v2.rules"), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("rule | initial-buy-offer-code") })
        lines[index] = lines[index].replacingOccurrences(of: "| offer-code ", with: "| offer-kode ")
        try scratch.write("mappings/v1-to-v2.rules", lines.joined(separator: "\n"))
        try scratch.write("mappings/v2-only.rules", try PackagePaths.read("Mappings/v2-only.rules"))
        let out = scratch.path + "/out.jsonl"

        let run = try BinaryRun.run([
            "migrate", Self.sampleInput, "--mappings", scratch.path + "/mappings", "--out", out
        ])

        #expect(run.status == ExitStatus.failure.rawValue)
        #expect(run.stderr.contains("\(scratch.path)/mappings/v1-to-v2.rules:\(index + 1)"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("offer-kode"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: - Helpers

    /// The counts of the stderr line `check: read N = migrated M + unmapped U + rejected R`.
    static func summaryCounts(_ stderr: String) -> (read: Int, migrated: Int, unmapped: Int, rejected: Int)? {
        for line in stderr.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "read"), words.count >= at + 11,
                words[at + 2] == "=", words[at + 3] == "migrated", words[at + 6] == "unmapped",
                words[at + 9] == "rejected",
                let read = Int(words[at + 1]), let migrated = Int(words[at + 4]),
                let unmapped = Int(words[at + 7]), let rejected = Int(words[at + 10])
            else { continue }
            return (read, migrated, unmapped, rejected)
        }
        return nil
    }

    /// The non-empty `\n`-separated lines of some bytes.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A).map(Array.init)
    }

    /// True when `needle` occurs in `bytes`.
    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains(needle)
    }

    /// A payload with `migration.source` removed, for comparing runs on different sources.
    static func withoutSource(_ object: JSONObject) -> JSONObject {
        JSONObject(
            object.members.map { member in
                guard member.key == "migration", case .object(let migration) = member.value else { return member }
                return JSONObject.Member(
                    key: member.key, value: .object(JSONObject(migration.members.filter { $0.key != "source" })))
            })
    }

    /// Where two byte strings first differ, as `line N: got … expected …`.
    static func firstDifference(_ got: [UInt8], _ expected: [UInt8]) -> String {
        let a = lines(got)
        let b = lines(expected)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(decoding: a[i], as: UTF8.self) : "<none>"
            let y = i < b.count ? String(decoding: b[i], as: UTF8.self) : "<none>"
            if x != y {
                return
                    "line \(i + 1):\n  got      \(x)\n  expected \(y)\n(set ASN_MIGRATE_RECORD_GOLDEN=1 to rewrite after checking)"
            }
        }
        return got == expected ? "none" : "line ends or trailing bytes"
    }
}
