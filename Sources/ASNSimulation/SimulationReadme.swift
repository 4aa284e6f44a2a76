import ASNMigrateKit

/// The `README.txt` of a simulation directory: how it was made, what it holds, and how to check `reconcile` with it.
package enum SimulationReadme {
    /// The text for a finished run.
    package static func text(_ options: SimulationOptions, summary: Simulator.Summary, displayRoot: String) -> String {
        var lines: [String] = []
        lines.append(
            "asn-migrate simulate: simulated App Store Server Notifications, V1 and V2, with the differences injected on purpose."
        )
        lines.append("")
        lines.append("Parameters")
        lines.append("  subscribers           \(options.subscribers)")
        lines.append("  seed                  \(options.seed)")
        lines.append("  start                 \(Timestamp.iso8601(ms: options.start))")
        lines.append("  months                \(options.months)")
        lines.append("  end                   \(Timestamp.iso8601(ms: options.end))")
        lines.append("  inject rate           \(options.injectRate)")
        lines.append("  gzip                  \(options.gzip)")
        lines.append("  receipt history cap   \(options.receiptHistoryCap)")
        lines.append("  realistic edges       \(options.realisticEdges)")
        if let fetchAt = options.fetchAt { lines.append("  API view fetched at   \(Timestamp.iso8601(ms: fetchAt))") }
        lines.append(
            "  command               asn-migrate simulate --subscribers \(options.subscribers) --seed \(options.seed) --start \(Timestamp.day(ms: options.start)) --months \(options.months) --inject \(options.injectRate)\(options.receiptHistoryCap == 50 ? "" : " --receipt-history \(options.receiptHistoryCap)")\(options.realisticEdges ? " --realistic-edges" : "")\(options.fetchAt.map { " --fetch-at \(Timestamp.iso8601(ms: $0))" } ?? "")\(options.gzip ? " --gzip" : "")\(options.sign ? " --sign" : "") --out \(displayRoot)"
        )
        lines.append("")
        lines.append("Output")
        lines.append(
            "  v1 lines              \(summary.v1Lines) (\(summary.v1Bytes) bytes uncompressed; \(summary.v1Retries) exact retries; \(summary.lateDeliveries) late envelopes)"
        )
        lines.append(
            "  v2 lines              \(summary.v2Lines) (\(summary.v2Bytes) bytes uncompressed; \(summary.v2Retries) exact retries)"
        )
        let records = summary.eventKinds.values.reduce(0, +)
        let injected = summary.faults.values.reduce(0, +)
        lines.append(
            "  records               \(records) events (each a V1/V2 twin, a V1 companion or a V2-only notification)")
        lines.append(
            "  injected faults       "
                + (summary.faults.isEmpty
                    ? "none"
                    : summary.faults.keys.sorted().map { "\($0) \(summary.faults[$0] ?? 0)" }.joined(separator: ", "))
                + (injected > 0
                    ? " (\(injected) of \(records) records; records where the effect would be ambiguous are never perturbed)"
                    : ""))
        lines.append(
            "  API view faults       "
                + (summary.apiFaults.isEmpty
                    ? "none"
                    : summary.apiFaults.keys.sorted().map { "\($0) \(summary.apiFaults[$0] ?? 0)" }.joined(
                        separator: ", "))
                + " (truth-api.csv rows)")
        lines.append(
            "  event kinds           "
                + summary.eventKinds.keys.sorted().map { "\($0) \(summary.eventKinds[$0] ?? 0)" }.joined(
                    separator: ", "))
        lines.append("")
        lines.append("Files")
        lines.append(
            "  v1/YYYY-MM.jsonl      responseBodyV1 JSON Lines by UTC month of receipt; some in {\"received_at\": ISO, \"body\": {...}} envelopes."
        )
        if options.sign {
            lines.append(
                "  v2/YYYY-MM.jsonl      raw V2 bodies {\"signedPayload\": JWS} by UTC month of signedDate; every JWS is signed by a test CA."
            )
            lines.append(
                "  test-root.der         the test CA's root (DER): reconcile --verify-signatures --root-certificate \(displayRoot)/test-root.der"
            )
        } else {
            lines.append(
                "  v2/YYYY-MM.jsonl      raw V2 bodies {\"signedPayload\": JWS} by UTC month of signedDate; signatures are placeholders."
            )
        }
        lines.append(
            "  v2-api/               Apple's App Store Server API view: history-<environment>.jsonl (Get Transaction History pages,"
        )
        lines.append(
            "                        <= 20 transactions, revision, hasMore) and statuses-<environment>.jsonl (Get All Subscription"
        )
        lines.append(
            "                        Statuses, fetchedAt the end); "
                + (options.sign ? "every JWS is signed by the test CA." : "JWS signatures are placeholders."))
        lines.append(
            "  truth.csv             the differences reconcile --v1 v1 --v2 v2 must report, in differences.csv's columns (but price, currency) and order."
        )
        lines.append(
            "  truth-api.csv         the differences reconcile --v1 v1 --v2 v2-api must report, in the same columns and order."
        )
        lines.append("  truth-rejects.csv     the malformed lines reconcile must reject (side, source, reason-kind).")
        lines.append("")
        lines.append("Checking reconcile")
        lines.append(
            "  Run reconcile on \(displayRoot)/v1 and \(displayRoot)/v2 with the default window (48h), companion tolerance (10m)"
        )
        lines.append(
            "  and period; sources in the truth files are \(displayRoot)/<side>/<file>:<line>. The anchor subscription's first"
        )
        lines.append(
            options.realisticEdges
                ? "  and last events, at exactly the start and end on V1 and 1 s to 5 min later on V2, fix the period; every other record"
                : "  and last events, at exactly the start and end on both sides, fix the period; every other record lies at least a day"
        )
        lines.append(
            options.realisticEdges
                ? "  lies at least a day inside it. Without injection the expected differences are none."
                : "  inside it. Without injection the expected differences are none.")
        lines.append(
            "  Records are dropped (missing_in_v1/v2) only more than the window plus an hour inside the span, where no partner could"
        )
        lines.append(
            "  lie outside the data: nearer the edges reconcile reports an unpaired record as pending, not missing.")
        lines.append(
            "  Field values in truth.csv are rendered as migrate --format csv does: dates ISO 8601 UTC with milliseconds,"
        )
        lines.append(
            "  booleans true/false, codes as digits. conflicting_duplicate_v2 rows carry the V2 record's identity only."
        )
        lines.append(
            "  Against v2-api: a transaction dropped from the history (transaction_missing_in_v2), a changed history field"
        )
        lines.append(
            "  (transaction_field_mismatch), a changed status (state_mismatch); a lost V1 notification's transaction seen only in a"
        )
        lines.append(
            "  later receipt (unannounced_in_v1, that record its v1_source) or never again (transaction_missing_in_v1)."
        )
        lines.append(
            "  The rules that choose and describe each fault are documented in Sources/ASNSimulation/FaultInjector.swift"
        )
        lines.append("  and APIFaultInjector.swift.")
        return lines.joined(separator: "\n") + "\n"
    }
}
