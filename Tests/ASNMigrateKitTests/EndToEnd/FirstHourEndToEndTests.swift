import Foundation
import Testing

@testable import ASNMigrateKit

/// The traps of a new user's first hour, through the built binary: empty inputs never pass as a clean run, V2 data
/// given to `migrate` is named as such, `version` says what it knows, and the reports put first what costs money.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct FirstHourEndToEndTests {
    /// The last line of a run's standard error.
    static func lastLine(_ run: BinaryRun) -> String {
        run.stderr.split(separator: "\n").last.map(String.init) ?? ""
    }

    // MARK: - Empty inputs

    @Test func reconcileOfTwoEmptyFoldersIsExitThreeNamingBothSides() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let v1 = try tmp.makeDirectory("v1")
        let v2 = try tmp.makeDirectory("v2")
        let run = try BinaryRun.run(["reconcile", "--v1", v1, "--v2", v2, "--out", tmp.path + "/r"])
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        let last = Self.lastLine(run)
        #expect(last.hasPrefix("asn-migrate reconcile: exit 3: "), "\(last)")
        #expect(last.contains("V1 and V2 read no records"), "the last line names the sides: \(last)")
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/r/summary.csv"), "the report is written")
    }

    @Test(arguments: ["v1", "v2"])
    func reconcileWithOneSideReadingNothingNamesThatSideLast(empty side: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let nothing = try tmp.makeDirectory("empty")
        let sample = "Tests/Fixtures/sample/" + side
        let arguments =
            side == "v1"
            ? ["--v1", sample, "--v2", "Tests/Fixtures/sample/v2"]
            : ["--v1", "Tests/Fixtures/sample/v1", "--v2", sample]
        var swapped = arguments
        swapped[side == "v1" ? 1 : 3] = nothing
        let run = try BinaryRun.run(
            ["reconcile"] + swapped + ["--out", tmp.path + "/r", "--max-reject-rate", "20%"])
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        let last = Self.lastLine(run)
        #expect(last.contains("\(side.uppercased()) has no usable records (read 0)"), "\(last)")
    }

    @Test func migrateOfAnEmptyFolderIsExitThreeSayingNothingWasRead() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let empty = try tmp.makeDirectory("empty")
        let run = try BinaryRun.run(["migrate", empty, "--out", tmp.path + "/out.jsonl"])
        #expect(run.status == ExitStatus.sanityCheckFailed.rawValue, "\(run.stderr)")
        let last = Self.lastLine(run)
        #expect(last.hasPrefix("asn-migrate migrate: exit 3: "), "\(last)")
        #expect(last.contains("read no records"), "\(last)")
        let emptyFile = try tmp.write("empty.jsonl", "")
        let fromFile = try BinaryRun.run(["migrate", emptyFile])
        #expect(fromFile.status == ExitStatus.sanityCheckFailed.rawValue, "\(fromFile.stderr)")
    }

    // MARK: - V2 data given to migrate

    @Test func migrateGivenV2DataIsAUsageErrorSayingSo() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v2", "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/r.csv"
        ])
        #expect(run.status == ExitStatus.usage.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("this is V2 data"), "\(run.stderr)")
        #expect(run.stderr.contains("give it the V1 archive's paths"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/out.jsonl"), "nothing written")
        // --force runs it anyway (every record then is a reject, as before).
        let forced = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v2", "--out", tmp.path + "/out.jsonl", "--rejects", tmp.path + "/r.csv",
            "--force"
        ])
        #expect(forced.status == ExitStatus.findings.rawValue, "\(forced.stderr)")
        // The V1 sample is V1: no false alarm.
        let v1 = try BinaryRun.run([
            "migrate", "Tests/Fixtures/sample/v1", "--out", tmp.path + "/v1.jsonl", "--rejects", tmp.path + "/r1.csv"
        ])
        #expect(v1.status == ExitStatus.findings.rawValue, "\(v1.stderr)")
    }

    // MARK: - version

    @Test(.enabled(if: MachineTools.gitCheckout, "needs the source tree's .git (an export has none)"))
    func versionUnderADevelopmentBuildNamesTheSourceTreesCommit() throws {
        let run = try BinaryRun.run(["version"])
        #expect(run.status == 0, "\(run.stderr)")
        let commitLine = run.stdoutText.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        let root = PackagePaths.root.path
        let head = try #require(GitHead.commit(ofTree: root), "the test's own tree has a readable HEAD")
        #expect(commitLine.hasPrefix("commit \(head.prefix(12)) "), "\(commitLine)")
        #expect(!commitLine.contains("unknown"))
        // git itself agrees, where it is installed.
        let gitAnswer = tmpOutput("git -C '\(root)' rev-parse HEAD")
        if let gitAnswer { #expect(gitAnswer == head) }
    }

    /// Standard output of a shell command, trimmed; nil when it fails.
    private func tmpOutput(_ command: String) -> String? {
        guard let tmp = try? TemporaryDirectory() else { return nil }
        defer { tmp.remove() }
        let run = Shell.run(command + " > out.txt", in: tmp.path)
        guard run.status == 0, let bytes = try? tmp.read("out.txt") else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [["version", "--help"], ["version", "-h"], ["help", "version"], ["--version", "--help"]])
    func versionHelpIsHelp(arguments: [String]) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText.contains("USAGE"), "\(run.stdoutText)")
        #expect(!run.stdoutText.contains("rules digest "), "help, not the version: \(run.stdoutText)")
    }

    @Test func versionWithAnArgumentIsAUsageError() throws {
        let run = try BinaryRun.run(["version", "extra"])
        #expect(run.status == ExitStatus.usage.rawValue, "\(run.stderr)")
    }

    @Test func theUnknownCommandListNamesVersion() throws {
        let run = try BinaryRun.run(["frobnicate"])
        #expect(run.status == ExitStatus.usage.rawValue)
        #expect(run.stderr.contains("Commands: ") && run.stderr.contains(", version"), "\(run.stderr)")
        let typo = try BinaryRun.run(["verison"])
        #expect(typo.stderr.contains("did you mean 'version'?"), "\(typo.stderr)")
    }

    // MARK: - report.html

    @Test func stateMismatchesAreDatedAtTheirMomentNotThePeriodEnd() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try ReportHTMLEndToEndTests.reconcileSample(into: tmp.path)
        let summary = try ReportFiles.summary(tmp.path + "/r")
        let end = try #require(summary["period_end"])
        let rows = try ReportHTMLEndToEndTests.csv(tmp.path + "/r/differences.csv")
        let states = rows.filter { $0[0] == "state_mismatch" }
        #expect(!states.isEmpty, "the sample holds state mismatches")
        let others = rows.filter { $0[0] != "state_mismatch" && !$0[4].isEmpty }.map { $0[4] }
        for row in states {
            #expect(row[4] < end, "dated before the period end \(end): \(row)")
            #expect(
                others.contains { String($0.prefix(4)) == String(row[4].prefix(4)) },
                "in the years of the sample's records: \(row[4])")
        }
        let document = try XHTMLDocument(Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/r/report.html"))))
        let months = document.bars("chart-month").map(\.0)
        #expect(!months.contains(String(end.prefix(7))), "no row in the period end's month: \(months)")
    }

    @Test func kindSectionsPutWhatCostsMoneyFirst() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try ReportHTMLEndToEndTests.reconcileSample(into: tmp.path)
        let document = try XHTMLDocument(Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/r/report.html"))))
        let shown = document.all("h3").compactMap { $0.attributes["id"] }.filter { $0.hasPrefix("rows-") }
            .map { String($0.dropFirst("rows-".count)) }
        #expect(shown.count >= 3, "\(shown)")
        let order = DifferenceKindGuide.reportOrder.map(\.rawValue)
        #expect(shown == order.filter(shown.contains), "in DifferenceKindGuide.reportOrder: \(shown)")
        #expect(shown.first == "missing_in_v2", "\(shown)")
        #expect(shown != shown.sorted(), "not alphabetical")
    }

    // MARK: - Nightly's exit 0 with a backlog

    @Test func aQuietNightWithABacklogSaysNothingNewAndIsAmber() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let night = [
            "nightly", "--v1", "Tests/Fixtures/sample/v1", "--v2", "Tests/Fixtures/sample/v2", "--state",
            tmp.path + "/state.sqlite", "--reports", tmp.path + "/reports", "--min-file-age", "0", "--max-lag",
            "3650d", "--max-reject-rate", "20%"
        ]
        let first = try BinaryRun.run(night + ["--run-date", "2024-03-01"])
        #expect(first.status == ExitStatus.findings.rawValue, "\(first.stderr)")
        let second = try BinaryRun.run(night + ["--run-date", "2024-03-02"])
        #expect(second.status == ExitStatus.success.rawValue, "\(second.stderr)")
        let open = try #require(
            Int(try ReportFiles.summary(tmp.path + "/reports/2024-03-02")["differences_open"] ?? ""))
        #expect(open > 0, "the backlog stands")

        let page = try XHTMLDocument(
            Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/reports/2024-03-02/report.html"))))
        let status = try #require(page.elements.first { $0.attributes["id"] == "verdict-status" })
        #expect(status.text.hasPrefix("Exit 0: nothing new tonight"), "\(status.text)")
        #expect(!status.text.contains("all clear"), "\(status.text)")
        #expect(status.text.contains("\(open) differences are still open"), "\(status.text)")
        #expect(status.attributes["class"]?.split(separator: " ").contains("backlog") == true, "amber")

        let index = try XHTMLDocument(
            Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/reports/index.html"))))
        let latest = try #require(index.elements.first { $0.attributes["id"] == "latest" })
        #expect(latest.text.contains("Exit 0: nothing new"), "\(latest.text)")
        #expect(!latest.text.contains("all clear"), "\(latest.text)")
        #expect(latest.attributes["class"]?.split(separator: " ").contains("backlog") == true, "amber")
        let css = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/reports/index.html")), as: UTF8.self)
        #expect(css.contains(".status-0.backlog{color:#9a6700}"), "styled amber, as findings are")
    }

    // MARK: - Money per row

    @Test func rowsThatStandForAPurchaseCarryItsPriceAndStatusesTheirWords() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "120", "--seed", "5", "--inject", "0.1", "--out", tmp.path + "/sim"
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let run = try BinaryRun.run([
            "reconcile", "--v1", tmp.path + "/sim/v1", "--v2", tmp.path + "/sim/v2-api", "--out", tmp.path + "/r",
            "--html"
        ])
        #expect(run.status == ExitStatus.findings.rawValue, "\(run.stderr)")
        let csv = try CSVReader.read(try tmp.read("r/differences.csv"), path: "differences.csv")
        let header = csv.header
        let all = [header] + csv.records.map(\.fields)
        #expect(Array(header.suffix(2)) == ["price", "currency"], "appended after every earlier column")
        let price = header.count - 2
        let valued = Set(V2PriceList.valuedKinds.map(\.rawValue))
        var sums: [String: (rows: Int, milliunits: Int64)] = [:]
        for row in all.dropFirst() {
            guard valued.contains(row[0]) else {
                #expect(row[price].isEmpty && row[price + 1].isEmpty, "no purchase, no price: \(row)")
                continue
            }
            guard !row[price].isEmpty else { continue }
            #expect(row[price + 1] == "USD", "\(row)")
            #expect(row[price].split(separator: ".").last?.count == 2, "USD has two decimals: \(row[price])")
            let milliunits = try #require(CurrencyAmount.milliunits(row[price]))
            sums[row[price + 1], default: (0, 0)].rows += 1
            sums[row[price + 1], default: (0, 0)].milliunits += milliunits
        }
        #expect(!sums.isEmpty, "the simulation prices every V2 transaction")
        let document = try XHTMLDocument(Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/r/report.html"))))
        let table = document.all("td", inside: "value-table").compactMap { $0.attributes["data-milliunits"] }
        #expect(table == sums.sorted { $0.key < $1.key }.map { String($0.value.milliunits) }, "the rows add up")
        #expect(
            document.all("td", inside: "value-table").contains {
                $0.text.hasSuffix(".") == false && $0.text.contains(".")
            },
            "amounts with the currency's decimals")

        // Apple's status codes: raw in the CSV, with their words on the page.
        let statuses = all.dropFirst().filter { $0[0] == "state_mismatch" && $0[10] == "status" }
        let status = try #require(statuses.first, "the simulation changes a status")
        #expect(Int(status[11]) != nil && Int(status[12]) != nil, "codes in the CSV: \(status)")
        let cells = document.all("td", inside: "rows-state_mismatch-table").map(\.text)
        let words = ["active", "expired", "billing retry", "grace period", "revoked"]
        let shown = try #require(SubscriptionStatus(rawValue: Int(status[11]) ?? 0))
        #expect(cells.contains("\(status[11]) (\(shown.words))"), "\(cells)")
        #expect(cells.contains { cell in words.contains { cell.hasSuffix("(\($0))") } })
    }
}
