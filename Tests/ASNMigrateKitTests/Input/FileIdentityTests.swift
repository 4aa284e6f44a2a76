import Foundation
import Testing

@testable import ASNMigrateKit

/// The ledger's rules for one file, without files: what `NightlyPass.plan` does with a file's bytes and its entry.
@Suite struct FileIdentityTests {
    private func entry(_ text: String) -> LedgerStore.Entry {
        let bytes = Array(text.utf8)
        let sha1 = bytes.withUnsafeBytes { FileIdentity.hash($0, length: bytes.count) }
        return LedgerStore.Entry(
            id: 1, path: "/in/a.jsonl", side: "v2", size: Int64(bytes.count), mtimeMs: 0, sha1: sha1, vanished: nil)
    }

    private func plan(_ text: String, entry: LedgerStore.Entry?, young: Bool = false) -> NightlyPass.ReadPlan {
        Array(text.utf8).withUnsafeBytes { NightlyPass.plan($0, entry: entry, young: young, path: "/in/a.jsonl") }
    }

    private func hash(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { FileIdentity.hash($0, length: $0.count) }
    }

    @Test func aNewFileIsReadWholeUnlessYoung() {
        #expect(plan("{\"a\":1}\n", entry: nil) == .readAll(size: 8, sha1: hash("{\"a\":1}\n")))
        #expect(plan("{\"a\":1}\n", entry: nil, young: true) == .defer)
        #expect(
            plan("{\"a\":1}\n{\"b\"", entry: nil) == .readAll(size: 12, sha1: hash("{\"a\":1}\n{\"b\"")),
            "an old file's last line is complete")
    }

    @Test func aKnownFileIsSkippedAGrownOneReadFromWhereItStopped() {
        let read = "{\"a\":1}\n{\"b\":2}\n"
        #expect(plan(read, entry: entry(read)) == .skip(linesDeferred: false))
        let grown = read + "{\"c\":3}\n"
        #expect(
            plan(grown, entry: entry(read))
                == .readTail(from: 16, to: 24, sha1: hash(grown), lineOffset: 2, linesDeferred: false))
        #expect(
            plan(grown, entry: entry(read), young: true)
                == .readTail(from: 16, to: 24, sha1: hash(grown), lineOffset: 2, linesDeferred: false),
            "complete new lines of a growing file are read even while it is young")
    }

    @Test func anUnfinishedLastLineWaitsWhileTheFileIsYoung() {
        let read = "{\"a\":1}\n"
        #expect(
            plan(read + "{\"b\":2}\n{\"c\"", entry: entry(read), young: true)
                == .readTail(from: 8, to: 16, sha1: hash(read + "{\"b\":2}\n"), lineOffset: 1, linesDeferred: true))
        #expect(plan(read + "{\"c\"", entry: entry(read), young: true) == .skip(linesDeferred: true))
        #expect(
            plan(read + "{\"c\"", entry: entry(read))
                == .readTail(from: 8, to: 12, sha1: hash(read + "{\"c\""), lineOffset: 1, linesDeferred: false))
    }

    @Test func changedContentOrAGrownNonLineFileIsReadAgainWhole() {
        let read = "{\"a\":1}\n"
        #expect(plan("{\"a\":2}\n", entry: entry(read)) == .readAll(size: 8, sha1: hash("{\"a\":2}\n")))
        #expect(plan("{\"a\":2}\n", entry: entry(read), young: true) == .defer, "a file being rewritten waits")
        #expect(plan("{}", entry: entry(read)) == .readAll(size: 2, sha1: hash("{}")), "a shorter file changed")
        let array = "[{\"a\":1}]\n"
        #expect(
            plan(array + "[{\"b\":2}]\n", entry: entry(array))
                == .readAll(size: 20, sha1: hash(array + "[{\"b\":2}]\n")),
            "a JSON array cannot be read on from the middle")
        let csv = "notificationUUID,notificationType\n"
        #expect(
            plan(csv + "u,SUBSCRIBED\n", entry: entry(csv)) == .readAll(size: 47, sha1: hash(csv + "u,SUBSCRIBED\n")),
            "a CSV tail has no header")
    }

    @Test(arguments: [
        ("a.jsonl", false), (".a.jsonl", true), ("a.jsonl.tmp", true), ("a.jsonl.part", true), ("a.partial", true),
        ("/x/.hidden/a.jsonl", false), ("/x/y/.a", true), ("tmp.jsonl", false)
    ])
    func temporaryNames(name: String, temporary: Bool) {
        #expect(FileIdentity.isTemporaryName(name) == temporary)
    }

    @Test func maxLagTakesOneDurationOrOnePerSide() throws {
        let defaults = NightlySettings().maxLag
        #expect(defaults == ["v1": 172_800_000, "v2": 172_800_000])
        #expect(
            try NightlySettings.maxLag("3d", option: "--max-lag", defaults: defaults) == [
                "v1": 259_200_000, "v2": 259_200_000
            ])
        #expect(
            try NightlySettings.maxLag("v2=12h", option: "--max-lag", defaults: defaults) == [
                "v1": 172_800_000, "v2": 43_200_000
            ])
        #expect(
            try NightlySettings.maxLag("v1=1d, v2=4d", option: "--max-lag", defaults: defaults) == [
                "v1": 86_400_000, "v2": 345_600_000
            ])
        for bad in ["v3=1d", "v1=soon", "v1", "=2d"] {
            #expect(throws: ASNError.self) { try NightlySettings.maxLag(bad, option: "--max-lag", defaults: defaults) }
        }
    }

    @Test func metricsKeepPerRunCountsAndLevelsApartAndAFailedRunKeepsTheLastSuccess() {
        let failed = NightlyMetrics.render(
            nil, status: .failure, durationSeconds: 0.5, lastSuccessSeconds: 1_700_000_000)
        #expect(failed.contains("asn_migrate_nightly_last_run_exit_code 2\n"))
        #expect(NightlyMetrics.lastSuccess(in: failed) == 1_700_000_000)
        #expect(!failed.contains("backlog") && !failed.contains("run_records"))
        let report = NightlyReport(
            date: "2021-03-01", new: [], open: [], resolved: [], pending: [], rejects: [],
            metrics: [
                ("differences_new", "2"), ("differences_open", "7"), ("pending", "3"),
                ("v2_newest_record", "2021-02-27T00:00:00.000Z"),
                ("v1_newest_record", ""), ("v1_newest_file", "2021-02-01T00:00:00.000Z"), ("v2_stale", "1")
            ],
            sanityFailure: nil)
        let text = NightlyMetrics.render(
            report, status: .sanityCheckFailed, durationSeconds: 1, lastSuccessSeconds: nil)
        #expect(text.contains("asn_migrate_nightly_run_differences{kind=\"new\"} 2\n"))
        #expect(
            text.contains("asn_migrate_nightly_backlog{kind=\"open\"} 7\n")
                && text.contains("asn_migrate_nightly_backlog{kind=\"pending\"} 3\n"))
        #expect(text.contains("asn_migrate_nightly_side_newest_record_timestamp_seconds{side=\"v2\"} 1614384000\n"))
        #expect(
            text.contains("asn_migrate_nightly_side_newest_record_timestamp_seconds{side=\"v1\"} 1612137600\n"),
            "a side with no record: its newest file")
        #expect(text.contains("asn_migrate_nightly_side_stale{side=\"v2\"} 1\n"))
        var names: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let sample = line.split(separator: " ")[0]
            let name = String(sample.prefix { $0 != "{" })
            names[name, default: []].insert(String(sample))
        }
        #expect(
            names["asn_migrate_nightly_run_differences"] == [
                "asn_migrate_nightly_run_differences{kind=\"new\"}",
                "asn_migrate_nightly_run_differences{kind=\"resolved\"}"
            ],
            "per-run counts and backlog levels never share a name")
    }
}
