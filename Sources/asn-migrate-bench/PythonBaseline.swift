import Foundation

/// The baseline a team might write in an afternoon: one Python process with orjson doing `migrate`'s job on the same
/// bytes (parse, drop the secrets, canonical JSON → UUIDv5, pick the newest transaction, map, write V2 JSON Lines).
/// Skipped, and said so, when `python3` or `orjson` is missing.
enum PythonBaseline {
    /// The script: reads the files named on its command line, writes V2 JSON Lines to standard output.
    static let script = #"""
        import sys, uuid, orjson
        NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
        SECRETS = ("password", "latest_receipt", "latest_expired_receipt")
        TYPES = {"INITIAL_BUY": ("SUBSCRIBED", "INITIAL_BUY"), "DID_RENEW": ("DID_RENEW", None),
                 "INTERACTIVE_RENEWAL": ("SUBSCRIBED", "RESUBSCRIBE"), "DID_RECOVER": ("DID_RENEW", "BILLING_RECOVERY"),
                 "DID_FAIL_TO_RENEW": ("DID_FAIL_TO_RENEW", None), "CANCEL": ("REFUND", None),
                 "DID_CHANGE_RENEWAL_STATUS": ("DID_CHANGE_RENEWAL_STATUS", None),
                 "DID_CHANGE_RENEWAL_PREF": ("DID_CHANGE_RENEWAL_PREF", None), "REFUND": ("REFUND", None),
                 "REVOKE": ("REVOKE", None), "PRICE_INCREASE_CONSENT": ("PRICE_INCREASE", "ACCEPTED"),
                 "CONSUMPTION_REQUEST": ("CONSUMPTION_REQUEST", None), "RENEWAL": ("DID_RENEW", "BILLING_RECOVERY")}
        def strip(value):
            if isinstance(value, dict):
                return {k: strip(v) for k, v in value.items() if k not in SECRETS}
            if isinstance(value, list):
                return [strip(v) for v in value]
            return value
        def ms(value):
            try:
                return int(value)
            except (TypeError, ValueError):
                return None
        out = sys.stdout.buffer
        rejects = 0
        for path in sys.argv[1:]:
            with open(path, "rb") as f:
                for line in f:
                    try:
                        record = orjson.loads(line)
                    except orjson.JSONDecodeError:
                        rejects += 1
                        continue
                    received = record.get("received_at")
                    body = record.get("body", record) if "notification_type" not in record else record
                    body = strip(body)
                    canonical = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
                    notification_uuid = str(uuid.uuid5(NAMESPACE, canonical.decode("utf-8")))
                    unified = body.get("unified_receipt") or {}
                    transactions = unified.get("latest_receipt_info") or []
                    newest = max(transactions, key=lambda t: ms(t.get("purchase_date_ms")) or 0, default={})
                    kind, subtype = TYPES.get(body.get("notification_type"), (None, None))
                    if kind is None:
                        rejects += 1
                        continue
                    pending = (unified.get("pending_renewal_info") or [{}])[0]
                    v2 = {"notificationType": kind, "notificationUUID": notification_uuid, "version": "2.0",
                          "signedDate": received if isinstance(received, int) else ms(newest.get("purchase_date_ms")),
                          "data": {"bundleId": body.get("bid"), "bundleVersion": body.get("bvrs"),
                                   "environment": "Sandbox" if body.get("environment") == "Sandbox" else "Production",
                                   "transactionInfo": {"transactionId": newest.get("transaction_id"),
                                                       "originalTransactionId": newest.get("original_transaction_id"),
                                                       "webOrderLineItemId": newest.get("web_order_line_item_id"),
                                                       "productId": newest.get("product_id"),
                                                       "subscriptionGroupIdentifier": newest.get("subscription_group_identifier"),
                                                       "purchaseDate": ms(newest.get("purchase_date_ms")),
                                                       "originalPurchaseDate": ms(newest.get("original_purchase_date_ms")),
                                                       "expiresDate": ms(newest.get("expires_date_ms")),
                                                       "quantity": ms(newest.get("quantity")),
                                                       "inAppOwnershipType": newest.get("in_app_ownership_type")},
                                   "renewalInfo": {"autoRenewProductId": pending.get("auto_renew_product_id"),
                                                   "autoRenewStatus": 1 if pending.get("auto_renew_status") in ("1", "true") else 0}}}
                    if subtype is not None:
                        v2["subtype"] = subtype
                    out.write(orjson.dumps(v2))
                    out.write(b"\n")
        print(rejects, file=sys.stderr)
        """#

    /// Whether `python3` with `orjson` can run here.
    static func available() -> Bool {
        guard let python = python3() else { return false }
        guard let result = try? ChildProcess.run(python, ["-c", "import orjson"]) else { return false }
        return result.status == 0
    }

    /// Runs the script over `files` once (output to /dev/null), after writing it to `folder`.
    static func run(_ files: [String], folder: String) throws -> ChildProcess.Result {
        guard let python = python3() else { throw BenchError("python3 not found") }
        let path = "\(folder)/migrate_orjson.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(python, [path] + files)
        guard result.status == 0 else { throw BenchError("the Python + orjson baseline exited with \(result.status)") }
        return result
    }

    /// The first `python3` on `PATH`, resolved to a file (pyenv shims included).
    static func python3() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
