import Foundation
import Testing

@testable import ASNMigrateKit

/// "a rules change re-derives": the state keeps the digest of the mapping rules in force; a night under other
/// rules maps the V1 files again before comparing, says so, and its reports show what the change did.
@Suite(.serialized) struct NightlyRulesChangeTests {
    @Test func aNightUnderOtherRulesMapsTheArchiveAgainAndItsReportsShowTheChange() throws {
        let w = try NightlyWorkspace.simulated(["--subscribers", "12", "--seed", "3", "--months", "2"])
        defer { w.remove() }
        let first = try w.run("2021-04-01")
        #expect(first.status == 0, "clean simulated data: \(first.stderr)")

        // The same rules, written in another file with other comments and spacing: nothing is mapped again.
        let same = try TemporaryDirectory()
        defer { same.remove() }
        let sameRules = try MappingTableTests.overrideDirectory(same) { "# reformatted\n\n" + $0 }
        let unchanged = try w.run("2021-04-02", ["--mappings", sameRules])
        #expect(!unchanged.stderr.contains("mapping the V1 files again"), "\(unchanged.stderr)")

        // Renewals mapped to another V2 type: each paired renewal is now a type mismatch, new tonight.
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let changed = try MappingTableTests.overrideDirectory(scratch) { text in
            text.replacingOccurrences(
                of:
                    "rule | did-renew                     | DID_RENEW                 | always                                                                      | DID_RENEW                 | -",
                with:
                    "rule | did-renew                     | DID_RENEW                 | always                                                                      | DID_RENEW                 | BILLING_RECOVERY"
            )
        }
        let remapped = try w.run("2021-04-03", ["--mappings", changed])
        #expect(remapped.status == 1, "\(remapped.stderr)")
        #expect(
            remapped.stderr.contains("the mapping rules differ from the last night's: mapping the V1 files again"),
            "\(remapped.stderr)")
        let new = try w.rows("2021-04-03", "new.csv")
        #expect(
            !new.isEmpty && new.allSatisfy { $0[0] == "type_mismatch" && $0[7] == "BILLING_RECOVERY" },
            "\(new.prefix(3))")

        // Back to the built-in rules: every one of them resolves, by rule.
        let back = try w.run("2021-04-04")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("mapping the V1 files again"))
        let resolved = try w.rows("2021-04-04", "resolved.csv")
        #expect(resolved.count == new.count && resolved.allSatisfy { $0.last == "rule" }, "\(resolved.prefix(3))")
        #expect(try w.summary("2021-04-04")["differences_open"] == "0")
    }
}

/// `nightly --ignore-field` and `--time-tolerance` judge as `reconcile`'s do, and a change of them re-judges the state.
@Suite(.serialized) struct NightlyComparedFieldsTests {
    @Test func ignoringAFieldResolvesItsRowsAndMatchesReconcile() throws {
        let w = try NightlyWorkspace.simulated([
            "--subscribers", "40", "--seed", "5", "--months", "3", "--inject", "0.2"
        ])
        defer { w.remove() }
        _ = try w.run("2021-06-01")
        let fields = try w.rows("2021-06-01", "open.csv").filter { $0[0] == "field_mismatch" }.map { $0[10] }
        let field = try #require(fields.first, "the injected faults change some field")
        let ignoring = try w.run("2021-06-02", ["--ignore-field", field])
        #expect(
            ignoring.stderr.contains("mapping the V1 files again"),
            "a change of what is compared re-judges: \(ignoring.stderr)")
        let resolved = try w.rows("2021-06-02", "resolved.csv")
        #expect(
            resolved.count == fields.filter { $0 == field }.count
                && resolved.allSatisfy { $0[10] == field && $0.last == "rule" })
        let open = try w.rows("2021-06-02", "open.csv").map { Array($0.prefix(DifferenceRow.pricedColumns)) }.sorted {
            $0.joined() < $1.joined()
        }
        _ = try BinaryRun.run([
            "reconcile", "--v1", w.v1, "--v2", w.v2, "--ignore-field", field, "--out", w.tmp.path + "/r"
        ])
        var reader = CSVReader(path: "differences.csv")
        // The judged columns: nightly keeps no V2 price.
        let expected = try (reader.feed(try w.tmp.read("r/differences.csv")) + reader.finish())
            .map { Array($0.fields.prefix(DifferenceRow.pricedColumns)) }.sorted { $0.joined() < $1.joined() }
        #expect(open == expected, "nightly --ignore-field = reconcile --ignore-field")
        // A narrower pairing window is a change of judgement too: the state is judged again and equals reconcile's.
        let narrow = try w.run("2021-06-03", ["--ignore-field", field, "--window", "1h"])
        #expect(narrow.stderr.contains("mapping the V1 files again"), "\(narrow.stderr)")
        let narrowOpen = try w.rows("2021-06-03", "open.csv").map { Array($0.prefix(DifferenceRow.pricedColumns)) }
            .sorted { $0.joined() < $1.joined() }
        _ = try BinaryRun.run([
            "reconcile", "--v1", w.v1, "--v2", w.v2, "--ignore-field", field, "--window", "1h", "--out",
            w.tmp.path + "/r1h"
        ])
        var narrowReader = CSVReader(path: "differences.csv")
        let narrowExpected = try (narrowReader.feed(try w.tmp.read("r1h/differences.csv")) + narrowReader.finish())
            .map { Array($0.fields.prefix(DifferenceRow.pricedColumns)) }.sorted { $0.joined() < $1.joined() }
        #expect(narrowOpen == narrowExpected, "nightly --window 1h = reconcile --window 1h")
        #expect(narrowExpected != expected, "the narrower window changes the answer (not vacuous)")
        let bad = try w.run("2021-06-04", ["--ignore-field", "expiry"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown field 'expiry'"), "\(bad.stderr)")
    }
}

/// A conflicting duplicate outside the period is judged as `reconcile` judges it (in nightly too).
@Suite(.serialized) struct NightlyConflictPeriodTests {
    @Test func aConflictingDuplicateBeforeThePeriodIsNotOpenAsInReconcile() throws {
        let w = try NightlyWorkspace()
        defer { w.remove() }
        let v1 = ReconcileEndToEndTests.cleanSample
        for path in v1 { try w.tmp.write("in/v1/" + (path as NSString).lastPathComponent, try PackagePaths.read(path)) }
        let migrated = w.tmp.path + "/migrated.jsonl"
        _ = try BinaryRun.run(["migrate"] + v1.map { PackagePaths.root.path + "/" + $0 } + ["--out", migrated])
        let lines = try String(contentsOfFile: migrated, encoding: .utf8).split(separator: "\n").map(String.init)
        let parsed = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let first = try #require(
            parsed.min { ($0["signedDate"] as? Int64 ?? .max) < ($1["signedDate"] as? Int64 ?? .max) })
        // A V2 record 30 days before all V1 data (so before the period), and a copy of it with other content.
        var early = first
        early["signedDate"] = (first["signedDate"] as? Int64 ?? 0) - 30 * Timestamp.millisecondsPerDay
        early["notificationUUID"] = "0badc0de-0000-4000-8000-000000000001"
        early.removeValue(forKey: "migration")
        var conflict = early
        conflict["version"] = "conflict"
        let encode = { (o: [String: Any]) in
            String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
        }
        try w.arrive("v2/all.jsonl", lines + [try encode(early), try encode(conflict)])
        _ = try w.run("2024-06-01")
        _ = try BinaryRun.run(["reconcile", "--v1", w.v1, "--v2", w.v2, "--out", w.tmp.path + "/r"])
        let reconciled = try String(contentsOfFile: w.tmp.path + "/r/differences.csv", encoding: .utf8)
        #expect(!reconciled.contains("conflicting_duplicate_v2"), "reconcile leaves out a conflict before the period")
        #expect(
            !(try w.rows("2024-06-01", "open.csv")).contains { $0[0] == "conflicting_duplicate_v2" }, "and nightly too")
    }
}
