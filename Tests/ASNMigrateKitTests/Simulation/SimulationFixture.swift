import Foundation

@testable import ASNMigrateKit
@testable import ASNSimulation

/// Small simulation runs and readers for their files, shared by the simulation tests.
enum SimulationFixture {
    /// The built-in mapper.
    static func mapper() throws -> V1RecordMapper {
        V1RecordMapper(table: try MappingTable.builtIn())
    }

    /// Runs a simulation into a fresh temporary directory (`…/out`); the caller removes `directory`.
    static func run(
        subscribers: Int = 300, seed: UInt64 = 11, months: Int = 5, inject: Double = 0, gzip: Bool = false,
        into directory: TemporaryDirectory
    ) throws -> (summary: Simulator.Summary, out: String) {
        let out = directory.path + "/out"
        let options = SimulationOptions(
            subscribers: subscribers, seed: seed, months: months, injectRate: inject, gzip: gzip)
        return (try Simulator.run(options, directory: out), out)
    }

    /// Every item of every file under `directory`, in the order `reconcile` reads them.
    static func items(_ directory: String) throws -> [InputItem] {
        var items: [InputItem] = []
        try RecordReader.forEach(in: try InputPaths.expand([directory])) { items.append($0) }
        return items
    }

    /// Every regular file under `directory` (relative path → bytes).
    static func files(_ directory: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for file in try InputPaths.expand([directory]) {
            result[String(file.path.dropFirst(directory.count + 1))] = Array(
                try Data(contentsOf: URL(fileURLWithPath: file.path)))
        }
        return result
    }

    /// The payload of a compact JWS as a JSON object, or nil when it is not one.
    static func decodeJWS(_ jws: String) -> JSONObject? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64.decode(parts[1]) else { return nil }
        return (try? JSONParser().parse(bytes))?.objectValue
    }

    /// A raw V2 body decoded: the payload, its transaction and renewal info; nil when any part does not decode.
    static func decodeV2(_ bytes: [UInt8]) -> (
        payload: JSONObject, transaction: JWSTransactionDecodedPayload?, renewal: JWSRenewalInfoDecodedPayload?
    )? {
        guard let body = (try? JSONParser().parse(bytes))?.objectValue, let signed = body["signedPayload"]?.stringValue,
            let payload = decodeJWS(signed), payload["notificationType"]?.stringValue != nil,
            let data = payload["data"]?.objectValue
        else { return nil }
        var transaction: JWSTransactionDecodedPayload?
        var renewal: JWSRenewalInfoDecodedPayload?
        if let jws = data["signedTransactionInfo"]?.stringValue {
            guard let object = decodeJWS(jws) else { return nil }
            transaction = JWSTransactionDecodedPayload(object)
        }
        if let jws = data["signedRenewalInfo"]?.stringValue {
            guard let object = decodeJWS(jws) else { return nil }
            renewal = JWSRenewalInfoDecodedPayload(object)
        }
        return (payload, transaction, renewal)
    }

    /// The compared fields, as `FaultInjector` renders them.
    static let comparedFields = [
        "productId", "webOrderLineItemId", "purchaseDate", "expiresDate", "originalPurchaseDate", "bundleId",
        "inAppOwnershipType",
        "revocationDate", "revocationReason", "isUpgraded", "autoRenewStatus", "autoRenewProductId", "expirationIntent",
        "isInBillingRetryPeriod", "gracePeriodExpiresDate", "priceIncreaseStatus", "offerType", "offerIdentifier"
    ]

    /// A compared field's value (webOrderLineItemId and bundleId included).
    static func value(_ field: String, _ t: JWSTransactionDecodedPayload?, _ r: JWSRenewalInfoDecodedPayload?)
        -> String?
    {
        switch field {
        case "webOrderLineItemId": return t?.webOrderLineItemId
        case "bundleId": return t?.bundleId
        default: return FaultInjector.value(of: field, in: t, r)
        }
    }
}
