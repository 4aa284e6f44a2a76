import Testing

@testable import ASNMigrateKit

/// `V2MemberSelection(paths:)` selects exactly the members its paths name, and `reconcile`'s selection keeps exactly
/// the members its reading of a payload depends on (found by probing the models, here and not at run time).
@Suite struct V2MemberSelectionTests {
    /// The places, in visit order, of `keys` among a model's members.
    static func bits<Model: V2ScalarModel>(_ model: Model, _ keys: Set<String>) -> UInt64 {
        var names = KeyNames()
        var copy = model
        copy.visitMembers(&names)
        var bits: UInt64 = 0
        for (place, key) in names.keys.enumerated() where keys.contains(key) { bits |= 1 << UInt64(place) }
        return bits
    }

    /// Collects the visited keys in order.
    struct KeyNames: V2MemberVisitor {
        var keys: [String] = []
        mutating func visit(_ key: String, _ value: inout String?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int64?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Int?) { keys.append(key) }
        mutating func visit(_ key: String, _ value: inout Bool?) { keys.append(key) }
    }

    @Test func theProbeFindsExactlyTheMembersAReadingReads() {
        let selection = V2MemberSelection.read { p in
            [p.data.transactionInfo?.productId ?? p.data.renewalInfo?.productId, p.notificationUUID]
        }
        #expect(selection.transaction == Self.bits(JWSTransactionDecodedPayload(), ["productId"]))
        #expect(selection.renewal == Self.bits(JWSRenewalInfoDecodedPayload(), ["productId"]))
        #expect(selection.notification == 0b10, "notificationUUID is the payload's second scalar")
        #expect(selection.data == 0)
        let flags = V2MemberSelection.read { p in p.data.renewalInfo?.isInBillingRetryPeriod == false }
        #expect(flags.renewal == Self.bits(JWSRenewalInfoDecodedPayload(), ["isInBillingRetryPeriod"]))
        let environment = V2MemberSelection.read { p in EnvironmentName.normalized(p.data.environment) }
        #expect(environment.data == 0b100, "a member read through a normalisation is found by its probe values")
    }

    @Test func pathsSelectTheMembersTheyName() {
        let selection = V2MemberSelection(paths: [
            "notificationUUID", "data.environment", "data.transactionInfo.productId", "data.renewalInfo.productId",
            "data.renewalInfo.isInBillingRetryPeriod", "migration.source", "data.nothing"
        ])
        #expect(selection.notification == 0b10)
        #expect(selection.data == 0b100)
        #expect(selection.transaction == Self.bits(JWSTransactionDecodedPayload(), ["productId"]))
        #expect(
            selection.renewal == Self.bits(JWSRenewalInfoDecodedPayload(), ["productId", "isInBillingRetryPeriod"]))
    }

    @Test func reconcileKeepsExactlyWhatItsReadingReads() {
        let kept = ReconcilePass.v2Members
        #expect(kept == V2MemberSelection.read(by: ReconcilePass.readings(of:)))
        let transactionKept = Self.bits(
            JWSTransactionDecodedPayload(),
            [
                "transactionId", "originalTransactionId", "webOrderLineItemId", "bundleId", "productId", "purchaseDate",
                "originalPurchaseDate", "expiresDate", "inAppOwnershipType", "revocationReason", "revocationDate",
                "isUpgraded", "offerType", "offerIdentifier", "price", "currency"
            ])
        #expect(kept.transaction == transactionKept)
        let renewalCompared = Self.bits(JWSRenewalInfoDecodedPayload(), ["autoRenewStatus", "autoRenewProductId"])
        #expect(kept.renewal & renewalCompared == renewalCompared)
        #expect(kept != .all)
    }
}

extension V2MemberSelection {
    /// The members `view` depends on: each member of each model is set alone to a few probe values in a payload whose
    /// transaction and renewal info are present and empty, and kept when `view` then differs from the empty payload's.
    /// `view` must read the payload directly (a member it reads only when another one is set would be missed; the
    /// differential tests compare its readings of kept-only and full payloads).
    static func read<View: Equatable>(by view: (ResponseBodyV2DecodedPayload) -> View) -> V2MemberSelection {
        var empty = ResponseBodyV2DecodedPayload(notificationType: "")
        empty.data.transactionInfo = JWSTransactionDecodedPayload()
        empty.data.renewalInfo = JWSRenewalInfoDecodedPayload()
        let base = view(empty)
        /// The bits of the members of one model that change `view` when set by `set(probe)`.
        func probe(_ set: (inout ResponseBodyV2DecodedPayload, inout MemberProbe) -> Void) -> UInt64 {
            var bits: UInt64 = 0
            for ordinal in 0..<64 {
                var sample = 0
                while true {
                    var payload = empty
                    var setter = MemberProbe(target: ordinal, sample: sample)
                    set(&payload, &setter)
                    guard setter.applied else { break }
                    if view(payload) != base {
                        bits |= 1 << UInt64(ordinal)
                        break
                    }
                    sample += 1
                }
            }
            return bits
        }
        return V2MemberSelection(
            notification: probe { $0.visitScalars(&$1) },
            data: probe { $0.data.visitScalars(&$1) },
            transaction: probe { payload, setter in
                var transaction = JWSTransactionDecodedPayload()
                transaction.visitMembers(&setter)
                payload.data.transactionInfo = transaction
            },
            renewal: probe { payload, setter in
                var renewal = JWSRenewalInfoDecodedPayload()
                renewal.visitMembers(&setter)
                payload.data.renewalInfo = renewal
            })
    }
}

/// Sets the member at place `target` of the visited model to its `sample`-th probe value (`applied` says whether
/// there was one).
private struct MemberProbe: V2MemberVisitor {
    /// The member's place in the visit order.
    let target: Int
    /// Which probe value.
    let sample: Int
    /// Whether a value was set.
    var applied = false
    /// The place of the next member visited.
    private var ordinal = 0

    /// A probe of member `target` with value `sample`.
    init(target: Int, sample: Int) {
        self.target = target
        self.sample = sample
    }

    private static let strings = ["\u{1}probe", "Production", "Sandbox", "FAMILY_SHARED", "PURCHASED", "1", "true"]
    private static let integers: [Int64] = [1, 0, 2, -1, 1_700_000_000_000]
    private static let flags = [true, false]

    /// Sets `value` to the probe value when this is the target.
    private mutating func set<T>(_ value: inout T?, from samples: [T]) {
        defer { ordinal += 1 }
        guard ordinal == target, sample < samples.count else { return }
        value = samples[sample]
        applied = true
    }

    /// Probes a string member.
    mutating func visit(_ key: String, _ value: inout String?) { set(&value, from: Self.strings) }
    /// Probes an integer member.
    mutating func visit(_ key: String, _ value: inout Int64?) { set(&value, from: Self.integers) }
    /// Probes an integer member.
    mutating func visit(_ key: String, _ value: inout Int?) { set(&value, from: Self.integers.map { Int($0) }) }
    /// Probes a Boolean member.
    mutating func visit(_ key: String, _ value: inout Bool?) { set(&value, from: Self.flags) }
}
