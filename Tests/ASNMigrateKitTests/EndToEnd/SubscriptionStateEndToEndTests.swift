import Foundation
import Testing

@testable import ASNMigrateKit

/// The state rules through the built binary: statuses fetched while the archive still runs and after it ends, cut dates
/// inside the data, a side stored with whole seconds (`--time-tolerance`), and `--ignore-field` on `state_mismatch`.
@Suite(.serialized) struct SubscriptionStateEndToEndTests {
    /// (seed, fetch time, extra simulate options). Mid-span fetches found every rule the state module names: billing retry from
    /// a stale flag, extensions and upgrades V1 learns after the fetch, failures V1 is told of late.
    static let fetches: [(seed: Int, fetchAt: String, extra: [String])] = [
        (31, "2021-03-10T09:00:00Z", ["--realistic-edges"]),
        (32, "2021-05-20T15:00:00Z", ["--receipt-history", "3"]),
        (33, "2021-06-02", []),
        (34, "2021-07-15T06:00:00Z", ["--inject", "0.4"])
    ]

    @Test func statusesFetchedDuringAndAfterTheSpanGiveExactlyTruthAPI() throws {
        var kinds: [String: Int] = [:]
        for run in Self.fetches {
            let tmp = try TemporaryDirectory()
            defer { tmp.remove() }
            let data = tmp.path + "/sim"
            let report = tmp.path + "/report"
            let inject = run.extra.contains("--inject") ? [] : ["--inject", "0.08"]
            let simulate = try BinaryRun.run(
                [
                    "simulate", "--subscribers", "100", "--seed", String(run.seed), "--months", "8",
                    "--fetch-at", run.fetchAt, "--out", data
                ] + inject + run.extra)
            #expect(simulate.status == 0, "\(simulate.stderr)")
            _ = try BinaryRun.run(["reconcile", "--v1", data + "/v1", "--v2", data + "/v2-api", "--out", report])
            let truth = try String(contentsOfFile: data + "/truth-api.csv", encoding: .utf8)
            #expect(
                try ReportFiles.withoutPrice(try String(contentsOfFile: report + "/differences.csv", encoding: .utf8))
                    == truth,
                "seed \(run.seed) fetched at \(run.fetchAt)")
            for row in try CSVReader.read(Array(truth.utf8), path: "truth-api.csv").records {
                kinds[row.fields[0], default: 0] += 1
            }
            // The notification side is untouched by the fetch time.
            _ = try BinaryRun.run([
                "reconcile", "--v1", data + "/v1", "--v2", data + "/v2", "--out", tmp.path + "/notifications"
            ])
            #expect(
                try ReportFiles.withoutPrice(
                    try String(contentsOfFile: tmp.path + "/notifications/differences.csv", encoding: .utf8))
                    == String(contentsOfFile: data + "/truth.csv", encoding: .utf8), "seed \(run.seed)")
        }
        #expect((kinds["state_mismatch"] ?? 0) > 0 && (kinds["transaction_field_mismatch"] ?? 0) > 0, "\(kinds)")

        // Fetched long after the archive ends: statuses are counted, not compared, and nothing is invented.
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        _ = try BinaryRun.run([
            "simulate", "--subscribers", "120", "--seed", "35", "--months", "4", "--inject", "0.1",
            "--fetch-at", "2021-07-01", "--out", tmp.path + "/sim"
        ])
        let after = try BinaryRun.run([
            "reconcile", "--v1", tmp.path + "/sim/v1", "--v2", tmp.path + "/sim/v2-api", "--out", tmp.path + "/r"
        ])
        #expect(
            try ReportFiles.withoutPrice(try String(contentsOfFile: tmp.path + "/r/differences.csv", encoding: .utf8))
                == String(contentsOfFile: tmp.path + "/sim/truth-api.csv", encoding: .utf8))
        let afterSummary = try String(contentsOfFile: tmp.path + "/r/summary.csv", encoding: .utf8)
        #expect(
            !afterSummary.contains("statuses_after_v1_end,0\n"),
            "statuses fetched after the archive are counted, not compared: \(after.stderr)")
    }

    /// Cut dates inside the data, on clean data: no row in either mode (nothing invented at the cut), statuses fetched
    /// mid-span. With faults, every row at a cut is a truth row, or a state difference at the cut of a subscription
    /// whose record is itself reported (a lost or changed record before the cut makes the states differ at that
    /// instant; the simulator's truth is the state at the span's end, where a later renewal supersedes it).
    @Test func cutDatesInsideTheDataInventNothing() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let clean = tmp.path + "/clean"
        let faulty = tmp.path + "/faulty"
        _ = try BinaryRun.run([
            "simulate", "--subscribers", "100", "--seed", "41", "--months", "10", "--realistic-edges", "--fetch-at",
            "2021-06-15T12:00:00Z", "--out", clean
        ])
        _ = try BinaryRun.run([
            "simulate", "--subscribers", "100", "--seed", "42", "--months", "10", "--inject", "0.08", "--out", faulty
        ])
        let cuts: [[String]] = [
            ["--to", "2021-04-10T13:00:00Z"], ["--from", "2021-03-03", "--to", "2021-09-20"],
            ["--from", "2021-08-01T07:00:00Z"]
        ]
        for (n, cut) in cuts.enumerated() {
            for side in ["v2", "v2-api"] {
                let out = tmp.path + "/c\(n)\(side)"
                let run = try BinaryRun.run(
                    ["reconcile", "--v1", clean + "/v1", "--v2", clean + "/" + side, "--out", out] + cut)
                #expect(run.status == 0, "clean data at \(cut) against \(side): \(run.stderr)")
            }
            let out = tmp.path + "/f\(n)"
            _ = try BinaryRun.run(["reconcile", "--v1", faulty + "/v1", "--v2", faulty + "/v2", "--out", out] + cut)
            let truth = Set(
                try CSVReader.read(
                    try Data(contentsOf: URL(fileURLWithPath: faulty + "/truth.csv")).map { $0 }, path: "t"
                ).records.map(\.fields))
            let rows = try CSVReader.read(
                try Data(contentsOf: URL(fileURLWithPath: out + "/differences.csv")).map { $0 }, path: "d"
            ).records.map { Array($0.fields.prefix(DifferenceRow.pricedColumns)) }
            let explained = Set(rows.filter { $0[0] != "state_mismatch" }.map { $0[2] })
            for row in rows where !truth.contains(row) {
                #expect(row[0] == "state_mismatch" && explained.contains(row[2]), "invented at \(cut): \(row)")
            }
            #expect(rows.contains { truth.contains($0) }, "the cut \(cut) still reports the truth's rows inside it")
        }
    }

    /// A V2 side exported with whole seconds: every date differs below the second. The run says so once, counts the
    /// rows in `time_precision_rows`, and `--time-tolerance 1s` leaves nothing; `--ignore-field expiresDate` drops that
    /// field from `field_mismatch` and `state_mismatch` rows alike.
    @Test func aWholeSecondSideIsNamedAndToleranceOrIgnoreFieldRemovesItsRows() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let data = tmp.path + "/sim"
        _ = try BinaryRun.run(["simulate", "--subscribers", "60", "--seed", "7", "--months", "4", "--out", data])
        _ = try BinaryRun.run(["migrate", data + "/v1", "--format", "csv", "--out", tmp.path + "/v2.csv"])
        let exact = try String(contentsOfFile: tmp.path + "/v2.csv", encoding: .utf8)
        let seconds = exact.replacingOccurrences(
            of: #"(T\d\d:\d\d:\d\d)\.\d\d\dZ"#, with: "$1.000Z", options: .regularExpression)
        #expect(seconds != exact)
        try seconds.write(toFile: tmp.path + "/v2s.csv", atomically: true, encoding: .utf8)
        let map = ["--v2-columns", PackagePaths.root.path + "/Mappings/v2-columns.migrate-csv.map"]

        let plain = try BinaryRun.run(
            ["reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/v2s.csv", "--out", tmp.path + "/r"] + map)
        #expect(plain.status == 1)
        #expect(plain.stderr.components(separatedBy: "--time-tolerance 1s").count == 2, "one warning: \(plain.stderr)")
        #expect(plain.stderr.contains("V2's dates have whole seconds only"))
        let summary = try String(contentsOfFile: tmp.path + "/r/summary.csv", encoding: .utf8)
        let rows =
            try String(contentsOfFile: tmp.path + "/r/differences.csv", encoding: .utf8).split(separator: "\n").count
            - 1
        #expect(summary.contains("time_precision_rows,\(rows)\n"), "every row here is the precision's: \(rows)")
        #expect(try String(contentsOfFile: tmp.path + "/r/differences.csv", encoding: .utf8).contains("state_mismatch"))

        let tolerant = try BinaryRun.run(
            [
                "reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/v2s.csv", "--time-tolerance", "1s",
                "--out", tmp.path + "/r2"
            ] + map)
        #expect(tolerant.status == 0, "\(tolerant.stderr)")
        #expect(!tolerant.stderr.contains("whole seconds"))
        #expect(
            try String(contentsOfFile: tmp.path + "/r2/summary.csv", encoding: .utf8).contains(
                "time_tolerance_ms,1000\n"))

        let ignored = try BinaryRun.run(
            [
                "reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/v2s.csv", "--ignore-field", "expiresDate",
                "--out", tmp.path + "/r3"
            ] + map)
        let left = try String(contentsOfFile: tmp.path + "/r3/differences.csv", encoding: .utf8)
        #expect(!left.contains(",expiresDate,"), "no row of any kind compares expiresDate: \(ignored.stderr)")
        #expect(left.contains(",purchaseDate,"))

        let bad = try BinaryRun.run(
            [
                "reconcile", "--v1", data + "/v1", "--v2", tmp.path + "/v2s.csv", "--time-tolerance", "1 second",
                "--out", tmp.path + "/r4"
            ] + map)
        #expect(bad.status == 64 && bad.stderr.contains("--time-tolerance"))
    }
}
