import Foundation

@testable import ASNMigrateKit

/// Builds self-written V1 bodies as JSON text for tests.
enum V1Fixture {
    /// Milliseconds for an ISO 8601 instant; crashes the test on a typo.
    static func ms(_ iso: String) -> Int64 {
        guard let value = Timestamp.parseISO8601(iso) else { fatalError("bad fixture date \(iso)") }
        return value
    }

    /// A `latest_receipt_info` entry.
    static func tx(
        id: String, original: String = "1000000001", product: String = "pro.monthly",
        purchase: String, expires: String?, webOrder: String? = nil, extra: [String: String] = [:]
    ) -> String {
        var fields: [(String, String)] = [
            ("transaction_id", id), ("original_transaction_id", original), ("product_id", product),
            ("purchase_date_ms", String(ms(purchase))),
            ("original_purchase_date_ms", String(ms("2021-01-01T00:00:00Z"))),
            ("quantity", "1"), ("is_trial_period", "false"), ("is_in_intro_offer_period", "false"),
            ("subscription_group_identifier", "20000001"), ("in_app_ownership_type", "PURCHASED")
        ]
        if let expires { fields.append(("expires_date_ms", String(ms(expires)))) }
        fields.append(("web_order_line_item_id", webOrder ?? "5" + id))
        for key in extra.keys.sorted() { fields.append((key, extra[key] ?? "")) }
        return object(fields)
    }

    /// A `pending_renewal_info` entry.
    static func pending(
        original: String = "1000000001", product: String = "pro.monthly", autoRenewProduct: String = "pro.monthly",
        status: String = "1", extra: [String: String] = [:]
    ) -> String {
        var fields: [(String, String)] = [
            ("original_transaction_id", original), ("product_id", product),
            ("auto_renew_product_id", autoRenewProduct), ("auto_renew_status", status)
        ]
        for key in extra.keys.sorted() { fields.append((key, extra[key] ?? "")) }
        return object(fields)
    }

    /// A whole body; `top` holds extra top-level string fields.
    static func body(
        type: String, top: [String: String] = [:], transactions: [String], pending: [String] = [],
        environment: String = "PROD", autoRenewStatus: String? = "true"
    ) -> String {
        var parts = [
            "\"notification_type\":\"\(type)\"", "\"environment\":\"\(environment)\"",
            "\"password\":\"s3cr3t-shared-secret\"", "\"bid\":\"com.example.app\"", "\"bvrs\":\"42\""
        ]
        if let autoRenewStatus { parts.append("\"auto_renew_status\":\"\(autoRenewStatus)\"") }
        for key in top.keys.sorted() { parts.append("\"\(key)\":\"\(top[key] ?? "")\"") }
        let unified =
            "{\"environment\":\"\(environment == "PROD" ? "Production" : environment)\",\"latest_receipt\":\"TUlJU2VjcmV0UmVjZWlwdA==\",\"status\":0,"
            + "\"latest_receipt_info\":[\(transactions.joined(separator: ","))],\"pending_renewal_info\":[\(pending.joined(separator: ","))]}"
        parts.append("\"unified_receipt\":\(unified)")
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// Maps a body text with the built-in table.
    static func map(_ text: String, path: String = "fixture.json") throws -> V1RecordOutcome {
        let mapper = V1RecordMapper(table: try MappingTable.builtIn())
        return mapper.map(RawRecord(location: SourceLocation(path: path, line: 1), bytes: Array(text.utf8)))
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
    }
}

extension V1RecordOutcome {
    /// The payload when migrated.
    var payload: ResponseBodyV2DecodedPayload? {
        if case .migrated(let p) = self { return p }
        return nil
    }

    /// The error when rejected.
    var rejection: ASNError? {
        if case .rejected(let e) = self { return e }
        return nil
    }

    /// The unmapped record when unmapped.
    var unmappedRecord: UnmappedNotification? {
        if case .unmapped(let u) = self { return u }
        return nil
    }
}
