@testable import ASNMigrateKit

/// Random V1 bodies for `TapeMigratorTests`: every field the mapping reads, present or not, in the spellings the
/// readers accept, with the ties, duplicates, several subscriptions and missing ids that steer `MappingContext`.
enum TapeMigratorSamples {
    /// The V1 types of the rules, and one no rule names.
    static let types = [
        "INITIAL_BUY", "DID_RENEW", "DID_RECOVER", "RENEWAL", "INTERACTIVE_RENEWAL", "DID_CHANGE_RENEWAL_PREF",
        "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "CANCEL", "REFUND", "REVOKE", "CONSUMPTION_REQUEST",
        "PRICE_INCREASE_CONSENT", "SOMETHING_NEW"
    ]

    /// One random body (sometimes in an envelope with a receive time).
    static func body(using random: inout SplitMix64) -> String {
        var members: [String] = []
        func maybe(_ chance: Int, _ member: @autoclosure () -> String) {
            if random.oneIn(chance) { members.append(member()) }
        }
        let type = random.pick(types)
        members.append("\"notification_type\":\"\(type)\"")
        members.append("\"password\":\"secret\"")
        maybe(
            2, "\"environment\":\(random.pick(["\"PROD\"", "\"Sandbox\"", "\"production\"", "\"Weird\"", "true", "7"]))"
        )
        maybe(2, "\"bid\":\"com.example.app\"")
        maybe(3, "\"bvrs\":\(random.pick(["\"42\"", "43", "\"1.2.3\""]))")
        maybe(2, "\"auto_renew_status\":\(random.pick(["\"true\"", "\"false\"", "true", "false", "\"1\"", "0"]))")
        maybe(2, "\"auto_renew_product_id\":\"\(random.pick(products))\"")
        maybe(3, "\"auto_renew_status_change_date_ms\":\"\(date(&random))\"")
        maybe(
            2,
            "\"original_transaction_id\":\(random.pick(["\"1000\"", "1000", "\"2000\"", "\"0001000\"", "\"\""]))")
        maybe(5, "\"cancellation_date_ms\":\"\(date(&random))\"")
        maybe(5, "\"web_order_line_item_id\":\"55\"")
        maybe(5, "\"expiration_intent\":\(random.pick(["\"1\"", "\"01\"", "2", "\"3\""]))")
        maybe(6, "\"is_in_billing_retry_period\":\(random.pick(["\"true\"", "\"0\"", "false"]))")
        if random.below(10) > 0 {
            var unified: [String] = ["\"status\":0", "\"latest_receipt\":\"TUlJ\""]
            if random.oneIn(2) { unified.append("\"environment\":\"\(random.pick(["Production", "Sandbox"]))\"") }
            let count = random.pick([0, 1, 2, 3, 5, 8, 13])
            unified.append(
                "\"latest_receipt_info\":[\((0..<count).map { _ in entry(&random) }.joined(separator: ","))]")
            let pendingCount = random.pick([0, 1, 1, 1, 2, 3])
            if pendingCount > 0 || random.oneIn(2) {
                unified.append(
                    "\"pending_renewal_info\":[\((0..<pendingCount).map { _ in pending(&random) }.joined(separator: ","))]"
                )
            }
            members.append("\"unified_receipt\":{\(unified.joined(separator: ","))}")
        }
        maybe(
            8, "\"latest_receipt_info\":\(random.oneIn(2) ? entry(&random) : "[\(entry(&random)),\(entry(&random))]")")
        maybe(10, "\"latest_expired_receipt_info\":[\(entry(&random))]")
        maybe(10, "\"pending_renewal_info\":[\(pending(&random))]")
        // Shuffle the members a little: order must not matter (the notificationUUID's canonical form sorts them).
        if random.oneIn(3) { members.reverse() }
        let body = "{\(members.joined(separator: ","))}"
        switch random.below(8) {
        case 0: return "{\"received_at\":\(date(&random)),\"body\":\(body)}"
        case 1: return "{\"receivedAt\":\"2021-06-01T10:00:00Z\",\"payload\":\(body)}"
        default: return body
        }
    }

    // MARK: - Private

    /// The products the bodies use.
    private static let products = ["pro.monthly", "pro.yearly", "basic.monthly"]

    /// A date: a few fixed months apart, often equal to another (ties), sometimes a minute off.
    private static func date(_ random: inout SplitMix64) -> Int64 {
        let base: Int64 = 1_609_459_200_000 + Int64(random.below(8)) * 2_592_000_000
        return random.oneIn(3) ? base + Int64(random.below(120)) * 60_000 : base
    }

    /// One receipt entry.
    private static func entry(_ random: inout SplitMix64) -> String {
        var m: [String] = []
        func maybe(_ chance: Int, _ member: @autoclosure () -> String) {
            if random.oneIn(chance) { m.append(member()) }
        }
        maybe(
            1 + random.below(2),
            "\"transaction_id\":\"\(random.pick(["1000", "1001", "1002", "1003", "0999", "1004"]))\"")
        maybe(1 + random.below(3), "\"original_transaction_id\":\(random.pick(["\"1000\"", "1000", "\"2000\""]))")
        maybe(1 + random.below(2), "\"product_id\":\"\(random.pick(products))\"")
        maybe(1 + random.below(2), "\"purchase_date_ms\":\"\(date(&random))\"")
        maybe(4, "\"purchase_date\":\"2021-03-01 10:00:00 Etc/GMT\"")
        maybe(3, "\"original_purchase_date_ms\":\(date(&random))")
        maybe(1 + random.below(2), "\"expires_date_ms\":\"\(date(&random) + 2_592_000_000)\"")
        maybe(6, "\"cancellation_date_ms\":\"\(date(&random))\"")
        maybe(6, "\"cancellation_reason\":\(random.pick(["\"0\"", "1", "\"99999999999999999999\""]))")
        maybe(3, "\"quantity\":\(random.pick(["\"1\"", "2", "\"007\"", "\"99999999999999999999\""]))")
        maybe(4, "\"is_trial_period\":\(random.pick(["\"true\"", "\"false\"", "true", "\"1\""]))")
        maybe(5, "\"is_in_intro_offer_period\":\(random.pick(["\"true\"", "\"false\""]))")
        maybe(7, "\"is_upgraded\":\(random.pick(["\"true\"", "\"false\"", "1"]))")
        maybe(7, "\"offer_code_ref_name\":\"SPRING\"")
        maybe(7, "\"promotional_offer_id\":\"promo1\"")
        maybe(3, "\"web_order_line_item_id\":\"\(random.below(5))\"")
        maybe(3, "\"subscription_group_identifier\":\"20537620\"")
        maybe(3, "\"in_app_ownership_type\":\"\(random.pick(["PURCHASED", "FAMILY_SHARED"]))\"")
        maybe(6, "\"app_account_token\":\"5b2b5c2e-8f7e-4c39-9b7e-2f8b1c0d9e11\"")
        maybe(8, "\"bid\":\"com.example.other\"")
        maybe(8, "\"bvrs\":\"9\"")
        return "{\(m.joined(separator: ","))}"
    }

    /// One renewal entry.
    private static func pending(_ random: inout SplitMix64) -> String {
        var m: [String] = []
        func maybe(_ chance: Int, _ member: @autoclosure () -> String) {
            if random.oneIn(chance) { m.append(member()) }
        }
        maybe(2, "\"auto_renew_product_id\":\"\(random.pick(products))\"")
        maybe(2, "\"product_id\":\"\(random.pick(products))\"")
        maybe(2, "\"original_transaction_id\":\"\(random.pick(["1000", "2000"]))\"")
        maybe(2, "\"auto_renew_status\":\"\(random.pick(["1", "0"]))\"")
        maybe(4, "\"expiration_intent\":\"\(random.pick(["1", "2", "01"]))\"")
        maybe(4, "\"grace_period_expires_date_ms\":\"\(date(&random))\"")
        maybe(4, "\"is_in_billing_retry_period\":\"\(random.pick(["1", "0"]))\"")
        maybe(4, "\"price_consent_status\":\"\(random.pick(["1", "0", "00"]))\"")
        maybe(6, "\"offer_code_ref_name\":\"WINTER\"")
        maybe(6, "\"promotional_offer_id\":\"promo2\"")
        return "{\(m.joined(separator: ","))}"
    }
}
