import Foundation

/// The run's figures in the Prometheus text exposition format, for node_exporter's textfile collector.
///
/// Counts of what one run did are `asn_migrate_nightly_run_*`; levels of the state (the backlog, records held, the
/// ledger) have names of their own, so a per-run count is never summed with a backlog gauge by mistake.
package enum NightlyMetrics {
    /// The per-run record counters (summary.csv names) shown as `run_records{kind=…}`.
    package static let runRecordKinds = [
        "v1_records_read", "v1_records_stored", "v1_duplicates", "v1_other_environment", "v1_rejected",
        "v2_records_read", "v2_records_stored", "v2_duplicates", "v2_other_environment", "v2_rejected",
        "records_replaced", "records_pruned"
    ]
    /// The per-run file counters shown as `run_files{kind=…}` (summary.csv name `files_<kind>`, or `lines_deferred`).
    package static let runFileKinds = [
        "ingested", "vanished", "deferred", "appended", "changed", "renamed", "same_content"
    ]

    /// Renders the metrics: `asn_migrate_nightly_*` gauges. Without a report (a failed run) only the run's duration,
    /// exit code and the last success (as it was) are written. A shard's samples (`shard`: `--shard K/N`) carry the
    /// labels `shard="K"` and `shards="N"`, so that the N files of one night can be told apart and summed.
    package static func render(
        _ report: NightlyReport?, status: ExitStatus, durationSeconds: Double, lastSuccessSeconds: Int64?,
        shard: ShardSelection? = nil, fetched: NightlyFetch.Outcome? = nil
    ) -> String {
        var lines: [String] = []
        let shardLabels = shard.map { ["shard=\"\($0.index)\"", "shards=\"\($0.count)\""] } ?? []
        func gauge(_ name: String, _ help: String, label: String = "kind", _ samples: [(String?, String)]) {
            lines.append("# HELP asn_migrate_nightly_\(name) \(help)")
            lines.append("# TYPE asn_migrate_nightly_\(name) gauge")
            for (value, sample) in samples {
                let labels = (value.map { ["\(label)=\"\($0)\""] } ?? []) + shardLabels
                let braces = labels.isEmpty ? "" : "{" + labels.joined(separator: ",") + "}"
                lines.append("asn_migrate_nightly_\(name)\(braces) \(sample)")
            }
        }
        if let report {
            let value = { (name: String) in report.metric(name) ?? "0" }
            // Per run.
            gauge(
                "run_differences", "Differences of this run: first confirmed (new) and resolved.",
                [
                    ("new", value("differences_new")), ("resolved", value("differences_resolved"))
                ])
            gauge(
                "run_resolved", "Differences resolved by this run, by how.",
                [
                    ("late_record", value("resolved_by_late_record")),
                    ("corrected_record", value("resolved_by_corrected_record")),
                    ("rule", value("resolved_by_rule"))
                ])
            gauge(
                "run_records", "Records of this run by side and fate; records replaced and pruned by it.",
                runRecordKinds.map { ($0, value($0)) })
            gauge(
                "run_files", "Input files of this run by what the ledger made of them.",
                runFileKinds.map { ($0, value("files_\($0)")) } + [("lines_deferred", value("lines_deferred"))])
            gauge(
                "run_unverified_zstd_frames",
                "zstd frames this run read without a content checksum (their data could not be checked; require-checksums rejects them).",
                [(nil, value("unverified_frames"))])
            // Levels of the state.
            gauge(
                "backlog", "Differences open and items pending after the run.",
                [
                    ("open", value("differences_open")), ("pending", value("pending"))
                ])
            gauge(
                "open_differences", "Open differences by kind.",
                Discrepancy.Kind.allCases.map { ($0.rawValue, value("open_\($0.rawValue)")) })
            gauge(
                "state_records", "Records held in the state, by side.", label: "side",
                [
                    ("v1", value("v1_records_in_state")), ("v2", value("v2_records_in_state"))
                ])
            gauge("ledger_files", "Files in the ledger.", [(nil, value("files_in_ledger"))])
            // Freshness.
            let newest = ["v1", "v2"].compactMap { side -> (String?, String)? in
                let text =
                    report.metric("\(side)_newest_record").flatMap { $0.isEmpty ? nil : $0 }
                    ?? report.metric("\(side)_newest_file").flatMap { $0.isEmpty ? nil : $0 }
                guard let text, let ms = Timestamp.parseISO8601(text) else { return nil }
                return (side, String(ms / 1000))
            }
            gauge(
                "side_newest_record_timestamp_seconds",
                "Unix time of a side's newest record (of its newest file when it sent no record).",
                label: "side", newest)
            gauge(
                "side_stale", "1 when a side's newest record is older than max-lag at the end of the run date.",
                label: "side",
                [
                    ("v1", value("v1_stale")), ("v2", value("v2_stale"))
                ])
            if report.metric("thresholds_checked") != nil {
                gauge(
                    "thresholds", "Threshold rules of the run: checked, and crossed by severity (warned, failed).",
                    [
                        ("checked", value("thresholds_checked")), ("warned", value("thresholds_warned")),
                        ("failed", value("thresholds_failed"))
                    ])
            }
        }
        if let fetched {
            gauge(
                "fetch_requests",
                "Requests to Apple's App Store Server API this run (nightly --fetch), retries included.",
                [(nil, String(fetched.figures.requests))])
            gauge(
                "fetch_retries", "Requests sent again this run (nightly --fetch).",
                [(nil, String(fetched.figures.retries))])
            gauge(
                "fetch_ids",
                "Subscriptions asked of Apple this run, and those it did not answer (asked again next night).",
                [("asked", String(fetched.idsAsked)), ("not_answered", String(fetched.notAnswered.count))])
        }
        gauge("run_duration_seconds", "Wall time of the run.", [(nil, String(format3(durationSeconds)))])
        gauge(
            "last_run_exit_code",
            "Exit code of the last run (0 clean, 1 findings, 2 failed, 3 sanity check or stale side, 64 usage, 69 ids Apple did not answer, 75 locked, 77 token refused).",
            [(nil, String(status.rawValue))])
        if let lastSuccessSeconds {
            gauge(
                "last_success_timestamp_seconds", "Unix time when a run last finished with exit status 0 or 1.",
                [(nil, String(lastSuccessSeconds))])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `last_success_timestamp_seconds` value of an earlier metrics file's text, if it has one.
    package static func lastSuccess(in text: String) -> Int64? {
        let name = "asn_migrate_nightly_last_success_timestamp_seconds"
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            var rest = line.dropFirst(name.count)
            if rest.first == "{" { // a shard's labels
                guard let close = rest.firstIndex(of: "}") else { continue }
                rest = rest[rest.index(after: close)...]
            }
            guard rest.first == " " else { continue }
            return Int64(rest.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Seconds with three decimals.
    private static func format3(_ value: Double) -> String {
        let ms = Int64((value * 1000).rounded())
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
