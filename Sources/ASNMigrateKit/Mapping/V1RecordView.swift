/// What the mapping reads of one V1 record, whatever holds it: the decoded models (`ResponseBodyV1`, the reference)
/// or a tape over the record's bytes (`TapeRecordView`, `migrate`'s and `reconcile`'s fast path).
///
/// `MappingContext` and `V2Builder` are written once over this view; a view only answers what a field holds. Texts
/// are the view's own (a `String`, or a token of the tape), compared and converted by the view; dates are epoch
/// milliseconds. The receipt's transactions are already merged by transaction id, as `ResponseBodyV1` merges them.
package protocol V1RecordView {
    /// A text value as the view holds it.
    associatedtype Text

    /// `notification_type`.
    var notificationType: Text { get }
    /// A text field of the body itself.
    func text(_ field: V1BodyField) -> Text?
    /// A date field of the body itself.
    func date(_ field: V1BodyField) -> Int64?
    /// A flag of the body itself.
    func flag(_ field: V1BodyField) -> Bool?

    /// How many transactions the receipt holds (merged by transaction id).
    var entryCount: Int { get }
    /// A text field of transaction `i`.
    func text(_ i: Int, _ field: V1EntryField) -> Text?
    /// A date of transaction `i`.
    func date(_ i: Int, _ field: V1EntryField) -> Int64?
    /// A flag of transaction `i`.
    func flag(_ i: Int, _ field: V1EntryField) -> Bool?

    /// How many `pending_renewal_info` entries the record holds.
    var pendingCount: Int { get }
    /// A text field of renewal entry `i`.
    func pendingText(_ i: Int, _ field: V1PendingField) -> Text?
    /// A date of renewal entry `i`.
    func pendingDate(_ i: Int, _ field: V1PendingField) -> Int64?
    /// A flag of renewal entry `i`.
    func pendingFlag(_ i: Int, _ field: V1PendingField) -> Bool?

    /// Whether two texts are the same.
    func same(_ a: Text, _ b: Text) -> Bool
    /// `IdentifierOrder.less` for two ids (an absent one is the empty text).
    func identifierLess(_ a: Text?, _ b: Text?) -> Bool
    /// `Int(text)` of a code's digits: nil beyond `Int`.
    func integer(_ text: Text) -> Int?
    /// Whether a code equals a rule's argument, leading zeros aside (both absent: equal).
    func digitsMatch(_ text: Text?, _ argument: String?) -> Bool
    /// `EnvironmentName.normalized` of an environment text.
    func environment(_ text: Text) -> V2Environment<Text>
    /// The text as a `String`.
    func string(_ text: Text) -> String
    /// Appends the text as a JSON string (quoted, escaped as `JSONWriter` escapes).
    func appendJSON(_ text: Text, to out: inout [UInt8])
    /// Gives the text's UTF-8 bytes to `body`.
    func withUTF8<R>(_ text: Text, _ body: (UnsafeRawBufferPointer) -> R) -> R
}

/// The V2 `environment` of a record: `EnvironmentName.normalized` over a view's text.
package enum V2Environment<Text> {
    /// `Production`.
    case production
    /// `Sandbox`.
    case sandbox
    /// Kept raw.
    case raw(Text)
}

/// The fields of a V1 body itself the mapping reads (besides `notification_type` and its lists), with their keys.
package enum V1BodyField: Int, CaseIterable, Sendable {
    /// `environment` (else `unified_receipt.environment`).
    case environment
    /// `auto_renew_status`.
    case autoRenewStatus
    /// `auto_renew_product_id`.
    case autoRenewProductId
    /// `auto_renew_status_change_date`.
    case autoRenewStatusChangeDate
    /// `bid`.
    case bid
    /// `bvrs`.
    case bvrs
    /// `original_transaction_id`.
    case originalTransactionId
    /// `cancellation_date`.
    case cancellationDate
    /// `web_order_line_item_id`.
    case webOrderLineItemId
    /// `expiration_intent`.
    case expirationIntent
    /// `is_in_billing_retry_period`.
    case isInBillingRetryPeriod

    /// Its key.
    package var key: V1Key {
        switch self {
        case .environment: .environment
        case .autoRenewStatus: .autoRenewStatus
        case .autoRenewProductId: .autoRenewProductId
        case .autoRenewStatusChangeDate: .autoRenewStatusChangeDate
        case .bid: .bid
        case .bvrs: .bvrs
        case .originalTransactionId: .originalTransactionId
        case .cancellationDate: .cancellationDate
        case .webOrderLineItemId: .webOrderLineItemId
        case .expirationIntent: .expirationIntent
        case .isInBillingRetryPeriod: .isInBillingRetryPeriod
        }
    }

    /// How it is read.
    package var kind: V1FieldKind {
        switch self {
        case .environment, .autoRenewProductId, .bid, .bvrs: .text
        case .originalTransactionId, .webOrderLineItemId: .identifier
        case .expirationIntent: .code
        case .autoRenewStatusChangeDate, .cancellationDate: .date
        case .autoRenewStatus, .isInBillingRetryPeriod: .flag
        }
    }
}

/// A field of a receipt transaction (`LatestReceiptInfo`): one of `LatestReceiptInfo.keys`, in its order, so a
/// receipt field is declared with the model's members; the mapping's rules name the fields they read
/// (`V1EntryField.isUpgraded`), a field copied by the table is named only by its key.
package struct V1EntryField: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The field's place in `LatestReceiptInfo.keys` (and in the model's `visitMembers`).
    package let rawValue: Int

    /// The field at `rawValue`.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The field read under `key`, which must be a receipt key.
    init(_ key: V1Key) {
        rawValue = LatestReceiptInfo.keys.firstIndex { $0.name == key.name } ?? -1
    }

    /// Every field, in the model's member order.
    package static let allCases: [V1EntryField] = LatestReceiptInfo.keys.indices.map(V1EntryField.init(rawValue:))

    /// Each field's key, by raw value.
    private static let keys: [V1Key] = LatestReceiptInfo.keys.map { V1Key(named: $0.name) }
    /// Each field's kind, by raw value.
    private static let kinds: [V1FieldKind] = LatestReceiptInfo.keys.map(\.kind)

    /// Its key.
    package var key: V1Key { Self.keys[rawValue] }

    /// How it is read.
    package var kind: V1FieldKind { Self.kinds[rawValue] }

    /// `transaction_id`.
    static let transactionId = V1EntryField(.transactionId)
    /// `original_transaction_id`.
    static let originalTransactionId = V1EntryField(.originalTransactionId)
    /// `web_order_line_item_id`.
    static let webOrderLineItemId = V1EntryField(.webOrderLineItemId)
    /// `product_id`.
    static let productId = V1EntryField(.productId)
    /// `subscription_group_identifier`.
    static let subscriptionGroupIdentifier = V1EntryField(.subscriptionGroupIdentifier)
    /// `purchase_date`.
    static let purchaseDate = V1EntryField(.purchaseDate)
    /// `expires_date`.
    static let expiresDate = V1EntryField(.expiresDate)
    /// `cancellation_date`.
    static let cancellationDate = V1EntryField(.cancellationDate)
    /// `cancellation_reason`.
    static let cancellationReason = V1EntryField(.cancellationReason)
    /// `is_trial_period`.
    static let isTrialPeriod = V1EntryField(.isTrialPeriod)
    /// `is_in_intro_offer_period`.
    static let isInIntroOfferPeriod = V1EntryField(.isInIntroOfferPeriod)
    /// `is_upgraded`.
    static let isUpgraded = V1EntryField(.isUpgraded)
    /// `offer_code_ref_name`.
    static let offerCodeRefName = V1EntryField(.offerCodeRefName)
    /// `promotional_offer_id`.
    static let promotionalOfferId = V1EntryField(.promotionalOfferId)
    /// `in_app_ownership_type`.
    static let inAppOwnershipType = V1EntryField(.inAppOwnershipType)
    /// `app_account_token`.
    static let appAccountToken = V1EntryField(.appAccountToken)
    /// `bid`.
    static let bid = V1EntryField(.bid)
    /// `bvrs`.
    static let bvrs = V1EntryField(.bvrs)
}

/// The fields of a `pending_renewal_info` entry (`PendingRenewalInfo`), with their keys.
package enum V1PendingField: Int, CaseIterable, Sendable {
    /// `auto_renew_product_id`.
    case autoRenewProductId
    /// `auto_renew_status`.
    case autoRenewStatus
    /// `original_transaction_id`.
    case originalTransactionId
    /// `product_id`.
    case productId
    /// `expiration_intent`.
    case expirationIntent
    /// `grace_period_expires_date`.
    case gracePeriodExpiresDate
    /// `is_in_billing_retry_period`.
    case isInBillingRetryPeriod
    /// `price_consent_status`.
    case priceConsentStatus
    /// `offer_code_ref_name`.
    case offerCodeRefName
    /// `promotional_offer_id`.
    case promotionalOfferId

    /// Its key.
    package var key: V1Key {
        switch self {
        case .autoRenewProductId: .autoRenewProductId
        case .autoRenewStatus: .autoRenewStatus
        case .originalTransactionId: .originalTransactionId
        case .productId: .productId
        case .expirationIntent: .expirationIntent
        case .gracePeriodExpiresDate: .gracePeriodExpiresDate
        case .isInBillingRetryPeriod: .isInBillingRetryPeriod
        case .priceConsentStatus: .priceConsentStatus
        case .offerCodeRefName: .offerCodeRefName
        case .promotionalOfferId: .promotionalOfferId
        }
    }

    /// How it is read.
    package var kind: V1FieldKind {
        switch self {
        case .originalTransactionId: .identifier
        case .expirationIntent, .priceConsentStatus: .code
        case .gracePeriodExpiresDate: .date
        case .autoRenewStatus, .isInBillingRetryPeriod: .flag
        default: .text
        }
    }
}

extension V1RecordView {
    /// Whether two optional texts are the same; two absent ones are.
    package func same(_ a: Text?, _ b: Text?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return same(a, b)
    }

    /// Whether transactions `i` and `j` are equal in every field (as two `LatestReceiptInfo` values are).
    package func entriesEqual(_ i: Int, _ j: Int) -> Bool {
        if i == j { return true }
        for field in V1EntryField.allCases {
            switch field.kind {
            case .date: if date(i, field) != date(j, field) { return false }
            case .flag: if flag(i, field) != flag(j, field) { return false }
            case .text, .identifier, .code: if !same(text(i, field), text(j, field)) { return false }
            }
        }
        return true
    }
}

// MARK: - The models

extension ResponseBodyV1: V1RecordView {
    /// A text field of the body.
    package func text(_ field: V1BodyField) -> String? {
        switch field {
        case .environment: environmentRaw
        case .autoRenewProductId: autoRenewProductId
        case .bid: bid
        case .bvrs: bvrs
        case .originalTransactionId: originalTransactionId
        case .webOrderLineItemId: webOrderLineItemId
        case .expirationIntent: expirationIntent
        default: nil
        }
    }

    /// A date of the body.
    package func date(_ field: V1BodyField) -> Int64? {
        switch field {
        case .autoRenewStatusChangeDate: autoRenewStatusChangeDate
        case .cancellationDate: cancellationDate
        default: nil
        }
    }

    /// A flag of the body.
    package func flag(_ field: V1BodyField) -> Bool? {
        switch field {
        case .autoRenewStatus: autoRenewStatus
        case .isInBillingRetryPeriod: isInBillingRetryPeriod
        default: nil
        }
    }

    /// `transactions.count`.
    package var entryCount: Int { transactions.count }

    /// A text field of `transactions[i]`, read by the model's member visit at the field's place.
    package func text(_ i: Int, _ field: V1EntryField) -> String? {
        if case .text(let text) = transactions[i].member(at: field.rawValue) { return text }
        return nil
    }

    /// A date of `transactions[i]`, read by the model's member visit.
    package func date(_ i: Int, _ field: V1EntryField) -> Int64? {
        if case .integer(let date) = transactions[i].member(at: field.rawValue) { return date }
        return nil
    }

    /// A flag of `transactions[i]`, read by the model's member visit.
    package func flag(_ i: Int, _ field: V1EntryField) -> Bool? {
        if case .flag(let flag) = transactions[i].member(at: field.rawValue) { return flag }
        return nil
    }

    /// `pendingRenewalInfo.count`.
    package var pendingCount: Int { pendingRenewalInfo.count }

    /// A text field of `pendingRenewalInfo[i]`.
    package func pendingText(_ i: Int, _ field: V1PendingField) -> String? {
        let p = pendingRenewalInfo[i]
        switch field {
        case .autoRenewProductId: return p.autoRenewProductId
        case .originalTransactionId: return p.originalTransactionId
        case .productId: return p.productId
        case .expirationIntent: return p.expirationIntent
        case .priceConsentStatus: return p.priceConsentStatus
        case .offerCodeRefName: return p.offerCodeRefName
        case .promotionalOfferId: return p.promotionalOfferId
        default: return nil
        }
    }

    /// A date of `pendingRenewalInfo[i]`.
    package func pendingDate(_ i: Int, _ field: V1PendingField) -> Int64? {
        field == .gracePeriodExpiresDate ? pendingRenewalInfo[i].gracePeriodExpiresDate : nil
    }

    /// A flag of `pendingRenewalInfo[i]`.
    package func pendingFlag(_ i: Int, _ field: V1PendingField) -> Bool? {
        switch field {
        case .autoRenewStatus: pendingRenewalInfo[i].autoRenewStatus
        case .isInBillingRetryPeriod: pendingRenewalInfo[i].isInBillingRetryPeriod
        default: nil
        }
    }

    /// `==`.
    package func same(_ a: String, _ b: String) -> Bool { a == b }

    /// `IdentifierOrder.less`, an absent id as the empty text.
    package func identifierLess(_ a: String?, _ b: String?) -> Bool { IdentifierOrder.less(a ?? "", b ?? "") }

    /// `Int(text)`.
    package func integer(_ text: String) -> Int? { Int(text) }

    /// Digits compared without their leading zeros ("0" for none left).
    package func digitsMatch(_ text: String?, _ argument: String?) -> Bool {
        text.map(Self.trimZeros) == argument.map(Self.trimZeros)
    }

    /// `EnvironmentName.normalized`.
    package func environment(_ text: String) -> V2Environment<String> {
        switch EnvironmentName.normalized(text) {
        case "Production": .production
        case "Sandbox": .sandbox
        default: .raw(text)
        }
    }

    /// The text itself.
    package func string(_ text: String) -> String { text }

    /// `JSONWriter.appendString`.
    package func appendJSON(_ text: String, to out: inout [UInt8]) { JSONWriter.appendString(text, to: &out) }

    /// The string's UTF-8 bytes.
    package func withUTF8<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var text = text
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// Digits without their leading zeros ("0" for none left).
    private static func trimZeros(_ s: String) -> String {
        let t = s.drop { $0 == "0" }
        return t.isEmpty ? "0" : String(t)
    }
}
