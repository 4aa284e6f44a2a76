/// `nightly`'s threshold figures, beside the night's summary they are read from.
extension ThresholdFigures {
    /// `nightly`'s catalog: every difference kind (counted in the night's `new.csv`), every whole-number
    /// `summary.csv` figure of a night, and `rejects`.
    package static let nightly: Catalog = {
        let names = Set(nightlySummaryNames + Discrepancy.Kind.allCases.map(\.rawValue) + ["rejects", "records_read"])
        var of: [String: String] = [
            "rejects": "records_read", "v1_rejected": "v1_records_read", "v2_rejected": "v2_records_read"
        ]
        for kind in Discrepancy.Kind.allCases { of[kind.rawValue] = "differences_open" }
        for name in [
            "missing_in_v2", "type_mismatch", "field_mismatch", "unmapped_v1", "transaction_missing_in_v2",
            "unannounced_in_v1"
        ] {
            of[name] = "v1_records_read"
        }
        for name in ["missing_in_v1", "conflicting_duplicate_v2", "transaction_missing_in_v1"] {
            of[name] = "v2_records_read"
        }
        of["state_mismatch"] = "differences_open"
        return Catalog(names: names, denominators: of)
    }()

    /// The whole-number figures of a nightly `summary.csv` (`NightlyReport.collect`).
    static var nightlySummaryNames: [String] {
        NightlyReport.summedRunColumns + [
            "differences_new", "differences_resolved", "resolved_by_late_record", "resolved_by_corrected_record",
            "resolved_by_rule", "differences_open"
        ]
            + Discrepancy.Kind.allCases.map { "open_\($0.rawValue)" }
            + [
                "pending", "rejected", "v1_records_in_state", "v2_records_in_state", "files_in_ledger", "window_ms",
                "settle_ms"
            ]
    }

    /// A night's figures: its `summary.csv` counts, the night's new differences per kind, `rejects` and `records_read`.
    package static func nightly(metrics: [(String, String)], new: [Discrepancy.Kind]) -> ThresholdFigures {
        var counts: [String: Int] = [:]
        for (name, value) in metrics where SummaryJSON.isCount(value) { counts[name] = Int(value) ?? 0 }
        for kind in Discrepancy.Kind.allCases { counts[kind.rawValue] = 0 }
        for kind in new { counts[kind.rawValue, default: 0] += 1 }
        counts["rejects"] = counts["rejected"] ?? 0
        counts["records_read"] = (counts["v1_records_read"] ?? 0) + (counts["v2_records_read"] ?? 0)
        return ThresholdFigures(counts: counts, catalog: nightly)
    }
}
