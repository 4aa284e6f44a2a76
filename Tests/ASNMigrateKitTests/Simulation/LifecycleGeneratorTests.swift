import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

@Suite struct LifecycleGeneratorTests {
    /// The records of a few hundred subscribers over a few months.
    private static func records(subscribers: Int = 400, seed: UInt64 = 5, months: Int = 6) throws -> [SimulatedRecord] {
        let options = SimulationOptions(subscribers: subscribers, seed: seed, months: months)
        var all: [SimulatedRecord] = []
        for index in 0..<subscribers {
            var generator = LifecycleGenerator(options: options, index: index)
            all += try generator.generate()
        }
        return all
    }

    /// The V1 and V2 kinds each event kind must produce: a wrong simulated body fails here loudly.
    static let expected: [String: (v1: String?, v2: Set<String>)] = [
        "initial-buy": ("INITIAL_BUY", ["SUBSCRIBED/INITIAL_BUY"]),
        "initial-buy-trial": ("INITIAL_BUY", ["SUBSCRIBED/INITIAL_BUY"]),
        "initial-buy-offer-code": ("INITIAL_BUY", ["OFFER_REDEEMED/INITIAL_BUY"]),
        "family-initial-buy": (nil, ["SUBSCRIBED/INITIAL_BUY"]),
        "renewal": ("DID_RENEW", ["DID_RENEW"]),
        "auto-renew-off": ("DID_CHANGE_RENEWAL_STATUS", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]),
        "auto-renew-on": ("DID_CHANGE_RENEWAL_STATUS", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"]),
        "voluntary-expiry": (nil, ["EXPIRED/VOLUNTARY"]),
        "billing-failure": ("DID_FAIL_TO_RENEW", ["DID_FAIL_TO_RENEW"]),
        "billing-failure-grace": ("DID_FAIL_TO_RENEW", ["DID_FAIL_TO_RENEW/GRACE_PERIOD"]),
        "grace-period-expired": (nil, ["GRACE_PERIOD_EXPIRED"]),
        "billing-recovery": ("DID_RECOVER", ["DID_RENEW/BILLING_RECOVERY"]),
        "billing-recovery-legacy": ("RENEWAL", ["DID_RENEW/BILLING_RECOVERY"]),
        "billing-expiry": ("DID_CHANGE_RENEWAL_STATUS", ["EXPIRED/BILLING_RETRY"]),
        "upgrade": ("INTERACTIVE_RENEWAL", ["DID_CHANGE_RENEWAL_PREF/UPGRADE"]),
        "upgrade-offer": ("INTERACTIVE_RENEWAL", ["OFFER_REDEEMED/UPGRADE"]),
        "upgrade-companion": ("DID_CHANGE_RENEWAL_STATUS", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"]),
        "downgrade": ("DID_CHANGE_RENEWAL_PREF", ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE"]),
        "downgrade-reverted": ("DID_CHANGE_RENEWAL_PREF", ["DID_CHANGE_RENEWAL_PREF"]),
        "resubscribe-same": ("DID_CHANGE_RENEWAL_STATUS", ["SUBSCRIBED/RESUBSCRIBE"]),
        "resubscribe-same-offer": ("DID_CHANGE_RENEWAL_STATUS", ["OFFER_REDEEMED/RESUBSCRIBE"]),
        "resubscribe-other": ("INTERACTIVE_RENEWAL", ["SUBSCRIBED/RESUBSCRIBE"]),
        "resubscribe-other-offer": ("INTERACTIVE_RENEWAL", ["OFFER_REDEEMED/RESUBSCRIBE"]),
        "resubscribe-companion": (
            "DID_CHANGE_RENEWAL_STATUS",
            [
                "SUBSCRIBED/RESUBSCRIBE", "OFFER_REDEEMED/RESUBSCRIBE",
                "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"
            ]
        ),
        "refund": ("CANCEL", ["REFUND"]),
        "refund-companion": ("DID_CHANGE_RENEWAL_STATUS", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]),
        "revoke": ("REVOKE", ["REVOKE"]),
        "price-increase": ("PRICE_INCREASE_CONSENT", ["PRICE_INCREASE/PENDING"]),
        "price-increase-accepted": (nil, ["PRICE_INCREASE/ACCEPTED"]),
        "price-increase-expiry": ("DID_CHANGE_RENEWAL_STATUS", ["EXPIRED/PRICE_INCREASE"]),
        "renewal-extended": (nil, ["RENEWAL_EXTENDED"]),
        "consumption-request": ("CONSUMPTION_REQUEST", ["CONSUMPTION_REQUEST"]),
        "consumable-refund": ("REFUND", ["REFUND"]),
        "refund-declined": (nil, ["REFUND_DECLINED"]),
        "test": (nil, ["TEST"])
    ]

    @Test func everyEventKindAppearsAndIsListed() throws {
        let records = try Self.records()
        var counts: [String: Int] = [:]
        for record in records { counts[record.label, default: 0] += 1 }
        #expect(Set(counts.keys) == Set(LifecycleGenerator.eventKinds))
        #expect(Set(Self.expected.keys) == Set(LifecycleGenerator.eventKinds))
        for kind in LifecycleGenerator.eventKinds {
            #expect(counts[kind, default: 0] > 0, "no \(kind) among 400 subscribers")
        }
        // Sandbox, IDs above 2^53, family sharing, envelopes, late deliveries and retries all occur.
        #expect(records.contains { $0.environment == .sandbox })
        #expect(records.contains { ($0.originalTransactionId.flatMap { UInt64($0) } ?? 0) > 9_007_199_254_740_992 })
        #expect(records.contains { $0.v2?.transaction?.inAppOwnershipType == "FAMILY_SHARED" })
        #expect(records.contains { $0.late })
        #expect(
            records.contains {
                $0.v1Line.map { String(decoding: $0.prefix(14), as: UTF8.self) == #"{"received_at""# } ?? false
            })
        #expect(records.contains { $0.v1Retries > 0 } && records.contains { $0.v2Retries > 0 })
        #expect(records.contains { $0.inferredTime })
    }

    /// Every V1 line, read back through the real `V1RecordMapper`, maps to its event kind's V2 kind; its twin, which
    /// the lifecycle wrote without the mapping, decodes and carries the same compared fields and `status`; V2's
    /// signedDate is within 48 h of the V1 event time (unless inferred).
    @Test func v1LinesMapToTheIntendedKindAndV2TwinsAgree() throws {
        let mapper = try SimulationFixture.mapper()
        for record in try Self.records(subscribers: 250, seed: 8) {
            let expected = try #require(Self.expected[record.label])
            #expect((record.v1Line != nil) == (expected.v1 != nil), "\(record.label)")
            if let v2 = record.v2 {
                #expect(
                    expected.v2.contains(NotificationKind(v2.notificationType, v2.subtype).description),
                    "\(record.label): \(v2.notificationType)")
            }
            guard let line = record.v1Line else { continue }
            let outcome = mapper.map(RawRecord(location: SourceLocation(path: "t", line: 1), bytes: line))
            guard case .migrated(let payload) = outcome else {
                Issue.record("\(record.label): V1 line did not migrate: \(outcome)")
                continue
            }
            let kind = NotificationKind(payload.notificationType, payload.subtype).description
            #expect(expected.v2.contains(kind), "\(record.label) maps to \(kind)")
            #expect(payload.migration?.v1NotificationType == expected.v1)
            guard let v2 = record.v2 else {
                #expect(record.role == .companion)
                continue
            }
            #expect(kind == NotificationKind(v2.notificationType, v2.subtype).description)
            #expect(payload.data.status == v2.status, "\(record.label): migrate's status is not Apple's")
            var line2: [UInt8] = []
            v2.appendLine(to: &line2)
            let decoded = try #require(SimulationFixture.decodeV2(Array(line2.dropLast())))
            for field in SimulationFixture.comparedFields {
                let v1Value = SimulationFixture.value(field, payload.data.transactionInfo, payload.data.renewalInfo)
                let v2Value = SimulationFixture.value(field, decoded.transaction, decoded.renewal)
                #expect(v1Value == v2Value, "\(record.label) \(field): \(v1Value ?? "-") vs \(v2Value ?? "-")")
            }
            #expect(payload.data.bundleId == decoded.payload["data"]?.objectValue?["bundleId"]?.stringValue)
            let signed = try #require(
                decoded.payload["signedDate"].flatMap {
                    if case .number(let n) = $0 { return Int64(n) } else { return nil }
                })
            if !record.inferredTime, let event = payload.signedDate {
                #expect(
                    abs(signed - event) <= 48 * 3_600_000, "\(record.label) signedDate too far from the V1 event time")
            }
        }
    }

    @Test func anchorFixesThePeriodEnds() throws {
        let options = SimulationOptions(subscribers: 3, seed: 1, months: 4)
        var generator = LifecycleGenerator(options: options, index: 0)
        let anchor = try generator.generate().filter { $0.role == .anchor }
        #expect(anchor.first?.v1Mapped?.signedDate == options.start)
        #expect(anchor.first?.v2?.signedDate == options.start)
        #expect(anchor.last?.v1Mapped?.signedDate == options.end)
        #expect(anchor.last?.v2?.signedDate == options.end)
    }

    @Test func realisticEdgesDelayTheAnchorsV2RecordsBySecondsToMinutes() throws {
        var options = SimulationOptions(subscribers: 3, seed: 1, months: 4)
        options.realisticEdges = true
        var generator = LifecycleGenerator(options: options, index: 0)
        let anchor = try generator.generate().filter { $0.role == .anchor }
        #expect(anchor.count == 5)
        #expect(anchor.first?.v1Mapped?.signedDate == options.start)
        #expect(anchor.last?.v1Mapped?.signedDate == options.end)
        let delays = anchor.map { ($0.v2?.signedDate ?? 0) - ($0.v1Mapped?.signedDate ?? 0) }
        for delay in delays {
            #expect(delay >= 1_000 && delay <= 300_000, "V2 signs \(delay) ms after the V1 event")
        }
        #expect(Set(delays).count > 1, "the delays vary")
    }

    @Test func everyOtherRecordStaysInsideTheWindow() throws {
        let options = SimulationOptions(subscribers: 200, seed: 4, months: 5)
        for record in try Self.records(subscribers: 200, seed: 4, months: 5) where record.role != .anchor {
            #expect(record.time >= options.windowStart && record.time <= options.windowEnd, "\(record.label)")
            if let v2 = record.v2 { #expect(v2.signedDate > options.start && v2.signedDate < options.end) }
            if record.v1Line != nil {
                #expect(record.v1DeliveryTime > options.start && record.v1DeliveryTime < options.end)
            }
        }
    }
}
