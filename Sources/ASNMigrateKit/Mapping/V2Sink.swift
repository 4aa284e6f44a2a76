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

/// The members `V2Builder` writes, each named once (the object it is in is the sink's last `open`).
package enum V2Member: Int, CaseIterable, Sendable {
    /// `bundleId`.
    case bundleId
    /// `bundleVersion`.
    case bundleVersion
    /// `status`.
    case status
    /// `transactionId`.
    case transactionId
    /// `originalTransactionId`.
    case originalTransactionId
    /// `webOrderLineItemId`.
    case webOrderLineItemId
    /// `productId`.
    case productId
    /// `subscriptionGroupIdentifier`.
    case subscriptionGroupIdentifier
    /// `purchaseDate`.
    case purchaseDate
    /// `originalPurchaseDate`.
    case originalPurchaseDate
    /// `expiresDate`.
    case expiresDate
    /// `quantity`.
    case quantity
    /// `type`.
    case type
    /// `appAccountToken`.
    case appAccountToken
    /// `inAppOwnershipType`.
    case inAppOwnershipType
    /// `revocationReason`.
    case revocationReason
    /// `revocationDate`.
    case revocationDate
    /// `isUpgraded`.
    case isUpgraded
    /// `offerType`.
    case offerType
    /// `offerIdentifier`.
    case offerIdentifier
    /// `offerDiscountType`.
    case offerDiscountType
    /// `transactionReason`.
    case transactionReason
    /// `autoRenewProductId`.
    case autoRenewProductId
    /// `autoRenewStatus`.
    case autoRenewStatus
    /// `expirationIntent`.
    case expirationIntent
    /// `gracePeriodExpiresDate`.
    case gracePeriodExpiresDate
    /// `isInBillingRetryPeriod`.
    case isInBillingRetryPeriod
    /// `priceIncreaseStatus`.
    case priceIncreaseStatus
    /// `renewalDate`.
    case renewalDate
    /// `recentSubscriptionStartDate`.
    case recentSubscriptionStartDate
    /// `environment` (given by `V2Sink.environment`).
    case environment

    /// The member's JSON key.
    package var key: StaticString {
        switch self {
        case .bundleId: "bundleId"
        case .bundleVersion: "bundleVersion"
        case .status: "status"
        case .transactionId: "transactionId"
        case .originalTransactionId: "originalTransactionId"
        case .webOrderLineItemId: "webOrderLineItemId"
        case .productId: "productId"
        case .subscriptionGroupIdentifier: "subscriptionGroupIdentifier"
        case .purchaseDate: "purchaseDate"
        case .originalPurchaseDate: "originalPurchaseDate"
        case .expiresDate: "expiresDate"
        case .quantity: "quantity"
        case .type: "type"
        case .appAccountToken: "appAccountToken"
        case .inAppOwnershipType: "inAppOwnershipType"
        case .revocationReason: "revocationReason"
        case .revocationDate: "revocationDate"
        case .isUpgraded: "isUpgraded"
        case .offerType: "offerType"
        case .offerIdentifier: "offerIdentifier"
        case .offerDiscountType: "offerDiscountType"
        case .transactionReason: "transactionReason"
        case .autoRenewProductId: "autoRenewProductId"
        case .autoRenewStatus: "autoRenewStatus"
        case .expirationIntent: "expirationIntent"
        case .gracePeriodExpiresDate: "gracePeriodExpiresDate"
        case .isInBillingRetryPeriod: "isInBillingRetryPeriod"
        case .priceIncreaseStatus: "priceIncreaseStatus"
        case .renewalDate: "renewalDate"
        case .recentSubscriptionStartDate: "recentSubscriptionStartDate"
        case .environment: "environment"
        }
    }
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
    }

    /// Puts the filled info into `data`.
    package mutating func close(_ object: V2Object) {
        switch object {
        case .data: break
        case .transaction: payload.data.transactionInfo = transaction
        case .renewal: payload.data.renewalInfo = renewal
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
        switch (current, member) {
        case (.data, .status): payload.data.status = Int(value)
        case (.transaction, .purchaseDate): transaction.purchaseDate = value
        case (.transaction, .originalPurchaseDate): transaction.originalPurchaseDate = value
        case (.transaction, .expiresDate): transaction.expiresDate = value
        case (.transaction, .quantity): transaction.quantity = Int(value)
        case (.transaction, .revocationReason): transaction.revocationReason = Int(value)
        case (.transaction, .revocationDate): transaction.revocationDate = value
        case (.transaction, .offerType): transaction.offerType = Int(value)
        case (.renewal, .autoRenewStatus): renewal.autoRenewStatus = Int(value)
        case (.renewal, .expirationIntent): renewal.expirationIntent = Int(value)
        case (.renewal, .gracePeriodExpiresDate): renewal.gracePeriodExpiresDate = value
        case (.renewal, .priceIncreaseStatus): renewal.priceIncreaseStatus = Int(value)
        case (.renewal, .offerType): renewal.offerType = Int(value)
        case (.renewal, .renewalDate): renewal.renewalDate = value
        case (.renewal, .recentSubscriptionStartDate): renewal.recentSubscriptionStartDate = value
        default: assertionFailure("no integer member \(member) in \(String(describing: current))")
        }
    }

    /// Sets a boolean member.
    package mutating func flag(_ member: V2Member, _ value: Bool?) {
        guard let value else { return }
        switch (current, member) {
        case (.transaction, .isUpgraded): transaction.isUpgraded = value
        case (.renewal, .isInBillingRetryPeriod): renewal.isInBillingRetryPeriod = value
        default: assertionFailure("no boolean member \(member) in \(String(describing: current))")
        }
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
        switch (current, member) {
        case (.data, .bundleId): payload.data.bundleId = string
        case (.data, .bundleVersion): payload.data.bundleVersion = string
        case (.transaction, .transactionId): transaction.transactionId = string
        case (.transaction, .originalTransactionId): transaction.originalTransactionId = string
        case (.transaction, .webOrderLineItemId): transaction.webOrderLineItemId = string
        case (.transaction, .bundleId): transaction.bundleId = string
        case (.transaction, .productId): transaction.productId = string
        case (.transaction, .subscriptionGroupIdentifier): transaction.subscriptionGroupIdentifier = string
        case (.transaction, .type): transaction.type = string
        case (.transaction, .appAccountToken): transaction.appAccountToken = string
        case (.transaction, .inAppOwnershipType): transaction.inAppOwnershipType = string
        case (.transaction, .offerIdentifier): transaction.offerIdentifier = string
        case (.transaction, .offerDiscountType): transaction.offerDiscountType = string
        case (.transaction, .transactionReason): transaction.transactionReason = string
        case (.renewal, .originalTransactionId): renewal.originalTransactionId = string
        case (.renewal, .productId): renewal.productId = string
        case (.renewal, .autoRenewProductId): renewal.autoRenewProductId = string
        case (.renewal, .offerIdentifier): renewal.offerIdentifier = string
        default: assertionFailure("no text member \(member) in \(String(describing: current))")
        }
    }
}
