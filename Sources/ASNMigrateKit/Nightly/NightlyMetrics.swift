/// The run's figures in the Prometheus text exposition format, for node_exporter's textfile collector.
public enum NightlyMetrics {
    /// Renders the metrics: `asn_migrate_nightly_*` gauges, the counted ones with a `kind` label.
    public static func render(_ report: NightlyReport?, status: ExitStatus, durationSeconds: Double, lastSuccessSeconds: Int64?) -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ samples: [(String?, String)]) {
            lines.append("# HELP asn_migrate_nightly_\(name) \(help)")
            lines.append("# TYPE asn_migrate_nightly_\(name) gauge")
            for (kind, value) in samples {
                lines.append("asn_migrate_nightly_\(name)\(kind.map { "{kind=\"\($0)\"}" } ?? "") \(value)")
            }
        }
        if let report {
            let value = { (name: String) in report.metric(name) ?? "0" }
            gauge("differences", "Differences of the run: new, resolved, open, pending.", [
                ("new", value("differences_new")), ("resolved", value("differences_resolved")),
                ("open", value("differences_open")), ("pending", value("pending")),
            ])
            gauge("open_differences", "Open differences by kind.", Discrepancy.Kind.allCases.map { ($0.rawValue, value("open_\($0.rawValue)")) })
            gauge("resolved", "Differences resolved by the run, by how.", [
                ("late_record", value("resolved_by_late_record")), ("corrected_record", value("resolved_by_corrected_record")),
                ("rule", value("resolved_by_rule")),
            ])
            gauge("records", "Records of the run by side and fate, and records held in the state.",
                  ["v1_records_read", "v1_records_stored", "v1_duplicates", "v1_other_environment", "v1_rejected",
                   "v2_records_read", "v2_records_stored", "v2_duplicates", "v2_other_environment", "v2_rejected",
                   "v1_records_in_state", "v2_records_in_state", "records_replaced", "records_pruned"].map { ($0, value($0)) })
            gauge("files", "Input files ingested and vanished in the run, and files in the ledger.", [
                ("ingested", value("files_ingested")), ("vanished", value("files_vanished")), ("ledger", value("files_in_ledger")),
            ])
            if report.metric("thresholds_checked") != nil {
                gauge("thresholds", "Threshold rules of the run: checked, and crossed by severity (warned, failed).", [
                    ("checked", value("thresholds_checked")), ("warned", value("thresholds_warned")), ("failed", value("thresholds_failed")),
                ])
            }
        }
        gauge("run_duration_seconds", "Wall time of the run.", [(nil, String(format3(durationSeconds)))])
        gauge("exit_status", "Exit status of the run (0 clean, 1 findings, 2 failed, 3 sanity check, 64 usage, 75 locked).", [(nil, String(status.rawValue))])
        if let lastSuccessSeconds {
            gauge("last_success_timestamp_seconds", "Unix time when a run last finished with exit status 0 or 1.", [(nil, String(lastSuccessSeconds))])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with three decimals.
    private static func format3(_ value: Double) -> String {
        let ms = Int64((value * 1000).rounded())
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
