/// Where `V2Builder` puts the V2 record it makes from a V1 record's view: the models (`V2ModelSink`, the reference and
/// the API), or `migrate`'s JSON line (`V2JSONSink`). The builder calls it in the V2 JSON's member order, leaving out
/// absent members, so a sink that writes needs no order of its own.
package protocol V2Sink {
    /// The view the texts come from.
    associatedtype View: V1RecordView

    /// The payload's members before `data` (type, subtype, notificationUUID, version), then `signedDate`.
    mutating func begin(signedDate: Int64?)
    /// Opens an object of the payload.
    mutating func open(_ object: V2Object)
    /// Closes the object opened last.
    mutating func close(_ object: V2Object)
    /// A text member, copied from the record.
    mutating func text(_ member: V2Member, _ value: View.Text?)
    /// An integer member (dates are ms).
    mutating func int(_ member: V2Member, _ value: Int64?)
    /// A boolean member.
    mutating func flag(_ member: V2Member, _ value: Bool?)
    /// A member with a value of the mapping's own.
    mutating func constant(_ member: V2Member, _ value: V2Constant)
    /// `environment`, normalised.
    mutating func environment(_ value: V2Environment<View.Text>?)
    /// The `migration` object and the end of the payload.
    mutating func end(v1Type: View.Text, eventTimeInferred: Bool)
}

/// The objects of a V2 payload a sink is given.
package enum V2Object: Sendable {
    /// `data`.
    case data
    /// `data.transactionInfo`.
    case transaction
    /// `data.renewalInfo`.
    case renewal
}

/// A member `V2Builder` writes (the object it is in is the sink's last `open`), derived from `V2FieldTable`: every key
/// of `data`, `data.transactionInfo` and `data.renewalInfo` that `migrate` writes, in the table's order, each once. The
/// builder's rules name the members they write (`V2Member.bundleId`); a member copied from its V1 key is named only
/// by its table row.
package struct V2Member: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The member's place in `allCases`.
    package let rawValue: Int

    /// The member at `rawValue` in `allCases`.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The member keyed `key`; the table must hold it (the builder's rules name only members it holds).
    init(named key: String) {
        rawValue = Self.keys.firstIndex(of: key) ?? -1
    }

    /// The keys of every member, in order: the table's rows of `data`'s scalars, the transaction info and the renewal
    /// info that `migrate` writes, each key once.
    package static let keys: [String] = {
        var keys: [String] = []
        for field in V2FieldTable.migrated {
            let parts = field.path.split(separator: ".")
            let inObject =
                (parts.count == 2 && parts[0] == "data")
                || (parts.count == 3 && parts[0] == "data"
                    && (parts[1] == "transactionInfo" || parts[1] == "renewalInfo"))
            if inObject, !keys.contains(field.key) { keys.append(field.key) }
        }
        return keys
    }()

    /// Every member, in order.
    package static let allCases: [V2Member] = keys.indices.map(V2Member.init(rawValue:))

    /// Each member's key as bytes, for `migrate`'s JSON (`V2JSONSink`): made once, held for the process's life.
    nonisolated(unsafe) static let keyBytes: [UnsafeBufferPointer<UInt8>] = keys.map { key in
        let bytes = Array(key.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return UnsafeBufferPointer(buffer)
    }

    /// The member's JSON key.
    package var key: String { Self.keys[rawValue] }

    /// The key.
    package var description: String { key }

    /// `bundleId`.
    static let bundleId = V2Member(named: "bundleId")
    /// `bundleVersion`.
    static let bundleVersion = V2Member(named: "bundleVersion")
    /// `status`.
    static let status = V2Member(named: "status")
    /// `environment` (given by `V2Sink.environment`).
    static let environment = V2Member(named: "environment")
    /// `transactionId`.
    static let transactionId = V2Member(named: "transactionId")
    /// `originalTransactionId`.
    static let originalTransactionId = V2Member(named: "originalTransactionId")
    /// `productId`.
    static let productId = V2Member(named: "productId")
    /// `type`.
    static let type = V2Member(named: "type")
    /// `revocationReason`.
    static let revocationReason = V2Member(named: "revocationReason")
    /// `revocationDate`.
    static let revocationDate = V2Member(named: "revocationDate")
    /// `isUpgraded`.
    static let isUpgraded = V2Member(named: "isUpgraded")
    /// `offerType`.
    static let offerType = V2Member(named: "offerType")
    /// `offerIdentifier`.
    static let offerIdentifier = V2Member(named: "offerIdentifier")
    /// `offerDiscountType`.
    static let offerDiscountType = V2Member(named: "offerDiscountType")
    /// `transactionReason`.
    static let transactionReason = V2Member(named: "transactionReason")
    /// `autoRenewProductId`.
    static let autoRenewProductId = V2Member(named: "autoRenewProductId")
    /// `autoRenewStatus`.
    static let autoRenewStatus = V2Member(named: "autoRenewStatus")
    /// `expirationIntent`.
    static let expirationIntent = V2Member(named: "expirationIntent")
    /// `isInBillingRetryPeriod`.
    static let isInBillingRetryPeriod = V2Member(named: "isInBillingRetryPeriod")
    /// `renewalDate`.
    static let renewalDate = V2Member(named: "renewalDate")
    /// `recentSubscriptionStartDate`.
    static let recentSubscriptionStartDate = V2Member(named: "recentSubscriptionStartDate")
}

/// Values the mapping gives of its own.
package enum V2Constant: Sendable {
    /// `V2Builder.autoRenewableType`.
    case autoRenewable
    /// `V2Builder.freeTrialDiscount`.
    case freeTrial
    /// `V2Builder.purchaseReason`.
    case purchase
    /// The `transactionReason` the matched rule gives every transaction (`V2Builder.ruleTransactionReason`).
    case ruleReason

    /// The value as text, for `rule`.
    package func text(rule: MappingRule) -> String {
        switch self {
        case .autoRenewable: V2Builder.autoRenewableType
        case .freeTrial: V2Builder.freeTrialDiscount
        case .purchase: V2Builder.purchaseReason
        case .ruleReason: V2Builder.ruleTransactionReason(rule) ?? V2Builder.purchaseReason
        }
    }
}

/// The sink that builds the models: the reference path, and the API. Texts become `String`s through the view.
package struct V2ModelSink<View: V1RecordView>: V2Sink {
    /// The record's view.
    let view: View
    /// The rule that matched.
    let rule: MappingRule
    /// The payload built so far.
    package private(set) var payload: ResponseBodyV2DecodedPayload
    /// The objects open.
    private var current: V2Object?
    /// The transaction info being filled.
    private var transaction = JWSTransactionDecodedPayload()
    /// The renewal info being filled.
    private var renewal = JWSRenewalInfoDecodedPayload()
    /// The open object's members given so far, by their place in its model's `visitMembers`; set into the model in
    /// one visit when it closes.
    private var values = InlineArray<32, MemberValue?>(repeating: nil)

    /// A sink for a record of `view` matched by `rule`, with its notificationUUID and location.
    package init(view: View, rule: MappingRule, uuid: String, location: SourceLocation) {
        self.view = view
        self.rule = rule
        payload = ResponseBodyV2DecodedPayload(
            notificationType: rule.v2Type, subtype: rule.v2Subtype, notificationUUID: uuid,
            version: V2Builder.payloadVersion, signedDate: nil, data: NotificationData(),
            migration: MigrationInfo(
                source: location.path, line: location.line, index: location.index, v1NotificationType: "",
                ruleId: rule.id))
    }

    /// Sets `signedDate`.
    package mutating func begin(signedDate: Int64?) {
        payload.signedDate = signedDate
    }

    /// Starts filling `object`.
    package mutating func open(_ object: V2Object) {
        current = object
        values = InlineArray(repeating: nil)
    }

    /// Sets the members given into the info's model, by its member visit, and puts it into `data`.
    package mutating func close(_ object: V2Object) {
        switch object {
        case .data: break
        case .transaction:
            transaction.setMembers(values)
            payload.data.transactionInfo = transaction
        case .renewal:
            renewal.setMembers(values)
            payload.data.renewalInfo = renewal
        }
        current = .data
    }

    /// Sets a text member.
    package mutating func text(_ member: V2Member, _ value: View.Text?) {
        guard let value else { return }
        set(member, string: view.string(value))
    }

    /// Sets an integer member.
    package mutating func int(_ member: V2Member, _ value: Int64?) {
        guard let value else { return }
        if current == .data, member == .status {
            payload.data.status = Int(value)
        } else {
            set(member, .integer(value))
        }
    }

    /// Sets a boolean member.
    package mutating func flag(_ member: V2Member, _ value: Bool?) {
        guard let value else { return }
        set(member, .flag(value))
    }

    /// Sets a member to a value of the mapping's own.
    package mutating func constant(_ member: V2Member, _ value: V2Constant) {
        set(member, string: value.text(rule: rule))
    }

    /// Sets `environment` of the object open.
    package mutating func environment(_ value: V2Environment<View.Text>?) {
        let text: String? =
            switch value {
            case .none: nil
            case .production: "Production"
            case .sandbox: "Sandbox"
            case .raw(let raw): view.string(raw)
            }
        switch current {
        case .data: payload.data.environment = text
        case .transaction: transaction.environment = text
        case .renewal: renewal.environment = text
        case .none: break
        }
    }

    /// Sets the V1 type and whether the event time was inferred.
    package mutating func end(v1Type: View.Text, eventTimeInferred: Bool) {
        let type = view.string(v1Type)
        payload.migration?.v1NotificationType = type
        payload.migration?.eventTimeInferred = eventTimeInferred
    }

    /// Sets a text member of the object open.
    private mutating func set(_ member: V2Member, string: String) {
        if current == .data {
            switch member {
            case .bundleId: payload.data.bundleId = string
            case .bundleVersion: payload.data.bundleVersion = string
            default: assertionFailure("no text member \(member) in data")
            }
        } else {
            set(member, .text(string))
        }
    }

    /// Notes a member of the transaction or renewal info open, at its place in the model's member visit.
    private mutating func set(_ member: V2Member, _ value: MemberValue) {
        let at: Int8
        switch current {
        case .transaction: at = V2ModelSinkPositions.transaction[member.rawValue]
        case .renewal: at = V2ModelSinkPositions.renewal[member.rawValue]
        case .data, .none: at = -1
        }
        guard at >= 0, Int(at) < values.count else {
            assertionFailure("no member \(member) in \(String(describing: current))")
            return
        }
        values[Int(at)] = value
    }
}

/// Where each `V2Member` is in the transaction and renewal models' member visits (-1: not a member there), found
/// once by key.
private enum V2ModelSinkPositions {
    /// `[member.rawValue]`: its place in `JWSTransactionDecodedPayload.visitMembers`.
    static let transaction: [Int8] = V2Member.allCases.map {
        Int8(JWSTransactionDecodedPayload.memberPosition($0.key) ?? -1)
    }
    /// `[member.rawValue]`: its place in `JWSRenewalInfoDecodedPayload.visitMembers`.
    static let renewal: [Int8] = V2Member.allCases.map {
        Int8(JWSRenewalInfoDecodedPayload.memberPosition($0.key) ?? -1)
    }
}
