import Foundation
import Testing

@testable import ASNMigrateKit

/// Every mode reads a record's state facts one way (`StateFact.record`): notification pairing, `subscriptions.csv` and
/// nightly (`ReconRecord.stateFact`, from the mapped payload), the API-view comparison (`V1RecordFacts.stateFact`, from
/// the V1 body) and `migrate`'s `status` (`V2Builder.status`).
@Suite struct OneStateFactReadingTests {
    private typealias S = TransactionScenario
    private static let day: Int64 = 86_400_000
    private static let sources = PackagePaths.root.appendingPathComponent("Sources")

    /// The source scan: no code outside `Reconciliation/State/StateFact+Record.swift` builds a `StateFact` itself, and
    /// each former reader calls `StateFact.record`. The API view's packed store of kept facts
    /// (`Reconciliation/Transactions/PackedStateFacts.swift`) builds one only to give back a fact the one reading made,
    /// exactly as it was appended (`PackedStateFactsTests`).
    @Test func stateFactsAreBuiltOnlyByTheOneReading() throws {
        var builders: [String] = []
        var readers: Set<String> = []
        let walker = FileManager.default.enumerator(atPath: Self.sources.path)
        var count = 0
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            count += 1
            let text = try String(contentsOf: Self.sources.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if code.contains("StateFact(") || code.contains("StateFact.init(") { builders.append(relative) }
                if code.contains("StateFact.record(") { readers.insert((relative as NSString).lastPathComponent) }
            }
        }
        #expect(count > 200, "the walk found the sources")
        let allowed = [
            "Reconciliation/State/StateFact+Record.swift", "Reconciliation/Transactions/PackedStateFacts.swift"
        ]
        #expect(builders.allSatisfy { path in allowed.contains { path.hasSuffix($0) } }, "\(builders)")
        #expect(
            readers.isSuperset(of: ["SubscriptionStateComparison.swift", "V1RecordFacts.swift", "V2Builder.swift"]),
            "\(readers.sorted())")
    }

    /// The differential property: over random V1 records of one subscription, the fact notification pairing reads from
    /// the mapped payload equals the API path's fact from the body, restricted to the transaction the record is about.
    /// On the code before the one reading, a `pending_renewal_info` without `auto_renew_status` (Apple gives every
    /// field optionally) was renewal info on the API path and none in pairing, so a billing retry it ended stood.
    @Test func pairingAndAPIPathsReadTheSameFactFromOneRecord() throws {
        let engine = MappingEngine(table: try MappingTable.builtIn())
        var random = SplitMix64(seed: 31)
        var withoutStatus = 0
        var mapped = 0
        for round in 0..<200 {
            let purchase = V1Fixture.ms("2023-01-01T00:00:00Z") + Int64(random.next() % 40) * Self.day
            let shown = [
                S.tx(
                    "300", purchase: Timestamp.iso8601(ms: purchase),
                    expires: Timestamp.iso8601(ms: purchase + 30 * Self.day))
            ]
            var pending: [(String, String)] = [("original_transaction_id", "1000000001"), ("product_id", "pro.monthly")]
            if random.next() % 2 == 0 { pending.append(("auto_renew_product_id", "pro.yearly")) }
            let stated = random.next() % 2 == 0
            if stated { pending.append(("auto_renew_status", random.next() % 2 == 0 ? "1" : "0")) }
            if random.next() % 3 == 0 { pending.append(("is_in_billing_retry_period", "1")) }
            if random.next() % 4 == 0 {
                pending.append(("grace_period_expires_date_ms", String(purchase + 35 * Self.day)))
            }
            let pendingText = "{" + pending.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
            let type = ["DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW"][Int(random.next() % 3)]
            let at = Timestamp.iso8601(ms: purchase + Int64(random.next() % 45) * Self.day)
            let api = try S.facts(type, at: at, line: 1, shown, pending: [pendingText], autoRenewStatus: nil)

            let text = V1Fixture.body(type: type, transactions: shown, pending: [pendingText], autoRenewStatus: nil)
            guard case .object(let object) = try JSONParser().parse(Array(text.utf8)) else {
                Issue.record("round \(round): not an object")
                continue
            }
            let location = SourceLocation(path: "v1.jsonl", line: 1)
            let body = try ResponseBodyV1(object, location: location)
            // A record no rule maps (a status change that states no status) has no payload to read: the API path only.
            guard
                case .migrated(let payload) = engine.map(
                    body, receivedAt: V1Fixture.ms(at), uuid: Self.uuid(0), location: location)
            else { continue }
            mapped += 1
            let fromPairing = try Self.pairingFacts([payload]).first
            let fromAPI = try #require(api.stateFact(of: "1000000001"), "round \(round)")
            let pairing = try #require(fromPairing, "round \(round)")
            let own = try #require(fromAPI.own, "round \(round)")
            #expect(pairing.time == fromAPI.time, "round \(round)")
            #expect(Array(pairing.transactions) == [fromAPI.transactions[own]], "round \(round)")
            #expect(pairing.renewal == fromAPI.renewal, "round \(round): \(pendingText)")
            if !stated, fromAPI.renewal != nil { withoutStatus += 1 }
        }
        #expect(mapped > 100, "most rounds map")
        #expect(withoutStatus > 30, "the rounds include renewal info without auto_renew_status")
    }

    /// The changed `subscriptions.csv` row: a grace period stated by a DID_FAIL_TO_RENEW, then a DID_CHANGE_RENEWAL_PREF
    /// whose `pending_renewal_info` states the next product but no `auto_renew_status` and no grace. The newer renewal
    /// info ends the grace period on both paths (V1 `active` false, status 2); on the code before the one reading,
    /// pairing skipped it and kept the grace period (`v1_active` true) while the API view said expired.
    @Test func aNewerRenewalInfoWithoutAutoRenewStatusEndsTheGracePeriodOnBothPaths() throws {
        let engine = MappingEngine(table: try MappingTable.builtIn())
        let start = V1Fixture.ms("2023-01-01T00:00:00Z")
        let shown = [
            S.tx("300", purchase: Timestamp.iso8601(ms: start), expires: Timestamp.iso8601(ms: start + 30 * Self.day))
        ]
        let grace = V1Fixture.pending(
            extra: ["grace_period_expires_date_ms": String(start + 46 * Self.day), "is_in_billing_retry_period": "1"])
        let next = "{\"original_transaction_id\":\"1000000001\",\"auto_renew_product_id\":\"pro.yearly\"}"
        let records = [("DID_FAIL_TO_RENEW", 30, grace), ("DID_CHANGE_RENEWAL_PREF", 32, next)]
        var payloads: [ResponseBodyV2DecodedPayload] = []
        var api: [V1RecordFacts] = []
        for (line, (type, day, pending)) in records.enumerated() {
            let at = Timestamp.iso8601(ms: start + Int64(day) * Self.day)
            api.append(try S.facts(type, at: at, line: line + 1, shown, pending: [pending], autoRenewStatus: nil))
            let text = V1Fixture.body(type: type, transactions: shown, pending: [pending], autoRenewStatus: nil)
            guard case .object(let object) = try JSONParser().parse(Array(text.utf8)) else {
                Issue.record("\(type): not an object")
                return
            }
            let location = SourceLocation(path: "v1.jsonl", line: line + 1)
            guard
                case .migrated(let payload) = engine.map(
                    try ResponseBodyV1(object, location: location), receivedAt: V1Fixture.ms(at), uuid: Self.uuid(line),
                    location: location)
            else {
                Issue.record("\(type) not mapped")
                return
            }
            payloads.append(payload)
        }
        let pairing = try Self.pairingFacts(payloads)
        try #require(pairing.count == 2)
        let instant = start + 35 * Self.day
        let fromPairing = try #require(SubscriptionStateRules.derive(pairing, at: instant))
        let fromAPI = try #require(SubscriptionStatusComparison.state(of: "1000000001", records: api, at: instant))
        #expect(fromPairing.status == .expired)
        #expect(!fromPairing.active)
        #expect(fromPairing.gracePeriodExpiresDate == nil)
        #expect(fromAPI.status == fromPairing.status)
        #expect(fromPairing.autoRenewStatus == 1, "a renewal info without the status keeps the last one stated")
        #expect(fromPairing.autoRenewProductId == "pro.yearly")
    }

    /// `migrate`'s `status` is the state the one rule derives from the record's one fact: a renewal info that states
    /// only a billing retry (no `auto_renew_status`) gives 3 after the expiry, as the state rules read it.
    @Test func migrateStatusGoesThroughTheStateRules() {
        var t = JWSTransactionDecodedPayload()
        t.transactionId = "300"
        t.purchaseDate = 1_000
        t.expiresDate = 2_000
        var r = JWSRenewalInfoDecodedPayload()
        r.isInBillingRetryPeriod = true
        #expect(V2Builder.status(t, renewal: r, at: 3_000) == SubscriptionStatus.billingRetry.rawValue)
        #expect(V2Builder.status(t, renewal: nil, at: 3_000) == SubscriptionStatus.expired.rawValue)
        #expect(V2Builder.status(t, renewal: r, at: 1_500) == SubscriptionStatus.active.rawValue)
        t.revocationDate = 1_200
        #expect(V2Builder.status(t, renewal: r, at: 1_500) == SubscriptionStatus.revoked.rawValue)
        #expect(V2Builder.status(t, renewal: r, at: nil) == SubscriptionStatus.revoked.rawValue)
    }

    /// A notificationUUID for record `n`.
    private static func uuid(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// The facts notification pairing reads from migrated payloads: each enters the engine as `reconcile` and
    /// `nightly` feed it (`RecordFacts`, `ReconciliationInputs.add`), then `ReconRecord.stateFact`.
    private static func pairingFacts(_ payloads: [ResponseBodyV2DecodedPayload]) throws -> [StateFact] {
        var inputs = ReconciliationInputs()
        for payload in payloads {
            inputs.add(
                RecordFacts(payload, kind: .migrated, location: SourceLocation(path: "v1.jsonl")), fingerprint: 0)
        }
        return (0..<inputs.v1Records.count).compactMap { inputs.v1Records[$0].stateFact(inputs.pool, v2Only: false) }
    }
}
