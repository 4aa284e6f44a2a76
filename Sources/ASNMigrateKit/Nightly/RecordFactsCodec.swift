/// The compact bytes a nightly state keeps per record (`facts.facts`): a `RecordFacts` without its subscription,
/// notificationUUID and time (columns of their own), about 45 bytes where the JSON payload it replaces took 1.8 KB.
///
/// Layout (format 1): a format byte; a varint of flags (kind, inferred, renewal flags, which of environment and
/// originalTransactionId are absent, an empty notificationUUID); a varint mask of the optional fields present; then each
/// present field in mask order. Texts are ids of the state's `texts` table; numeric Apple ids are varints (a text id
/// when not canonical decimal); dates are zigzag varints relative to an earlier date of the record; small numbers are
/// zigzag varints. Decoding checks every length, so damaged bytes are an error, never a wrong value.
package enum RecordFactsCodec {
    /// The format byte this binary writes.
    package static let format: UInt8 = 1

    /// The optional fields, in mask (and byte) order.
    private enum Field: Int, CaseIterable {
        case notificationType, subtype, v1NotificationType, ruleId, path, line, index
        case productId, webOrderLineItemId, bundleId, inAppOwnershipType, autoRenewProductId, offerIdentifier,
            transactionId
        case purchaseDate, expiresDate, originalPurchaseDate, revocationDate, gracePeriodExpiresDate
        case revocationReason, autoRenewStatus, expirationIntent, priceIncreaseStatus, offerType
    }

    private enum Flag: Int {
        case inferred = 2
        case hasAutoRenewStatus, environmentAbsent, keyAbsent, emptyUUID
        case upgradedKnown, upgraded, retryKnown, retry
    }

    /// Encodes `facts`; `text` gives a text's id in the state's `texts` table (adding it when new).
    package static func encode(_ facts: RecordFacts, text: (String) throws(ASNError) -> Int64) throws(ASNError)
        -> [UInt8]
    {
        var out: [UInt8] = [format]
        out.reserveCapacity(80)
        var flags = UInt64(facts.kind.rawValue)
        func set(_ flag: Flag, _ on: Bool) { if on { flags |= 1 << UInt64(flag.rawValue) } }
        set(.inferred, facts.eventTimeInferred)
        set(.hasAutoRenewStatus, facts.hasAutoRenewStatus)
        set(.environmentAbsent, facts.environment == nil)
        set(.keyAbsent, facts.originalTransactionId == nil)
        set(.emptyUUID, facts.notificationUUID == "")
        set(.upgradedKnown, facts.isUpgraded != nil)
        set(.upgraded, facts.isUpgraded == true)
        set(.retryKnown, facts.isInBillingRetryPeriod != nil)
        set(.retry, facts.isInBillingRetryPeriod == true)
        Varint.append(flags, to: &out)

        var mask: UInt64 = 0
        var body: [UInt8] = []
        body.reserveCapacity(72)
        func textField(_ field: Field, _ value: String?) throws(ASNError) {
            guard let value else { return }
            mask |= 1 << UInt64(field.rawValue)
            Varint.append(UInt64(bitPattern: try text(value)), to: &body)
        }
        func idField(_ field: Field, _ value: String?) throws(ASNError) {
            guard let value else { return }
            mask |= 1 << UInt64(field.rawValue)
            if let number = canonicalNumber(value) {
                Varint.append(number << 1, to: &body)
            } else {
                Varint.append(UInt64(bitPattern: try text(value)) << 1 | 1, to: &body)
            }
        }
        func signedField(_ field: Field, _ value: Int64?, from base: Int64) {
            guard let value else { return }
            mask |= 1 << UInt64(field.rawValue)
            Varint.appendSigned(value &- base, to: &body)
        }
        func intField(_ field: Field, _ value: Int?) {
            signedField(field, value.map(Int64.init), from: 0)
        }
        try textField(.notificationType, facts.notificationType)
        try textField(.subtype, facts.subtype)
        try textField(.v1NotificationType, facts.v1NotificationType)
        try textField(.ruleId, facts.ruleId)
        try textField(.path, facts.location.path)
        intField(.line, facts.location.line)
        intField(.index, facts.location.index)
        try textField(.productId, facts.productId)
        try idField(.webOrderLineItemId, facts.webOrderLineItemId)
        try textField(.bundleId, facts.bundleId)
        try textField(.inAppOwnershipType, facts.inAppOwnershipType)
        try textField(.autoRenewProductId, facts.autoRenewProductId)
        try textField(.offerIdentifier, facts.offerIdentifier)
        try idField(.transactionId, facts.transactionId)
        let base = facts.time ?? 0
        signedField(.purchaseDate, facts.purchaseDate, from: base)
        signedField(.expiresDate, facts.expiresDate, from: facts.purchaseDate ?? base)
        signedField(.originalPurchaseDate, facts.originalPurchaseDate, from: facts.purchaseDate ?? base)
        signedField(.revocationDate, facts.revocationDate, from: facts.purchaseDate ?? base)
        signedField(.gracePeriodExpiresDate, facts.gracePeriodExpiresDate, from: facts.expiresDate ?? base)
        intField(.revocationReason, facts.revocationReason)
        intField(.autoRenewStatus, facts.autoRenewStatus)
        intField(.expirationIntent, facts.expirationIntent)
        intField(.priceIncreaseStatus, facts.priceIncreaseStatus)
        intField(.offerType, facts.offerType)
        Varint.append(mask, to: &out)
        out += body
        return out
    }

    /// Decodes bytes written by `encode`; `environment`, `originalTransactionId`, `notificationUUID` and `time` come
    /// from the row's own columns, `text` resolves a text id. Returns nil when the bytes are damaged or of an unknown format.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, environment: String, originalTransactionId: String,
        notificationUUID: String?, time: Int64?, text: (Int64) -> String?
    ) -> RecordFacts? {
        var reader = Varint.Reader(bytes)
        guard let first = reader.byte(), first == format, let flags = reader.next(),
            let kind = RecordFacts.Kind(rawValue: UInt8(flags & 3)), let mask = reader.next()
        else { return nil }
        func has(_ flag: Flag) -> Bool { flags & (1 << UInt64(flag.rawValue)) != 0 }
        var facts = RecordFacts(kind: kind, location: SourceLocation(path: ""))
        facts.environment = has(.environmentAbsent) ? nil : environment
        facts.originalTransactionId = has(.keyAbsent) ? nil : originalTransactionId
        facts.notificationUUID = has(.emptyUUID) ? "" : notificationUUID
        facts.time = time
        facts.eventTimeInferred = has(.inferred)
        facts.hasAutoRenewStatus = has(.hasAutoRenewStatus)
        facts.isUpgraded = has(.upgradedKnown) ? has(.upgraded) : nil
        facts.isInBillingRetryPeriod = has(.retryKnown) ? has(.retry) : nil
        var damaged = false
        func present(_ field: Field) -> Bool { mask & (1 << UInt64(field.rawValue)) != 0 }
        func textField(_ field: Field) -> String? {
            guard present(field) else { return nil }
            guard let id = reader.next(), let value = text(Int64(bitPattern: id)) else {
                damaged = true
                return nil
            }
            return value
        }
        func idField(_ field: Field) -> String? {
            guard present(field) else { return nil }
            guard let raw = reader.next() else {
                damaged = true
                return nil
            }
            if raw & 1 == 0 { return String(raw >> 1) }
            guard let value = text(Int64(bitPattern: raw >> 1)) else {
                damaged = true
                return nil
            }
            return value
        }
        func signedField(_ field: Field, from base: Int64) -> Int64? {
            guard present(field) else { return nil }
            guard let delta = reader.nextSigned() else {
                damaged = true
                return nil
            }
            return base &+ delta
        }
        func intField(_ field: Field) -> Int? {
            signedField(field, from: 0).map { Int(truncatingIfNeeded: $0) }
        }
        facts.notificationType = textField(.notificationType)
        facts.subtype = textField(.subtype)
        facts.v1NotificationType = textField(.v1NotificationType)
        facts.ruleId = textField(.ruleId)
        facts.location = SourceLocation(path: textField(.path) ?? "", line: intField(.line), index: intField(.index))
        facts.productId = textField(.productId)
        facts.webOrderLineItemId = idField(.webOrderLineItemId)
        facts.bundleId = textField(.bundleId)
        facts.inAppOwnershipType = textField(.inAppOwnershipType)
        facts.autoRenewProductId = textField(.autoRenewProductId)
        facts.offerIdentifier = textField(.offerIdentifier)
        facts.transactionId = idField(.transactionId)
        let base = facts.time ?? 0
        facts.purchaseDate = signedField(.purchaseDate, from: base)
        facts.expiresDate = signedField(.expiresDate, from: facts.purchaseDate ?? base)
        facts.originalPurchaseDate = signedField(.originalPurchaseDate, from: facts.purchaseDate ?? base)
        facts.revocationDate = signedField(.revocationDate, from: facts.purchaseDate ?? base)
        facts.gracePeriodExpiresDate = signedField(.gracePeriodExpiresDate, from: facts.expiresDate ?? base)
        facts.revocationReason = intField(.revocationReason)
        facts.autoRenewStatus = intField(.autoRenewStatus)
        facts.expirationIntent = intField(.expirationIntent)
        facts.priceIncreaseStatus = intField(.priceIncreaseStatus)
        facts.offerType = intField(.offerType)
        guard !damaged, reader.isAtEnd, mask >> UInt64(Field.allCases.count) == 0 else { return nil }
        return facts
    }

    /// The value of a canonical decimal (digits, no leading zero unless "0", below 2^63), else nil; such ids are
    /// stored as numbers and read back as the same text.
    static func canonicalNumber(_ text: String) -> UInt64? {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 19, first != UInt8(ascii: "0") || bytes.count == 1 else {
            return nil
        }
        var value: UInt64 = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + UInt64(b - 0x30)
        }
        return value < 1 << 63 ? value : nil
    }
}
