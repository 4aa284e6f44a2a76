import Foundation
import Testing

@testable import ASNMigrateKit
@testable import ASNSimulation

/// The simulator's fault fields come from the compared-field table, and its perturbations change each of them as
/// `reconcile` reads it, so a field the table adds is faulted, or this fails naming it.
@Suite struct FaultFieldsTests {
    /// A transaction with every compared member set.
    static let transaction: JWSTransactionDecodedPayload = {
        var t = JWSTransactionDecodedPayload()
        t.transactionId = "5000000000000001"
        t.originalTransactionId = "2000000000000000"
        t.webOrderLineItemId = "5000000000000001"
        t.bundleId = "com.example.simulated"
        t.productId = SimulatedProduct.monthly[0].id
        t.purchaseDate = 1_700_000_000_000
        t.originalPurchaseDate = 1_690_000_000_000
        t.expiresDate = 1_702_592_000_000
        t.quantity = 1
        t.inAppOwnershipType = "PURCHASED"
        t.revocationDate = 1_701_000_000_000
        t.revocationReason = 0
        t.isUpgraded = false
        t.offerType = 1
        t.offerIdentifier = "intro"
        return t
    }()

    /// Renewal info with every compared member set.
    static let renewal: JWSRenewalInfoDecodedPayload = {
        var r = JWSRenewalInfoDecodedPayload()
        r.originalTransactionId = "2000000000000000"
        r.autoRenewProductId = SimulatedProduct.monthly[0].id
        r.autoRenewStatus = 1
        r.expirationIntent = 1
        r.gracePeriodExpiresDate = 1_703_000_000_000
        r.isInBillingRetryPeriod = false
        r.priceIncreaseStatus = 0
        return r
    }()

    @Test func notificationFaultsChangeEveryFieldPairingComparesButTheKeptOnes() {
        let compared = ComparedField.defaultFields.filter { $0.row.bit != nil || $0.flagSlot != nil }
        #expect(
            Set(FaultInjector.changeableFields)
                == Set(compared.filter { !FaultInjector.keptFields.contains($0) }.map(\.rawValue)))
        let n = SimulatedV2Notification(
            notificationType: "DID_RENEW", subtype: nil, notificationUUID: "u", signedDate: 1_700_000_000_000,
            environment: .production, bundleVersion: nil, status: 1, transaction: Self.transaction,
            renewal: Self.renewal, signatureSeed: 1)
        var random = SimulationRandom(seed: 5)
        for field in FaultInjector.changeableFields {
            var changed = n
            FaultInjector.perturb(field, &changed, random: &random)
            let before = FaultInjector.value(of: field, in: n)
            #expect(before != nil, "\(field) is not read from a record that holds it")
            #expect(FaultInjector.value(of: field, in: changed) != before, "perturb leaves \(field) as it was")
        }
    }

    @Test func apiViewFaultsChangeEveryFieldComparedWithApple() {
        var random = SimulationRandom(seed: 5)
        for field in APIFaultInjector.changeableFields {
            var changed = Self.transaction
            APIFaultInjector.perturb(field, &changed, random: &random)
            let before = APIFaultInjector.value(of: field, in: Self.transaction)
            #expect(!before.isEmpty, "\(field) is not read from a transaction that holds it")
            #expect(APIFaultInjector.value(of: field, in: changed) != before, "perturb leaves \(field) as it was")
        }
    }
}
