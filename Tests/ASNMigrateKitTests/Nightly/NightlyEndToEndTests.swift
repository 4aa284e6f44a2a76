import Foundation
import Testing

@testable import ASNMigrateKit

/// `asn-migrate nightly` through the built binary, over files that arrive night after night.
@Suite(.serialized) struct NightlyEndToEndTests {
    /// Twelve simulated subscribers over two months: small, realistic, deterministic.
    static let simulation = ["--subscribers", "12", "--seed", "11", "--months", "2"]

    private func ms(_ iso: String) -> Int64 { V1Fixture.ms(iso) }

    private func count(_ rows: [[String]], kind: String? = nil, id: String) -> Int {
        rows.filter { $0.count > 2 && $0[2] == id && (kind == nil || $0[0] == kind) }.count
    }

    @Test func lateRecordsRetriesAndChangedFilesOverSeveralNights() throws {
        let data = try SimulatedLines(Self.simulation)
        let end = ms("2021-02-20T23:59:59.999Z")
        let v1 = data.v1.filter { $0.time <= end }
        let v2 = data.v2.filter { $0.time <= end }
        // X and Z: mid-data records, long settled when missing; Y: a record younger than the settle time on night 1.
        let middle = v2.filter {
            ["SUBSCRIBED", "DID_RENEW"].contains($0.type) && $0.time >= ms("2021-01-08T00:00:00Z")
                && $0.time <= ms("2021-02-08T00:00:00Z")
        }
        let x = try #require(middle.first)
        let z = try #require(middle.first { $0.originalTransactionId != x.originalTransactionId })
        // (Y must not be V2's last record: a V1 record after the other side's last event lies outside the judged period.)
        let y = try #require(
            v2.last {
                $0.time >= ms("2021-02-18T00:00:00Z") && $0.time < ms("2021-02-19T00:00:00Z")
                    && ![x, z].map(\.originalTransactionId).contains($0.originalTransactionId) && $0.type != "TEST"
            })
        let withheld = Set([x.text, y.text, z.text])

        let w = try NightlyWorkspace()
        defer { w.remove() }
        // Night 1: everything but X, Y and Z.
        try w.arrive("v1/night1.jsonl", v1.map(\.text))
        try w.arrive("v2/night1.jsonl", v2.map(\.text).filter { !withheld.contains($0) })
        let night1 = try w.run("2021-02-20")
        #expect(night1.status == 1, "new differences: exit 1. \(night1.stderr)")
        let new1 = try w.rows("2021-02-20", "new.csv")
        #expect(
            count(new1, kind: "missing_in_v2", id: x.originalTransactionId) == 1, "X's V1 partner is missing: \(new1)")
        #expect(count(new1, kind: "missing_in_v2", id: z.originalTransactionId) == 1)
        #expect(
            count(new1, id: y.originalTransactionId) == 0,
            "Y is younger than the settle time: not a difference yet: \(new1.filter { $0[2] == y.originalTransactionId })"
        )
        let pending1 = try w.rows("2021-02-20", "pending.csv")
        let yPending = pending1.filter { $0[2] == y.originalTransactionId }
        #expect(!yPending.isEmpty && yPending.allSatisfy { $0.last == "settle" }, "\(pending1)")
        #expect(
            try w.rows("2021-02-20", "open.csv").map { Array($0.prefix(Discrepancy.columns.count)) }
                == new1.map { Array($0.prefix(Discrepancy.columns.count)) }, "on the first night everything open is new"
        )
        #expect(
            try w.stateDump().contains { $0.contains("password") || $0.contains("latest_receipt") } == false,
            "no V1 secret is stored")

        // Night 2: X and Y arrive late, and a V1 retry of a record already read.
        try w.arrive("v2/night2-late.jsonl", [x.text, y.text])
        try w.arrive("v1/night2-retry.jsonl", [v1[3].text])
        let night2 = try w.run("2021-02-21")
        let resolved2 = try w.rows("2021-02-21", "resolved.csv")
        #expect(
            count(resolved2, kind: "missing_in_v2", id: x.originalTransactionId) == 1,
            "the late V2 record resolves X's difference: \(resolved2)")
        #expect(
            resolved2.filter { $0[2] == x.originalTransactionId }.allSatisfy {
                $0.last == "late_record" && $0[Discrepancy.columns.count] == "2021-02-20"
                    && $0[Discrepancy.columns.count + 2] == "2021-02-21"
            })
        #expect(
            try w.rows("2021-02-21", "new.csv").isEmpty,
            "a V1 retry is a duplicate, not a difference; Y paired while pending")
        let pending2 = try w.rows("2021-02-21", "pending.csv")
        #expect(count(pending2, kind: "type_mismatch", id: y.originalTransactionId) == 0, "\(pending2)")
        #expect(count(try w.rows("2021-02-21", "open.csv"), id: x.originalTransactionId) == 0)
        #expect(
            count(try w.rows("2021-02-21", "open.csv"), kind: "missing_in_v2", id: z.originalTransactionId) == 1,
            "Z is still open")
        let summary2 = try w.summary("2021-02-21")
        #expect(
            summary2["v1_duplicates"] == "1" && summary2["v1_records_stored"] == "0"
                && summary2["v2_records_stored"] == "2", "\(summary2)")
        #expect(night2.status == 0, "nothing new and nothing rejected: exit 0. \(night2.stderr)")

        // Night 3: night 1's V2 file is corrected (Z added): it is read again, its old records replaced.
        try w.arrive("v2/night1.jsonl", v2.map(\.text).filter { $0 != x.text && $0 != y.text })
        let night3 = try w.run("2021-02-22")
        #expect(night3.status == 0, "\(night3.stderr)")
        let resolved3 = try w.rows("2021-02-22", "resolved.csv")
        #expect(count(resolved3, kind: "missing_in_v2", id: z.originalTransactionId) == 1)
        #expect(resolved3.allSatisfy { $0.last == "corrected_record" }, "\(resolved3)")
        let summary3 = try w.summary("2021-02-22")
        #expect(summary3["files_ingested"] == "1")
        #expect(
            summary3["records_replaced"] == (try w.summary("2021-02-20"))["v2_records_stored"],
            "the old copy's records are replaced")

        // Nothing counted twice: the state holds each distinct record once, and every night's identities hold.
        let distinctV2 = Set(v2.map(\.text)).count
        #expect(summary3["v2_records_in_state"] == String(distinctV2), "\(summary3)")
        #expect(summary3["v1_records_in_state"] == String(v1.count), "\(summary3)")
        for date in ["2021-02-20", "2021-02-21", "2021-02-22"] {
            let s = try w.summary(date)
            for side in ["v1", "v2"] {
                let parts = ["records_stored", "duplicates", "other_environment", "rejected"].map {
                    Int(s["\(side)_\($0)"] ?? "") ?? -1
                }
                #expect(
                    Int(s["\(side)_records_read"] ?? "") == parts.reduce(0, +),
                    "\(date) \(side): read = stored + duplicates + other_environment + rejected")
            }
        }
        let stored2 = try (["2021-02-20", "2021-02-21", "2021-02-22"]).map {
            Int(try w.summary($0)["v2_records_stored"] ?? "") ?? 0
        }.reduce(0, +)
        #expect(Int(summary3["v2_records_in_state"] ?? "") == stored2 - (Int(summary3["records_replaced"] ?? "") ?? 0))

        // Re-running the same night: same reports, no state change beyond the run log.
        let before = try w.stateDump()
        let reports = try w.reportBytes("2021-02-22")
        let again = try w.run("2021-02-22")
        #expect(again.status == night3.status)
        #expect(try w.reportBytes("2021-02-22") == reports)
        #expect(try w.stateDump() == before)
    }
}

/// Night by night equals one `reconcile` over everything, once the settle time has passed.
@Suite(.serialized) struct NightlyEquivalenceTests {
    @Test(arguments: [(seed: "5", inject: "0.15"), (seed: "8", inject: "0.3")])
    func nightByNightEndsWithReconcilesDifferences(seed: String, inject: String) throws {
        let sim = try TemporaryDirectory()
        defer { sim.remove() }
        let simulated = try BinaryRun.run([
            "simulate", "--subscribers", "15", "--seed", seed, "--months", "3", "--inject", inject, "--out",
            sim.path + "/sim"
        ])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let months = try FileManager.default.contentsOfDirectory(atPath: sim.path + "/sim/v1").filter {
            $0.hasSuffix(".jsonl")
        }.sorted()
        #expect(months.count >= 3)

        let w = try NightlyWorkspace()
        defer { w.remove() }
        var lastDay = ""
        for month in months {
            // The month's files arrive; the night runs at the end of that month.
            for side in ["v1", "v2"] where FileManager.default.fileExists(atPath: "\(sim.path)/sim/\(side)/\(month)") {
                try w.tmp.write("in/\(side)/\(month)", try sim.read("sim/\(side)/\(month)"))
            }
            let first = try #require(Timestamp.parseUTCDayOrInstant(String(month.prefix(7)) + "-01"))
            let nextMonth = Timestamp.day(ms: first.ms + 32 * Timestamp.millisecondsPerDay).prefix(7) + "-01"
            let next = try #require(Timestamp.parseUTCDayOrInstant(String(nextMonth)))
            lastDay = Timestamp.day(ms: next.ms - 1)
            let night = try w.run(lastDay)
            #expect([0, 1, 3].contains(night.status), "\(month): \(night.stderr)")
        }
        // A final night after the settle time.
        let last = try #require(Timestamp.parseUTCDayOrInstant(lastDay))
        let final = Timestamp.day(ms: last.ms + 10 * Timestamp.millisecondsPerDay)
        let finalRun = try w.run(final)
        #expect([0, 1, 3].contains(finalRun.status), "\(finalRun.stderr)")

        let out = w.tmp.path + "/reconcile"
        let reconcile = try BinaryRun.run(["reconcile", "--v1", w.v1, "--v2", w.v2, "--out", out])
        #expect([0, 1, 3].contains(reconcile.status), "\(reconcile.stderr)")
        // The judgement's columns: nightly keeps no V2 price of notifications in its state, so its money columns are
        // empty where reconcile's are filled.
        let judged = DifferenceRow.pricedColumns
        func rows(_ name: String) throws -> [String] {
            var reader = CSVReader(path: name)
            return try (reader.feed(try w.tmp.read("reconcile/\(name)")) + reader.finish()).map(\.fields).map {
                $0.prefix(judged).joined(separator: "\u{1F}")
            }.sorted()
        }
        let expectedOpen = try rows("differences.csv")
        let expectedPending = try rows("pending.csv")

        let open = try w.rows(final, "open.csv").map {
            Array($0.prefix(judged)).joined(separator: "\u{1F}")
        }.sorted()
        let pending = try w.rows(final, "pending.csv")
        #expect(!open.isEmpty, "injected faults give differences: the comparison is not vacuous")
        #expect(
            pending.allSatisfy { $0.last == "edge" },
            "after the settle time only records at the data's edge still wait: \(pending)")
        let edge = pending.map { Array($0.prefix(judged)).joined(separator: "\u{1F}") }.sorted()
        #expect(open == expectedOpen, "open after the last night = one reconcile's differences.csv")
        if open != expectedOpen {
            Issue.record(
                "only nightly: \(Set(open).subtracting(expectedOpen))\nonly reconcile: \(Set(expectedOpen).subtracting(open))"
            )
        }
        // And the simulator's truth, its sources named in the nightly's folder: recall and precision 100%.
        let truth = try String(contentsOfFile: sim.path + "/sim/truth.csv", encoding: .utf8).replacingOccurrences(
            of: sim.path + "/sim/", with: w.tmp.path + "/in/")
        var truthReader = CSVReader(path: "truth.csv")
        let truthRows = try (truthReader.feed(Array(truth.utf8)) + truthReader.finish()).map {
            $0.fields.joined(separator: "\u{1F}")
        }.sorted()
        #expect(open == truthRows, "open after the last night = truth.csv (seed \(seed))")
        #expect(edge == expectedPending, "edge-pending after the last night = one reconcile's pending.csv")
        if edge != expectedPending {
            Issue.record(
                "only nightly: \(Set(edge).subtracting(expectedPending))\nonly reconcile: \(Set(expectedPending).subtracting(edge))"
            )
        }
    }
}
