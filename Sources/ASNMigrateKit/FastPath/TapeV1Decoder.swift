import Foundation

/// Reads a V1 record from a tape exactly as `Envelope.unwrap` and `ResponseBodyV1.init` read the parsed value, for
/// the common shapes only: anything they would reject, and anything unusual (escaped strings in fields the mapping
/// reads, string-held bodies, legacy text dates, booleans in unusual spellings), throws `FastPathDeclined` so the
/// caller falls back to the reference path, which then gives the exact outcome and message.
struct TapeV1Decoder {
    /// The record found on the tape.
    struct Decoded {
        /// The body, as `ResponseBodyV1.init` would decode it.
        var body: ResponseBodyV1
        /// The tape index of the body object (for the canonical bytes of the notificationUUID).
        var bodyIndex: Int
        /// The envelope's receive time, if any.
        var receivedAt: Int64?
    }

    /// The tape being read.
    let tape: JSONTape
    /// Value indices of the fields of the object being read, by field id; -1 when absent.
    private var slots: [Int] = Array(repeating: -1, count: V1Keys.count)

    /// Creates a decoder over a built tape.
    init(tape: JSONTape) {
        self.tape = tape
    }

    /// Unwraps the envelope (if any) and decodes the body.
    mutating func decode() throws(FastPathDeclined) -> Decoded {
        guard !tape.tokens.isEmpty, tape.tokens[0].kind == .object else { throw FastPathDeclined() }
        var index = 0
        var receivedAt: Int64?
        var depth = 0
        while true {
            if lastValue(in: index, key: "notification_type") != nil {
                return Decoded(body: try body(index), bodyIndex: index, receivedAt: receivedAt)
            }
            if receivedAt == nil { receivedAt = try receiveTime(index) }
            guard depth < 3 else { throw FastPathDeclined() }
            var inner: Int?
            for key: StaticString in ["body", "payload", "notification", "data"] {
                guard let value = lastValue(in: index, key: key) else { continue }
                switch tape.tokens[value].kind {
                case .object: inner = value
                case .string, .escapedString: throw FastPathDeclined()
                default: continue
                }
                break
            }
            guard let inner else { throw FastPathDeclined() }
            index = inner
            depth += 1
        }
    }

    // MARK: - Envelope

    /// The value index of the last member named `key` in the object at `object`.
    private func lastValue(in object: Int, key: StaticString) -> Int? {
        let end = tape.tokens[object].end
        var found: Int?
        var k = object + 1
        while k < end {
            if tape.stringEquals(k, key) { found = k + 1 }
            k = tape.next(after: k + 1)
        }
        return found
    }

    /// The receive time of an envelope level, as `Envelope` reads it.
    private func receiveTime(_ object: Int) throws(FastPathDeclined) -> Int64? {
        for key: StaticString in ["received_at", "receivedAt", "timestamp", "time"] {
            guard let value = lastValue(in: object, key: key) else { continue }
            let token = tape.tokens[value]
            switch token.kind {
            case .null: continue
            case .number:
                guard let ms = Timestamp.parseEpoch(text(value)) else { throw FastPathDeclined() }
                return ms
            case .string:
                let s = text(value)
                guard let ms = Timestamp.parseEpoch(s) ?? Timestamp.parseISO8601(s) else { throw FastPathDeclined() }
                return ms
            default:
                throw FastPathDeclined()
            }
        }
        return nil
    }

    // MARK: - Body

    /// Decodes the body object at `index` as `ResponseBodyV1.init` does.
    private mutating func body(_ index: Int) throws(FastPathDeclined) -> ResponseBodyV1 {
        fill(index, V1Keys.top)
        let top = slots
        guard let typeIndex = present(top[V1Keys.notificationType]), tape.tokens[typeIndex].kind == .string else { throw FastPathDeclined() }
        var body = ResponseBodyV1(notificationType: text(typeIndex))
        var unified: [Int]?
        if let u = present(top[V1Keys.unifiedReceipt]) {
            guard tape.tokens[u].kind == .object else { throw FastPathDeclined() }
            fill(u, V1Keys.unified)
            unified = slots
        }
        body.environmentRaw = try string(top[V1Keys.environment])
        if body.environmentRaw == nil, let unified { body.environmentRaw = try string(unified[V1Keys.environment]) }
        body.autoRenewStatus = try bool(top[V1Keys.autoRenewStatus])
        body.autoRenewProductId = try string(top[V1Keys.autoRenewProductId])
        body.autoRenewStatusChangeDate = try date(top[V1Keys.autoRenewStatusChangeDateMs], top[V1Keys.autoRenewStatusChangeDate])
        body.bid = try string(top[V1Keys.bid])
        body.bvrs = try string(top[V1Keys.bvrs])
        body.originalTransactionId = try identifier(top[V1Keys.originalTransactionId])
        body.cancellationDate = try date(top[V1Keys.cancellationDateMs], top[V1Keys.cancellationDate])
        body.webOrderLineItemId = try identifier(top[V1Keys.webOrderLineItemId])
        body.expirationIntent = try code(top[V1Keys.expirationIntent])
        body.isInBillingRetryPeriod = try bool(top[V1Keys.isInBillingRetryPeriod])

        var merged: [LatestReceiptInfo] = []
        var indexById: [String: Int] = [:]
        var lists: [Int] = []
        if let unified { lists += try objectList(unified[V1Keys.latestReceiptInfo]) }
        lists += try objectList(top[V1Keys.latestReceiptInfo])
        lists += try objectList(top[V1Keys.latestExpiredReceiptInfo])
        merged.reserveCapacity(lists.count)
        for object in lists {
            let info = try transaction(object)
            if let id = info.transactionId, let at = indexById[id] {
                merged[at].fillGaps(from: info)
            } else {
                if let id = info.transactionId { indexById[id] = merged.count }
                merged.append(info)
            }
        }
        body.transactions = merged

        var pendingObjects: [Int] = []
        if let unified { pendingObjects += try objectList(unified[V1Keys.pendingRenewalInfo]) }
        pendingObjects += try objectList(top[V1Keys.pendingRenewalInfo])
        var pending: [PendingRenewalInfo] = []
        for object in pendingObjects { pending.append(try pendingRenewal(object)) }
        body.pendingRenewalInfo = pending
        return body
    }

    /// Decodes a `latest_receipt_info` entry as `LatestReceiptInfo.init` does.
    private mutating func transaction(_ object: Int) throws(FastPathDeclined) -> LatestReceiptInfo {
        fill(object, V1Keys.transaction)
        var t = LatestReceiptInfo()
        t.transactionId = try identifier(slots[V1Keys.transactionId])
        t.originalTransactionId = try identifier(slots[V1Keys.originalTransactionId])
        t.webOrderLineItemId = try identifier(slots[V1Keys.webOrderLineItemId])
        t.productId = try string(slots[V1Keys.productId])
        t.subscriptionGroupIdentifier = try string(slots[V1Keys.subscriptionGroupIdentifier])
        t.purchaseDate = try date(slots[V1Keys.purchaseDateMs], slots[V1Keys.purchaseDate])
        t.originalPurchaseDate = try date(slots[V1Keys.originalPurchaseDateMs], slots[V1Keys.originalPurchaseDate])
        t.expiresDate = try date(slots[V1Keys.expiresDateMs], slots[V1Keys.expiresDate])
        t.cancellationDate = try date(slots[V1Keys.cancellationDateMs], slots[V1Keys.cancellationDate])
        t.cancellationReason = try code(slots[V1Keys.cancellationReason])
        t.quantity = try code(slots[V1Keys.quantity])
        t.isTrialPeriod = try bool(slots[V1Keys.isTrialPeriod])
        t.isInIntroOfferPeriod = try bool(slots[V1Keys.isInIntroOfferPeriod])
        t.isUpgraded = try bool(slots[V1Keys.isUpgraded])
        t.offerCodeRefName = try string(slots[V1Keys.offerCodeRefName])
        t.promotionalOfferId = try string(slots[V1Keys.promotionalOfferId])
        t.inAppOwnershipType = try string(slots[V1Keys.inAppOwnershipType])
        t.appAccountToken = try string(slots[V1Keys.appAccountToken])
        t.bid = try string(slots[V1Keys.bid])
        t.bvrs = try string(slots[V1Keys.bvrs])
        return t
    }

    /// Decodes a `pending_renewal_info` entry as `PendingRenewalInfo.init` does.
    private mutating func pendingRenewal(_ object: Int) throws(FastPathDeclined) -> PendingRenewalInfo {
        fill(object, V1Keys.pending)
        var p = PendingRenewalInfo()
        p.autoRenewProductId = try string(slots[V1Keys.autoRenewProductId])
        p.autoRenewStatus = try bool(slots[V1Keys.autoRenewStatus])
        p.originalTransactionId = try identifier(slots[V1Keys.originalTransactionId])
        p.productId = try string(slots[V1Keys.productId])
        p.expirationIntent = try code(slots[V1Keys.expirationIntent])
        p.gracePeriodExpiresDate = try date(slots[V1Keys.gracePeriodExpiresDateMs], slots[V1Keys.gracePeriodExpiresDate])
        p.isInBillingRetryPeriod = try bool(slots[V1Keys.isInBillingRetryPeriod])
        p.priceConsentStatus = try code(slots[V1Keys.priceConsentStatus])
        p.offerCodeRefName = try string(slots[V1Keys.offerCodeRefName])
        p.promotionalOfferId = try string(slots[V1Keys.promotionalOfferId])
        return p
    }

    /// Sets `slots` to the value index of the last member of each known key of the object at `object`.
    private mutating func fill(_ object: Int, _ keys: V1Keys.Table) {
        for k in 0..<slots.count { slots[k] = -1 }
        let end = tape.tokens[object].end
        var k = object + 1
        while k < end {
            let key = tape.tokens[k]
            if let id = keys.lookup(tape.base + key.start, key.end - key.start) { slots[id] = k + 1 }
            k = tape.next(after: k + 1)
        }
    }

    // MARK: - Field readers (V1FieldReader's rules; anything it would throw on, or unusual, declines)

    /// The value index unless absent, null or "".
    private func present(_ index: Int) -> Int? {
        guard index >= 0 else { return nil }
        let token = tape.tokens[index]
        if token.kind == .null { return nil }
        if token.kind == .string && token.start == token.end { return nil }
        return index
    }

    /// The raw bytes of a string or number token as a String.
    private func text(_ index: Int) -> String {
        let token = tape.tokens[index]
        return String(decoding: UnsafeBufferPointer(start: tape.base + token.start, count: token.end - token.start), as: UTF8.self)
    }

    /// Whether the token's bytes are all ASCII digits (at least one, at most `limit`).
    private func allDigits(_ index: Int, limit: Int = .max) -> Bool {
        let token = tape.tokens[index]
        let length = token.end - token.start
        guard length > 0, length <= limit else { return false }
        for k in token.start..<token.end where tape.base[k] &- 0x30 >= 10 { return false }
        return true
    }

    /// Whether a string token starts or ends with a space (which `trimmingSpaces` would remove).
    private func hasOuterSpace(_ index: Int) -> Bool {
        let token = tape.tokens[index]
        return tape.base[token.start] == 0x20 || tape.base[token.end - 1] == 0x20
    }

    /// `V1FieldReader.string`.
    private func string(_ slot: Int) throws(FastPathDeclined) -> String? {
        guard let index = present(slot) else { return nil }
        switch tape.tokens[index].kind {
        case .string, .number: return text(index)
        case .trueLiteral: return "true"
        case .falseLiteral: return "false"
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.identifier`.
    private func identifier(_ slot: Int) throws(FastPathDeclined) -> String? {
        guard let index = present(slot) else { return nil }
        switch tape.tokens[index].kind {
        case .string:
            guard !hasOuterSpace(index) else { throw FastPathDeclined() }
            return text(index)
        case .number:
            guard allDigits(index) else { throw FastPathDeclined() }
            return text(index)
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.bool`, for the usual spellings.
    private func bool(_ slot: Int) throws(FastPathDeclined) -> Bool? {
        guard let index = present(slot) else { return nil }
        let token = tape.tokens[index]
        switch token.kind {
        case .trueLiteral: return true
        case .falseLiteral: return false
        case .string, .number:
            let length = token.end - token.start
            let p = tape.base + token.start
            if length == 1 && p[0] == 0x31 { return true }
            if length == 1 && p[0] == 0x30 { return false }
            if token.kind == .string {
                if length == 4 && memcmp(p, "true", 4) == 0 { return true }
                if length == 5 && memcmp(p, "false", 5) == 0 { return false }
            }
            throw FastPathDeclined()
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.code`.
    private func code(_ slot: Int) throws(FastPathDeclined) -> String? {
        guard let index = present(slot) else { return nil }
        switch tape.tokens[index].kind {
        case .string, .number:
            guard allDigits(index) else { throw FastPathDeclined() }
            return text(index)
        default: throw FastPathDeclined()
        }
    }

    /// `V1FieldReader.date`: the `_ms` field, else the base field (digits, or the text forms).
    private func date(_ msSlot: Int, _ baseSlot: Int) throws(FastPathDeclined) -> Int64? {
        if let index = present(msSlot) {
            return try digitsValue(index)
        }
        guard let index = present(baseSlot) else { return nil }
        switch tape.tokens[index].kind {
        case .number: return try digitsValue(index)
        case .string:
            guard !hasOuterSpace(index) else { throw FastPathDeclined() }
            if allDigits(index) { return try digitsValue(index) }
            guard let ms = V1Dates.parseText(text(index)) else { throw FastPathDeclined() }
            return ms
        default: throw FastPathDeclined()
        }
    }

    /// The value of a string or number token of 1 to 18 digits.
    private func digitsValue(_ index: Int) throws(FastPathDeclined) -> Int64 {
        let token = tape.tokens[index]
        guard token.kind == .string || token.kind == .number, allDigits(index, limit: 18) else { throw FastPathDeclined() }
        var value: Int64 = 0
        for k in token.start..<token.end { value = value &* 10 &+ Int64(tape.base[k] &- 0x30) }
        return value
    }

    /// `V1FieldReader.objectList`: the object indices of a list, or of a single object.
    private func objectList(_ slot: Int) throws(FastPathDeclined) -> [Int] {
        guard let index = present(slot) else { return [] }
        let token = tape.tokens[index]
        switch token.kind {
        case .object: return [index]
        case .array:
            var objects: [Int] = []
            var k = index + 1
            while k < token.end {
                guard tape.tokens[k].kind == .object else { throw FastPathDeclined() }
                objects.append(k)
                k = tape.next(after: k)
            }
            return objects
        default: throw FastPathDeclined()
        }
    }
}

/// Thrown when the fast path leaves a record to the reference path.
struct FastPathDeclined: Error {}
