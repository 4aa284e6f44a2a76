import Foundation

/// The reconcile baseline: one Python process with orjson that does less than `reconcile` on the same bytes.
/// It parses both sides, decodes each V2 JWS payload and its nested transaction and renewal JWS, joins on environment +
/// `originalTransactionId` + `webOrderLineItemId` in a dict, and counts matches and missing: no windows, passes, state
/// or reports. Skipped, and said so, when `python3` or `orjson` is missing.
enum PythonJoinBaseline {
    /// The script: `join.py V1FILE... -- V2FILE...`; prints `v1 v2 matched missing_in_v2 missing_in_v1 rejects`.
    static let script = #"""
        import sys, base64, orjson
        def jws(token):
            payload = token.split(".")[1]
            return orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        def environment(name):
            return "Sandbox" if (name or "").lower() == "sandbox" else "Production"
        split = sys.argv.index("--")
        v1_files, v2_files = sys.argv[1:split], sys.argv[split + 1:]
        expected, rejects, v1, v2 = {}, 0, 0, 0
        for path in v1_files:
            with open(path, "rb") as f:
                for line in f:
                    try:
                        record = orjson.loads(line)
                    except orjson.JSONDecodeError:
                        rejects += 1
                        continue
                    body = record.get("body", record) if "notification_type" not in record else record
                    if not isinstance(body, dict):
                        rejects += 1
                        continue
                    v1 += 1
                    receipts = (body.get("unified_receipt") or {}).get("latest_receipt_info") or []
                    newest = max(receipts, key=lambda t: int(t.get("purchase_date_ms") or 0), default={})
                    key = (environment(body.get("environment")), newest.get("original_transaction_id"),
                           newest.get("web_order_line_item_id"))
                    expected[key] = expected.get(key, 0) + 1
        matched = 0
        missing_in_v1 = 0
        for path in v2_files:
            with open(path, "rb") as f:
                for line in f:
                    try:
                        record = orjson.loads(line)
                        payload = jws(record["signedPayload"]) if "signedPayload" in record else record
                        data = payload.get("data") or {}
                        transaction = jws(data["signedTransactionInfo"]) if "signedTransactionInfo" in data else {}
                        if "signedRenewalInfo" in data:
                            jws(data["signedRenewalInfo"])
                    except (orjson.JSONDecodeError, KeyError, IndexError, ValueError, AttributeError):
                        rejects += 1
                        continue
                    v2 += 1
                    key = (environment(data.get("environment")), transaction.get("originalTransactionId"),
                           transaction.get("webOrderLineItemId"))
                    if expected.get(key, 0) > 0:
                        expected[key] -= 1
                        matched += 1
                    else:
                        missing_in_v1 += 1
        print(v1, v2, matched, sum(expected.values()), missing_in_v1, rejects)
        """#

    /// Runs the join over `v1` and `v2` once, after writing the script to `folder`; its counts are on standard output.
    static func run(v1: [String], v2: [String], folder: String) throws -> (result: ChildProcess.Result, counts: String)
    {
        guard let python = PythonBaseline.python3() else { throw BenchError("python3 not found") }
        return try runJoin(
            script, named: "reconcile_join_orjson", what: "the Python + orjson join", python: python, v1: v1, v2: v2,
            folder: folder)
    }

    /// Writes a join script `script` to `folder/<name>.py` and runs it once with `python` over `v1 -- v2`; its counts
    /// line, from standard output, comes back with the run's figures. `what` names it in an error.
    static func runJoin(
        _ script: String, named name: String, what: String, python: String, v1: [String], v2: [String], folder: String
    ) throws -> (result: ChildProcess.Result, counts: String) {
        let path = "\(folder)/\(name).py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let counts = "\(folder)/\(name).out"
        let result = try ChildProcess.run(python, [path] + v1 + ["--"] + v2, stdoutPath: counts)
        guard result.status == 0 else { throw BenchError("\(what) exited with \(result.status)") }
        let text = (try? String(contentsOfFile: counts, encoding: .utf8)) ?? ""
        return (result, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
