@testable import ASNMigrateKit

/// Generated V1 records for the fast-path differential tests: realistic bodies and the shapes the fast path must
/// either handle exactly or decline (envelopes, legacy bodies, escapes, duplicates, wrong types).
enum FastV1Samples {
    /// A realistic body with `renewals` transactions; `extraTop` is spliced in as extra top-level members.
    static func body(
        type: String = "DID_RENEW", renewals: Int = 3, original: String = "9007199254740993",
        extraTop: String = "", transactionExtra: String = "", pendingExtra: String = ""
    ) -> String {
        var transactions: [String] = []
        for r in 0..<renewals {
            let purchase = 1_614_592_800_000 + Int64(r) * 2_592_000_000
            transactions.append(
                "{\"quantity\":\"1\",\"product_id\":\"pro.monthly\",\"transaction_id\":\"\(90_071_992_547_409_930 + r)\","
                    + "\"original_transaction_id\":\"\(original)\",\"purchase_date\":\"2021-03-01 10:00:00 Etc/GMT\","
                    + "\"purchase_date_ms\":\"\(purchase)\",\"original_purchase_date_ms\":\"1614592800000\","
                    + "\"expires_date_ms\":\"\(purchase + 2_592_000_000)\",\"web_order_line_item_id\":\"\(1000 + r)\","
                    + "\"is_trial_period\":\"\(r == 0)\",\"is_in_intro_offer_period\":\"false\",\"in_app_ownership_type\":\"PURCHASED\","
                    + "\"subscription_group_identifier\":\"20537620\"\(transactionExtra)}")
        }
        return
            "{\"notification_type\":\"\(type)\",\"password\":\"s3cr3t\",\"environment\":\"PROD\",\"bid\":\"com.example.app\","
            + "\"bvrs\":\"42\",\"auto_renew_status\":\"true\",\"auto_renew_product_id\":\"pro.monthly\","
            + "\"auto_renew_status_change_date_ms\":\"1614592800000\",\"original_transaction_id\":\(original)\(extraTop),"
            + "\"unified_receipt\":{\"status\":0,\"environment\":\"Production\",\"latest_receipt\":\"TUlJU2VjcmV0\","
            + "\"latest_receipt_info\":[\(transactions.joined(separator: ","))],"
            + "\"pending_renewal_info\":[{\"auto_renew_product_id\":\"pro.monthly\",\"product_id\":\"pro.monthly\","
            + "\"original_transaction_id\":\"\(original)\",\"auto_renew_status\":\"1\"\(pendingExtra)}]}}"
    }

    /// Variants covering every decoding rule, each a whole record.
    static var variants: [String] {
        var all: [String] = []
        for type in [
            "INITIAL_BUY", "DID_RENEW", "DID_RECOVER", "RENEWAL", "INTERACTIVE_RENEWAL", "DID_CHANGE_RENEWAL_PREF",
            "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "CANCEL", "REFUND", "REVOKE", "CONSUMPTION_REQUEST",
            "PRICE_INCREASE_CONSENT", "SOMETHING_NEW"
        ] {
            all.append(body(type: type))
            all.append(body(type: type, renewals: 0))
        }
        all += [
            // Escapes, unicode and JSONWriter's re-escaping in fields the mapping does and does not read.
            body(extraTop: ",\"note\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/ \\t \\u0001 \\b\\f\\n\\r ünï😀\""),
            body(extraTop: ",\"bid\":\"com.ex\\u0061mple\""),
            body(transactionExtra: ",\"product_id\":\"pro\\/monthly\""),
            body(extraTop: ",\"ünïcödé\":\"ключ\",\"z\":[1,-0,2.5e-3,1E+400,123456789012345678901234567890]"),
            // Duplicate keys: the last wins, in lookups and in the canonical form.
            body(extraTop: ",\"bid\":\"first\",\"bid\":\"second\",\"notification_type\":\"DID_RECOVER\""),
            body(transactionExtra: ",\"expires_date_ms\":\"1\",\"expires_date_ms\":\"1700000000000\""),
            // Types the tolerant reader accepts or refuses.
            body(extraTop: ",\"auto_renew_status\":true,\"bvrs\":42,\"expiration_intent\":1"),
            body(extraTop: ",\"auto_renew_status\":\"TRUE\""),
            body(extraTop: ",\"auto_renew_status\":\" yes \""),
            body(extraTop: ",\"auto_renew_status\":\"maybe\""),
            body(extraTop: ",\"auto_renew_status\":null,\"bid\":\"\""),
            body(extraTop: ",\"original_transaction_id\":1.5"),
            body(extraTop: ",\"original_transaction_id\":\" 123 \""),
            body(extraTop: ",\"expiration_intent\":\"x\""),
            body(extraTop: ",\"cancellation_date_ms\":\"soon\""),
            body(extraTop: ",\"cancellation_date\":\"2021-03-01 07:00:00 Etc/GMT\""),
            body(extraTop: ",\"cancellation_date\":\"1614582000000\""),
            body(extraTop: ",\"cancellation_date\":1614582000000"),
            body(extraTop: ",\"cancellation_date\":\"yesterday\""),
            body(extraTop: ",\"unified_receipt_x\":1,\"bid\":[1]"),
            body(extraTop: ",\"notification_type\":5"),
            body(extraTop: ",\"notification_type\":\"\""),
            body(extraTop: ",\"notification_type\":null"),
            body(
                transactionExtra:
                    ",\"quantity\":2,\"is_upgraded\":1,\"cancellation_reason\":\"0\",\"offer_code_ref_name\":\"SPRING\""
            ),
            body(transactionExtra: ",\"purchase_date_ms\":12345678901234567890"),
            body(transactionExtra: ",\"is_trial_period\":\"0\""),
            body(transactionExtra: ",\"is_upgraded\":2"),
            body(
                pendingExtra:
                    ",\"is_in_billing_retry_period\":\"1\",\"expiration_intent\":\"2\",\"grace_period_expires_date_ms\":\"1900000000000\""
            ),
            body(
                pendingExtra:
                    ",\"price_consent_status\":\"1\",\"grace_period_expires_date\":\"2031-01-01 00:00:00 Etc/GMT\""),
            "{\"notification_type\":\"DID_RENEW\",\"unified_receipt\":{\"latest_receipt_info\":[1]}}",
            "{\"notification_type\":\"DID_RENEW\",\"unified_receipt\":\"x\"}",
            "{\"notification_type\":\"DID_RENEW\",\"unified_receipt\":{\"latest_receipt_info\":{\"transaction_id\":\"1\",\"purchase_date_ms\":\"5\"}}}",
            // Legacy bodies: top-level receipt info (object or array) and expired info; digit `expires_date`.
            "{\"notification_type\":\"RENEWAL\",\"environment\":\"Sandbox\",\"latest_receipt_info\":{\"transaction_id\":\"7\",\"original_transaction_id\":\"7\","
                + "\"product_id\":\"p\",\"purchase_date_ms\":\"1614592800000\",\"expires_date\":\"1617271200000\"},"
                + "\"latest_expired_receipt_info\":[{\"transaction_id\":\"6\",\"original_transaction_id\":\"7\",\"purchase_date_ms\":\"1611914400000\"}],"
                + "\"latest_expired_receipt\":\"secret\",\"latest_receipt\":\"secret\",\"pending_renewal_info\":[{\"auto_renew_status\":\"0\"}]}",
            "{\"notification_type\":\"RENEWAL\",\"latest_receipt_info\":[{\"transaction_id\":\"7\"},{\"transaction_id\":\"7\",\"product_id\":\"p\"}]}",
            // Envelopes: object bodies with receive times, string-held bodies, nothing usable.
            "{\"received_at\":\"2021-03-01T10:00:00Z\",\"body\":\(body(type: "DID_RENEW"))}",
            "{\"receivedAt\":1614592800000,\"payload\":{\"time\":5,\"data\":\(body(type: "CANCEL"))}}",
            "{\"timestamp\":1614592800,\"notification\":\(body(type: "INITIAL_BUY"))}",
            "{\"time\":null,\"body\":7,\"data\":\(body(type: "DID_RENEW"))}",
            "{\"received_at\":\"never\",\"body\":\(body())}",
            "{\"received_at\":[1],\"body\":\(body())}",
            "{\"body\":\"{\\\"notification_type\\\":\\\"DID_RENEW\\\"}\"}",
            "{\"body\":\"not json\"}",
            "{\"body\":{\"body\":{\"body\":{\"body\":\(body())}}}}",
            "{\"body\":{\"body\":{\"body\":\(body())}}}",
            "{\"nothing\":1}",
            "[1,2]", "\"text\"", "42", "null", "{}",
            // Keys with escapes and secrets spelled with escapes.
            "{\"notification_type\":\"DID_RENEW\",\"pass\\u0077ord\":\"x\",\"b\\u0069d\":\"y\"}",
            "{\"notification_t\\u0079pe\":\"DID_RENEW\"}",
            // Whitespace, pretty printing.
            " {\n  \"notification_type\" : \"DID_RENEW\" ,\r\n\t\"bid\" : \"b\" \n} "
        ]
        return all
    }
}
