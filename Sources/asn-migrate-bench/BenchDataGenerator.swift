import Foundation

/// Something that writes V1 JSON Lines benchmark data of roughly a given size into a folder.
protocol BenchDataGenerator {
    /// A short name for the report.
    var name: String { get }
    /// Writes about `bytes` bytes of V1 JSON Lines to `file`; returns the number of records written.
    func generate(bytes: Int, to file: String) throws -> Int
}

/// The built-in generator: realistic V1 bodies of 10–50 KB (a base64 `latest_receipt`, a `latest_receipt_info`
/// growing with each renewal, `pending_renewal_info`), deterministic for a seed, mixed notification types,
/// IDs above 2^53, a few escaped and non-ASCII strings.
struct InternalV1Generator: BenchDataGenerator {
    /// The seed of the pseudo-random stream.
    var seed: UInt64 = 20_240_123
    /// "internal V1 generator".
    var name: String { "internal V1 generator (seed \(seed))" }

    /// Writes the records, 4 MiB at a time.
    func generate(bytes: Int, to file: String) throws -> Int {
        guard let handle = FileHandle(forWritingAtPath: file) ?? {
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            return FileHandle(forWritingAtPath: file)
        }() else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        var random = BenchRandom(seed: seed)
        var written = 0
        var records = 0
        var buffer: [UInt8] = []
        buffer.reserveCapacity(5 << 20)
        while written < bytes {
            appendRecord(&buffer, number: records, random: &random)
            buffer.append(0x0A)
            records += 1
            if buffer.count >= 4 << 20 {
                try handle.write(contentsOf: buffer)
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try handle.write(contentsOf: buffer) }
        return records
    }

    // MARK: - Private

    private static let types = [
        "DID_RENEW", "DID_RENEW", "DID_RENEW", "DID_RENEW", "INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS",
        "DID_CHANGE_RENEWAL_PREF", "DID_FAIL_TO_RENEW", "DID_RECOVER", "INTERACTIVE_RENEWAL", "CANCEL", "PRICE_INCREASE_CONSENT",
    ]
    private static let products = ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.basic.monthly"]
    private static let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private func appendRecord(_ out: inout [UInt8], number: Int, random: inout BenchRandom) {
        let type = Self.types[Int(random.next() % UInt64(Self.types.count))]
        let original = 9_007_199_254_740_993 + Int(random.next() % 1_000_000_000)
        let renewals = 1 + Int(random.next() % 30)
        let product = Self.products[Int(random.next() % UInt64(Self.products.count))]
        let start: Int64 = 1_580_000_000_000 + Int64(random.next() % 100_000_000_000)
        let month: Int64 = 30 * 86_400_000
        let production = random.next() % 4 != 0
        var s = "{\"notification_type\":\"\(type)\",\"environment\":\"\(production ? "PROD" : "Sandbox")\","
        s += "\"password\":\"0123456789abcdef0123456789abcdef\",\"bid\":\"com.example.app\",\"bvrs\":\"\(100 + number % 50)\","
        s += "\"auto_renew_status\":\"\(random.next() % 3 == 0 ? "false" : "true")\",\"auto_renew_product_id\":\"\(product)\","
        s += "\"auto_renew_status_change_date\":\"2021-03-01 07:00:00 Etc/GMT\",\"auto_renew_status_change_date_ms\":\"\(start + Int64(renewals) * month - 3_600_000)\","
        s += "\"auto_renew_status_change_date_pst\":\"2021-02-28 23:00:00 America/Los_Angeles\","
        s += "\"original_transaction_id\":\(original),"
        if number % 97 == 0 { s += "\"note\":\"caf\\u00e9 \\\"quoted\\\" \\/ \\n — ünïcode\"," }
        s += "\"unified_receipt\":{\"environment\":\"\(production ? "Production" : "Sandbox")\",\"status\":0,\"latest_receipt\":\""
        out.append(contentsOf: s.utf8)
        let blob = 6_000 + Int(random.next() % 14_000)
        for k in 0..<blob { out.append(Self.base64[Int((random.next() >> 20) &+ UInt64(k)) & 63]) }
        s = "==\",\"latest_receipt_info\":["
        for r in (0..<renewals).reversed() {
            let purchase = start + Int64(r) * month
            let id = 2_000_000_000_000_000 + original % 1_000_000 * 100 + r
            if r < renewals - 1 { s += "," }
            s += "{\"quantity\":\"1\",\"product_id\":\"\(product)\",\"transaction_id\":\"\(id)\",\"original_transaction_id\":\"\(original)\","
            s += "\"purchase_date\":\"2021-03-01 07:00:00 Etc/GMT\",\"purchase_date_ms\":\"\(purchase)\",\"purchase_date_pst\":\"2021-02-28 23:00:00 America/Los_Angeles\","
            s += "\"original_purchase_date\":\"2020-01-01 07:00:00 Etc/GMT\",\"original_purchase_date_ms\":\"\(start)\",\"original_purchase_date_pst\":\"2019-12-31 23:00:00 America/Los_Angeles\","
            s += "\"expires_date\":\"2021-04-01 07:00:00 Etc/GMT\",\"expires_date_ms\":\"\(purchase + month)\",\"expires_date_pst\":\"2021-03-31 23:00:00 America/Los_Angeles\","
            s += "\"web_order_line_item_id\":\"\(id + 500_000)\",\"is_trial_period\":\"\(r == 0 ? "true" : "false")\",\"is_in_intro_offer_period\":\"false\","
            s += "\"in_app_ownership_type\":\"PURCHASED\",\"subscription_group_identifier\":\"20537620\""
            if type == "CANCEL" && r == renewals - 1 { s += ",\"cancellation_date_ms\":\"\(purchase + 86_400_000)\",\"cancellation_reason\":\"0\"" }
            s += "}"
        }
        s += "],\"pending_renewal_info\":[{\"auto_renew_product_id\":\"\(product)\",\"product_id\":\"\(product)\",\"original_transaction_id\":\"\(original)\",\"auto_renew_status\":\"1\""
        if type == "DID_FAIL_TO_RENEW" { s += ",\"is_in_billing_retry_period\":\"1\",\"expiration_intent\":\"2\",\"grace_period_expires_date_ms\":\"\(start + Int64(renewals) * month + 86_400_000 * 16)\"" }
        if type == "PRICE_INCREASE_CONSENT" { s += ",\"price_consent_status\":\"\(number % 2)\"" }
        s += "}]}}"
        out.append(contentsOf: s.utf8)
    }
}

/// SplitMix64: a small deterministic generator for benchmark data.
struct BenchRandom {
    /// The state.
    private var state: UInt64
    /// Creates a generator from a seed.
    init(seed: UInt64) { state = seed }
    /// The next 64 pseudo-random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
