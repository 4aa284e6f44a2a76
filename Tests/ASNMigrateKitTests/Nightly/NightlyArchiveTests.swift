import Foundation
import Testing

@testable import ASNMigrateKit

/// `nightly` reads archives like any file: an archive is one file of the ledger, read whole, skipped while
/// unchanged, and read again whole (its earlier records replaced, none counted twice) when it changes.
@Suite(.enabled(if: BinaryRun.executable != nil, "needs the built asn-migrate executable"))
struct NightlyArchiveTests {
    @Test func anArchiveIsOneFileReadAgainWholeWhenItChanges() throws {
        let workspace = try NightlyWorkspace()
        defer { workspace.tmp.remove() }
        let v1 = InputDamageEndToEndTests.goodV1Lines(4).map { Array(($0 + "\n").utf8) }
        // Night 1: a zip of two members (stored and deflate); the V2 side is empty.
        let first = try ArchiveFixture.zip([
            .init(path: "a.jsonl", bytes: v1[0] + v1[1]), .init(path: "b.jsonl", bytes: v1[2])
        ]) { $0 == 0 ? .stored : .deflate }
        try workspace.tmp.write("in/v1/archive.zip", first)
        let night1 = try workspace.run("2023-03-01")
        // 3: the V2 side has no record yet; the V1 archive is what is looked at.
        #expect([0, 1, 3].contains(night1.status), "\(night1.stderr)")
        var summary = try workspace.summary("2023-03-01")
        #expect(
            summary["files_ingested"] == "1" && summary["v1_records_read"] == "3"
                && summary["v1_records_stored"] == "3", "\(summary)")

        // Night 2: unchanged, not read.
        _ = try workspace.run("2023-03-02")
        summary = try workspace.summary("2023-03-02")
        #expect(summary["files_ingested"] == "0" && summary["v1_records_read"] == "0", "\(summary)")

        // Night 3: a member added (the archive rewritten, as zip tools do): read again whole, the old records replaced.
        let second = try ArchiveFixture.zip([
            .init(path: "a.jsonl", bytes: v1[0] + v1[1]), .init(path: "b.jsonl", bytes: v1[2]),
            .init(path: "c.jsonl", bytes: v1[3])
        ])
        try workspace.tmp.write("in/v1/archive.zip", second)
        let night3 = try workspace.run("2023-03-03")
        summary = try workspace.summary("2023-03-03")
        #expect(
            summary["files_changed"] == "1" && summary["records_replaced"] == "3" && summary["v1_records_read"] == "4"
                && summary["v1_records_stored"] == "4", "\(summary) \(night3.stderr)")
        let stored = try workspace.stateDump().filter { $0.hasPrefix("facts: ") }
        #expect(stored.count == 4, "each record once: \(stored.count)")
    }
}
