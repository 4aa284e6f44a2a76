import Foundation
import Testing

@testable import ASNMigrateKit

/// `migrate` on the real published V1 payloads in `../shared/corpus/v1` (not part of the repository; skipped when absent).
@Suite(.enabled(if: PackagePaths.corpusV1 != nil, "needs ../shared/corpus/v1"))
struct MigrateCommandCorpusTests {
    /// The corpus files with the given extension, sorted.
    static func corpusFiles(_ ext: String) -> [String] {
        guard let directory = PackagePaths.corpusV1,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory.appendingPathComponent($0).path }
    }

    /// Every outcome of one file, read and mapped as `migrate` does.
    static func outcomes(_ path: String) throws -> [V1RecordOutcome] {
        let mapper = V1RecordMapper(table: try MappingTable.builtIn())
        return try RecordReader(file: InputFile(path: path)).items().map { item in
            switch item {
            case .record(let record): return mapper.map(record)
            case .broken(let error): return .rejected(error)
            }
        }
    }

    /// Every JSON body migrates or is unmapped, none rejected, but for a body whose publisher redacted its IDs
    /// (`"***"`): that one is a `bad_id` reject naming the field (IDs are digit strings).
    @Test func everyJSONBodyMigratesOrIsUnmappedNoneRejected() throws {
        let files = Self.corpusFiles("json")
        #expect(files.count >= 20, "expected the collected V1 bodies, found \(files.count)")
        for file in files {
            let outcomes = try Self.outcomes(file)
            #expect(outcomes.count == 1, "\(file) should hold one notification")
            let redacted = (try String(contentsOfFile: file, encoding: .utf8)).contains("\"***\"")
            for outcome in outcomes {
                if redacted {
                    #expect(outcome.rejection?.code == .badId, "\(file) has redacted IDs: \(outcome)")
                    #expect(outcome.rejection?.location?.key?.hasSuffix("_id") == true)
                    continue
                }
                #expect(outcome.rejection == nil, "\(file) was rejected: \(outcome.rejection?.description ?? "")")
                if let payload = outcome.payload {
                    #expect(payload.migration?.source == file)
                    #expect(payload.version == "2.0")
                }
            }
        }
    }

    /// Partial text capture is rejected with a located message.
    @Test func partialTextCaptureIsRejectedWithALocatedMessage() throws {
        let files = Self.corpusFiles("txt")
        #expect(!files.isEmpty)
        for file in files {
            let outcomes = try Self.outcomes(file)
            let rejection = try #require(outcomes.first?.rejection, "\(file) should be rejected")
            #expect(rejection.code == .malformedJSON)
            #expect(rejection.location?.path == file)
            #expect(rejection.location?.line != nil)
            #expect(
                rejection.message.contains("line ") && rejection.message.contains("column "), "\(rejection.message)")
        }
    }

    /// Corpus run balances and reports the reject in the rejects file.
    @Test func corpusRunBalancesAndReportsTheRejectInTheRejectsFile() throws {
        guard let corpus = PackagePaths.corpusV1 else { return }
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let captured = CapturedConsole()
        let status = ASNMigrateCLI.run(
            ["migrate", corpus.path, "--out", scratch.path + "/out.jsonl", "--rejects", scratch.path + "/rejects.csv"],
            console: captured.console)
        #expect(status == .findings)

        // The library's own count of the same files.
        var summary = MigrationSummary()
        for file in Self.corpusFiles("json") + Self.corpusFiles("txt") {
            for outcome in try Self.outcomes(file) { summary.count(outcome) }
        }
        #expect(summary.isBalanced)
        #expect(summary.read == Self.corpusFiles("json").count + Self.corpusFiles("txt").count)
        #expect(
            captured.stderr.contains(
                "check: read \(summary.read) = migrated \(summary.migrated) + unmapped \(summary.unmapped) + rejected \(summary.rejected)"
            ),
            "\(captured.stderr)")

        let out = try scratch.read("out.jsonl")
        #expect(out.split(separator: 0x0A).count == summary.migrated)
        let rejects = try CSVReader.read(try scratch.read("rejects.csv"), path: "rejects.csv").records
        #expect(rejects.count == summary.rejected + summary.unmapped)
        #expect(rejects.contains { $0.fields[1].hasSuffix(".txt") && !$0.fields[2].isEmpty })
    }
}
