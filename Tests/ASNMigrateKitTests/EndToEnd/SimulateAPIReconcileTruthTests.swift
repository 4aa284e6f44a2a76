import Foundation
import Testing

@testable import ASNMigrateKit

/// The acceptance check for Apple's API view: `simulate --inject` perturbs `DIR/v2-api/` (and loses V1
/// notifications) and writes what that must change to `truth-api.csv`; `reconcile --v1 DIR/v1 --v2 DIR/v2-api` must
/// report exactly that, at several seeds, and every kind of fault must occur (so the check cannot pass vacuously).
@Suite(.serialized) struct SimulateAPIReconcileTruthTests {
    /// One simulation: seed, subscribers, months, inject rate, receipt history cap, gzip. The last one (a short
    /// receipt history and many faults) loses V1 notifications whose transactions no later receipt shows.
    static let runs: [(seed: Int, subscribers: Int, months: Int, rate: String, cap: Int, gzip: Bool)] = [
        (5, 150, 3, "0.05", 3, false),
        (21, 150, 3, "0.1", 50, true),
        (1, 120, 6, "0.4", 2, false)
    ]

    @Test func reconcileAgainstTheAPIViewReportsExactlyTruthAPI() throws {
        var kinds: [String: Int] = [:]
        for run in Self.runs {
            let tmp = try TemporaryDirectory()
            defer { tmp.remove() }
            let data = tmp.path + "/sim"
            let report = tmp.path + "/report"
            let simulate = try BinaryRun.run(
                [
                    "simulate", "--subscribers", String(run.subscribers), "--seed", String(run.seed), "--months",
                    String(run.months),
                    "--inject", run.rate, "--receipt-history", String(run.cap), "--out", data
                ] + (run.gzip ? ["--gzip"] : []))
            #expect(simulate.status == 0, "\(simulate.stderr)")
            let suffix = run.gzip ? ".jsonl.gz" : ".jsonl"
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: data + "/v2-api").contains(
                    "history-Production" + suffix))
            let reconcile = try BinaryRun.run([
                "reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--out", report
            ])
            #expect(reconcile.status == 1, "injected faults are differences: \(reconcile.stderr)")
            #expect(reconcile.stderr.contains("transactions compared with Apple's App Store Server API view"))

            let truth = try String(contentsOfFile: data + "/truth-api.csv", encoding: .utf8)
            let differences = try ReportFiles.withoutPrice(
                try String(contentsOfFile: report + "/differences.csv", encoding: .utf8))
            #expect(differences == truth, "differences.csv must equal truth-api.csv byte for byte (seed \(run.seed))")
            if !run.gzip {
                // Statuses saved without a fetch time are dated by their newest signedDate, which Apple (and the
                // simulator) sets to the moment of the request: the same truth.
                let undated = tmp.path + "/undated"
                let undatedReport = tmp.path + "/undated-report"
                try FileManager.default.createDirectory(atPath: undated, withIntermediateDirectories: true)
                for name in try FileManager.default.contentsOfDirectory(atPath: data + "/v2-api") {
                    let text = try String(contentsOfFile: data + "/v2-api/" + name, encoding: .utf8)
                    let stripped = text.replacingOccurrences(
                        of: #"\{"fetchedAt":"[^"]*","#, with: "{", options: .regularExpression)
                    #expect(name.hasPrefix("history") || stripped != text, "\(name) had a fetchedAt to remove")
                    try stripped.write(toFile: undated + "/" + name, atomically: true, encoding: .utf8)
                }
                _ = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", undated, "--out", undatedReport])
                let undatedDifferences = try ReportFiles.withoutPrice(
                    try String(contentsOfFile: undatedReport + "/differences.csv", encoding: .utf8))
                #expect(undatedDifferences == truth, "without fetchedAt (seed \(run.seed))")
            }
            let rows = try CSVReader.read(Array(truth.utf8), path: "truth-api.csv").records
            #expect(rows.count >= 5, "seed \(run.seed) injected a meaningful number of faults")
            for row in rows { kinds[row.fields[0], default: 0] += 1 }
            // An unannounced transaction's source is a later V1 record that shows it in its receipt, not as its own.
            for row in rows where row.fields[0] == "unannounced_in_v1" {
                let source = row.fields[13]
                let colon = try #require(source.lastIndex(of: ":"))
                let file = String(source[..<colon])
                let line = try #require(Int(source[source.index(after: colon)...]))
                var text = ""
                try RecordReader.forEach(in: try InputPaths.expand([file])) { item in
                    if case .record(let record) = item, record.location.line == line {
                        text = String(decoding: record.bytes, as: UTF8.self)
                    }
                }
                #expect(text.contains("\"transaction_id\":\"\(row.fields[11])\""), "\(source) shows \(row.fields[11])")
            }
        }
        // Every fault kind occurred at least once over the runs: a history transaction dropped, a field changed,
        // a V1 notification lost (seen later, or never again), a status changed.
        for kind in [
            "transaction_missing_in_v2", "transaction_field_mismatch", "unannounced_in_v1", "transaction_missing_in_v1",
            "state_mismatch"
        ] {
            #expect((kinds[kind] ?? 0) > 0, "\(kind) never injected: \(kinds)")
        }
    }

    @Test func signedAPIViewVerifiesWithTheTestRootAndIsRejectedWithoutIt() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "60", "--seed", "5", "--months", "3", "--inject", "0.1",
            "--receipt-history", "3", "--sign", "--out", data
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let verified = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--verify-signatures",
            "--root-certificate", data + "/test-root.der", "--out", tmp.path + "/verified"
        ])
        #expect(verified.status == 1, "\(verified.stderr)")
        let truth = try String(contentsOfFile: data + "/truth-api.csv", encoding: .utf8)
        #expect(truth.split(separator: "\n").count > 1)
        #expect(
            try ReportFiles.withoutPrice(
                try String(contentsOfFile: tmp.path + "/verified/differences.csv", encoding: .utf8)) == truth)
        #expect(
            try String(contentsOfFile: tmp.path + "/verified/rejected.csv", encoding: .utf8).split(separator: "\n")
                .count == 1, "header only")
        // Apple's root only: every history page entry and status is a signature reject, and the sanity check stops the run.
        let apple = try BinaryRun.run([
            "reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--verify-signatures", "--out",
            tmp.path + "/apple"
        ])
        #expect(apple.status == 3, "\(apple.stderr)")
        let rejected = try CSVReader.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: tmp.path + "/apple/rejected.csv"))), path: "rejected.csv"
        ).records
        #expect(
            !rejected.isEmpty
                && rejected.allSatisfy {
                    $0.fields[0] == "v2" && $0.fields.joined(separator: ",").contains("signature: root")
                })
    }

    /// The usual case: the V1 archive stops at the switch to V2 (here after three of six months) and Apple's view is
    /// fetched later. Refunds, upgrades, renewal extensions and status changes after the switch reach Apple only: a
    /// clean simulation gives no difference row, and the summary counts what was left out.
    @Test func archiveEndingBeforeTheAPIFetchInventsNoDifference() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        let archive = tmp.path + "/archive"
        let simulate = try BinaryRun.run([
            "simulate", "--subscribers", "200", "--seed", "7", "--months", "6", "--out", data
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        for month in ["2021-01", "2021-02", "2021-03"] {
            try FileManager.default.copyItem(atPath: "\(data)/v1/\(month).jsonl", toPath: "\(archive)/\(month).jsonl")
        }
        let reconcile = try BinaryRun.run([
            "reconcile", "--v1", archive, "--v2", data + "/v2-api", "--out", tmp.path + "/report"
        ])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        let differences = try String(contentsOfFile: tmp.path + "/report/differences.csv", encoding: .utf8)
        #expect(differences.split(separator: "\n").count == 1, "header only: \(differences.prefix(2000))")
        let summary = try String(contentsOfFile: tmp.path + "/report/summary.csv", encoding: .utf8)
        let metrics = Dictionary(
            summary.split(separator: "\n").map { $0.split(separator: ",", maxSplits: 1).map(String.init) }
                .filter { $0.count == 2 }.map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
        #expect(Int(metrics["statuses_read"] ?? "") ?? 0 > 0)
        #expect(
            metrics["statuses_after_v1_end"] == metrics["statuses_read"],
            "every status was fetched after the archive ended")
        #expect(
            Int(metrics["transaction_fields_after_data_end"] ?? "") ?? 0 > 0,
            "later refunds/upgrades/extensions occurred and were left out")
        #expect(Int(metrics["matched_transactions"] ?? "") ?? 0 > 0)
    }
}
