import Foundation

/// `migrate`'s fastest path: a V1 record's V2 JSON line written straight from its bytes, byte for byte what
/// `FastRecordMapper` and `MigrationOutput.appendJSONLine` give, without a model or a `String` per field.
///
/// The body's fields are read by `TapeFieldSource`'s own rules as token indices (text is the raw bytes of its token,
/// dates milliseconds); the receipt's transactions and renewal entries are kept as those indices in arrays reused
/// from record to record; `MappingContext`'s choices (the subscription, its transactions oldest first, the relevant,
/// previous and newest one, the event time) are made over them, the rules' conditions are `MappingEngine.holds`
/// itself, and the notificationUUID's canonical bytes stream into SHA-1 (`TapeCanonicalWriter.digest`). Anything it
/// does not handle exactly alike (what `FastRecordMapper` declines, text beyond ASCII, a type no rule maps, a record
/// no rule matches) returns nil and is left to the model paths. One migrator serves one thread; differential tests
/// hold it to the reference.
final class TapeMigrator {
    /// A receipt entry (`LatestReceiptInfo`): text as token indices (-1 when absent), dates, flags.
    private struct Entry {
        var transactionId: Int32 = -1
        var originalTransactionId: Int32 = -1
        var webOrderLineItemId: Int32 = -1
        var productId: Int32 = -1
        var subscriptionGroupIdentifier: Int32 = -1
        var purchaseDate: Int64?
        var originalPurchaseDate: Int64?
        var expiresDate: Int64?
        var cancellationDate: Int64?
        var cancellationReason: Int32 = -1
        var quantity: Int32 = -1
        var isTrialPeriod: Bool?
        var isInIntroOfferPeriod: Bool?
        var isUpgraded: Bool?
        var offerCodeRefName: Int32 = -1
        var promotionalOfferId: Int32 = -1
        var inAppOwnershipType: Int32 = -1
        var appAccountToken: Int32 = -1
        var bid: Int32 = -1
        var bvrs: Int32 = -1
    }

    /// A `pending_renewal_info` entry (`PendingRenewalInfo`).
    private struct Pending {
        var autoRenewProductId: Int32 = -1
        var autoRenewStatus: Bool?
        var originalTransactionId: Int32 = -1
        var productId: Int32 = -1
        var expirationIntent: Int32 = -1
        var gracePeriodExpiresDate: Int64?
        var isInBillingRetryPeriod: Bool?
        var priceConsentStatus: Int32 = -1
        var offerCodeRefName: Int32 = -1
        var promotionalOfferId: Int32 = -1
    }

    /// The body's own fields (`ResponseBodyV1`).
    private struct Body {
        var notificationType: Int32 = -1
        var environment: Int32 = -1
        var autoRenewStatus: Bool?
        var autoRenewProductId: Int32 = -1
        var autoRenewStatusChangeDate: Int64?
        var bid: Int32 = -1
        var bvrs: Int32 = -1
        var originalTransactionId: Int32 = -1
        var cancellationDate: Int64?
        var expirationIntent: Int32 = -1
        var isInBillingRetryPeriod: Bool?
    }

    /// `MappingContext` over the record's entries: positions in `entries`, `pendings` and `history`, -1 for none.
    private struct Context {
        var subscription: Int32 = -1
        var pending = -1
        var relevant = -1
        var relevantAt = -1
        var previous = -1
        var newest = -1
        var eventTime: Int64?
        var eventTimeInferred = false
    }

    /// The rules' view of a record (`MappingFacts`), from the context.
    private struct Facts: MappingFacts {
        var relevantTransaction: RuleTransaction?
        var previousTransaction: RuleTransaction?
        var eventTime: Int64?
        var autoRenewStatus: Bool?
        var isInBillingRetryPeriod: Bool?
        var pendingGracePeriodExpiresDate: Int64?
        var autoRenewProductDiffers: Bool
        /// The expiration intent's digits.
        var expirationIntent: UnsafeBufferPointer<UInt8>?
        /// The pending entry's price consent digits.
        var priceConsentStatus: UnsafeBufferPointer<UInt8>?

        func expirationIntentMatches(_ argument: String?) -> Bool {
            TapeMigrator.digitsMatch(expirationIntent, argument)
        }

        func priceConsentStatusMatches(_ argument: String?) -> Bool {
            TapeMigrator.digitsMatch(priceConsentStatus, argument)
        }
    }

    /// The plan.
    private let plan: TapeMigration
    /// The record's tape and its slots, reused.
    private var slots: TapeSlots
    /// The receipt's transactions, merged by id.
    private var entries: [Entry] = []
    /// A hash of each entry's transaction id (0 without one), for the merge.
    private var idHashes: [UInt64] = []
    /// The renewal entries.
    private var pendings: [Pending] = []
    /// The subscription's transactions oldest first, as positions in `entries`.
    private var history: [Int] = []
    /// The canonical writer streaming into SHA-1.
    private var canonical: TapeCanonicalWriter
    /// Its chunk.
    private let chunk: UnsafeMutablePointer<UInt8>
    /// The size of the chunk.
    private static let chunkSize = 16 << 10

    /// A migrator following `plan`.
    init(plan: TapeMigration) {
        self.plan = plan
        chunk = .allocate(capacity: Self.chunkSize)
        canonical = TapeCanonicalWriter(chunk: chunk, capacity: Self.chunkSize)
        slots = TapeSlots(tape: JSONTape(base: UnsafePointer(chunk), count: 0))
        entries.reserveCapacity(64)
        idHashes.reserveCapacity(64)
        pendings.reserveCapacity(4)
        history.reserveCapacity(64)
    }

    /// How many routes the plan has (`TapeMigration.routes`).
    var routeCount: Int { plan.routes.count }

    /// The token capacity the migrator holds on to between records.
    var tokenCapacity: Int { slots.tape.tokens.capacity }

    /// The most tokens, and receipt entries, a migrator keeps room for between batches: one huge record (up to
    /// `--max-record-bytes`) must not leave its tape's memory held for the rest of the run.
    static let keptTokens = 1 << 16
    /// See `keptTokens`.
    static let keptEntries = 1 << 10

    /// Lets go of buffers grown past what ordinary records need (after a huge record), so memory stays flat.
    func trim() {
        if slots.tape.tokens.capacity > Self.keptTokens {
            slots = TapeSlots(tape: JSONTape(base: UnsafePointer(chunk), count: 0))
        }
        if entries.capacity > Self.keptEntries {
            entries = []
            idHashes = []
            history = []
        }
        if pendings.capacity > Self.keptEntries { pendings = [] }
    }

    /// Frees the chunk.
    deinit {
        chunk.deallocate()
    }

    /// Appends the record's V2 JSON line (with `\n`) to `out` and returns its route in `plan.routes`; nil (with
    /// nothing appended) when the record is left to the model paths.
    func migrate(_ record: RawRecord, into out: inout [UInt8]) -> Int? {
        record.bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, !buffer.isEmpty, slots.load(base: base, count: buffer.count) else {
                return nil
            }
            let tape = slots.tape
            guard !tape.hasNonASCII else { return nil }
            do {
                let found = try TapeV1Decoder(tape: tape).locate()
                let body = try readBody(found.bodyIndex, tape)
                guard let type = v1Type(body.notificationType, tape) else { return nil }
                let context = makeContext(body, type: type, receivedAt: found.receivedAt, tape)
                let facts = makeFacts(body, context, tape)
                guard
                    let match = type.candidates.first(where: { candidate in
                        plan.rules[candidate.rule].conditions.allSatisfy { plan.engine.holds($0, facts) }
                    })
                else { return nil }
                var digest: (UInt64, UInt64, UInt32) = (0, 0, 0)
                withUnsafeMutableBytes(of: &digest) { raw in
                    guard let d = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                    V1RecordMapper.uuidNamespace.withUnsafeBytes { namespace in
                        canonical.digest(prefix: namespace, tape, found.bodyIndex, into: d)
                    }
                }
                var json = JSONOut(tape: tape)
                swap(&json.bytes, &out)
                writePayload(
                    plan.rules[match.rule], uuid: digest, body: body, context: context, facts: facts,
                    location: record.location, to: &json)
                swap(&json.bytes, &out)
                return match.route
            } catch {
                return nil
            }
        }
    }

    // MARK: - Reading

    /// The body's fields and its receipt's entries, by `ResponseBodyV1`'s reading (declining what it would reject).
    private func readBody(_ index: Int, _ tape: JSONTape) throws(FastPathDeclined) -> Body {
        let r = try TapeFieldSource(slots, object: index)
        var b = Body()
        b.notificationType = try r.requiredStringToken(.notificationType)
        let unified = try r.nested(.unifiedReceipt)
        b.environment = try r.stringToken(.environment)
        if b.environment < 0, let unified { b.environment = try unified.stringToken(.environment) }
        b.autoRenewStatus = try r.bool(.autoRenewStatus)
        b.autoRenewProductId = try r.stringToken(.autoRenewProductId)
        b.autoRenewStatusChangeDate = try r.date(.autoRenewStatusChangeDate)
        b.bid = try r.stringToken(.bid)
        b.bvrs = try r.stringToken(.bvrs)
        b.originalTransactionId = try r.identifierToken(.originalTransactionId)
        b.cancellationDate = try r.date(.cancellationDate)
        _ = try r.identifierToken(.webOrderLineItemId)
        b.expirationIntent = try r.codeToken(.expirationIntent)
        b.isInBillingRetryPeriod = try r.bool(.isInBillingRetryPeriod)

        entries.removeAll(keepingCapacity: true)
        idHashes.removeAll(keepingCapacity: true)
        if let unified { try addEntries(unified, .latestReceiptInfo, tape) }
        try addEntries(r, .latestReceiptInfo, tape)
        try addEntries(r, .latestExpiredReceiptInfo, tape)
        pendings.removeAll(keepingCapacity: true)
        if let unified { try addPendings(unified) }
        try addPendings(r)
        return b
    }

    /// Adds the entries of the list at `key`.
    private func addEntries(_ r: TapeFieldSource, _ key: V1Key, _ tape: JSONTape) throws(FastPathDeclined) {
        try r.forEachObject(key) { (source: TapeFieldSource) throws(FastPathDeclined) -> Void in
            self.add(try Self.entry(source), tape)
        }
    }

    /// Adds the renewal entries of `pending_renewal_info`.
    private func addPendings(_ r: TapeFieldSource) throws(FastPathDeclined) {
        try r.forEachObject(.pendingRenewalInfo) { (source: TapeFieldSource) throws(FastPathDeclined) -> Void in
            self.pendings.append(try Self.pending(source))
        }
    }

    /// One receipt entry, by `LatestReceiptInfo`'s reading.
    private static func entry(_ r: TapeFieldSource) throws(FastPathDeclined) -> Entry {
        var e = Entry()
        e.transactionId = try r.identifierToken(.transactionId)
        e.originalTransactionId = try r.identifierToken(.originalTransactionId)
        e.webOrderLineItemId = try r.identifierToken(.webOrderLineItemId)
        e.productId = try r.stringToken(.productId)
        e.subscriptionGroupIdentifier = try r.stringToken(.subscriptionGroupIdentifier)
        e.purchaseDate = try r.date(.purchaseDate)
        e.originalPurchaseDate = try r.date(.originalPurchaseDate)
        e.expiresDate = try r.date(.expiresDate)
        e.cancellationDate = try r.date(.cancellationDate)
        e.cancellationReason = try r.codeToken(.cancellationReason)
        e.quantity = try r.codeToken(.quantity)
        e.isTrialPeriod = try r.bool(.isTrialPeriod)
        e.isInIntroOfferPeriod = try r.bool(.isInIntroOfferPeriod)
        e.isUpgraded = try r.bool(.isUpgraded)
        e.offerCodeRefName = try r.stringToken(.offerCodeRefName)
        e.promotionalOfferId = try r.stringToken(.promotionalOfferId)
        e.inAppOwnershipType = try r.stringToken(.inAppOwnershipType)
        e.appAccountToken = try r.stringToken(.appAccountToken)
        e.bid = try r.stringToken(.bid)
        e.bvrs = try r.stringToken(.bvrs)
        return e
    }

    /// One renewal entry, by `PendingRenewalInfo`'s reading.
    private static func pending(_ r: TapeFieldSource) throws(FastPathDeclined) -> Pending {
        var p = Pending()
        p.autoRenewProductId = try r.stringToken(.autoRenewProductId)
        p.autoRenewStatus = try r.bool(.autoRenewStatus)
        p.originalTransactionId = try r.identifierToken(.originalTransactionId)
        p.productId = try r.stringToken(.productId)
        p.expirationIntent = try r.codeToken(.expirationIntent)
        p.gracePeriodExpiresDate = try r.date(.gracePeriodExpiresDate)
        p.isInBillingRetryPeriod = try r.bool(.isInBillingRetryPeriod)
        p.priceConsentStatus = try r.codeToken(.priceConsentStatus)
        p.offerCodeRefName = try r.stringToken(.offerCodeRefName)
        p.promotionalOfferId = try r.stringToken(.promotionalOfferId)
        return p
    }

    /// Adds an entry, filling the gaps of an earlier copy with the same transaction id instead (as
    /// `ResponseBodyV1` merges them).
    private func add(_ entry: Entry, _ tape: JSONTape) {
        let hash = entry.transactionId < 0 ? 0 : Self.hash(entry.transactionId, tape)
        if entry.transactionId >= 0 {
            for k in idHashes.indices where idHashes[k] == hash && entries[k].transactionId >= 0 {
                guard Self.same(entries[k].transactionId, entry.transactionId, tape) else { continue }
                Self.fillGaps(&entries[k], from: entry)
                return
            }
        }
        entries.append(entry)
        idHashes.append(hash)
    }

    /// `LatestReceiptInfo.fillGaps`.
    private static func fillGaps(_ e: inout Entry, from o: Entry) {
        if e.transactionId < 0 { e.transactionId = o.transactionId }
        if e.originalTransactionId < 0 { e.originalTransactionId = o.originalTransactionId }
        if e.webOrderLineItemId < 0 { e.webOrderLineItemId = o.webOrderLineItemId }
        if e.productId < 0 { e.productId = o.productId }
        if e.subscriptionGroupIdentifier < 0 { e.subscriptionGroupIdentifier = o.subscriptionGroupIdentifier }
        e.purchaseDate = e.purchaseDate ?? o.purchaseDate
        e.originalPurchaseDate = e.originalPurchaseDate ?? o.originalPurchaseDate
        e.expiresDate = e.expiresDate ?? o.expiresDate
        e.cancellationDate = e.cancellationDate ?? o.cancellationDate
        if e.cancellationReason < 0 { e.cancellationReason = o.cancellationReason }
        if e.quantity < 0 { e.quantity = o.quantity }
        e.isTrialPeriod = e.isTrialPeriod ?? o.isTrialPeriod
        e.isInIntroOfferPeriod = e.isInIntroOfferPeriod ?? o.isInIntroOfferPeriod
        e.isUpgraded = e.isUpgraded ?? o.isUpgraded
        if e.offerCodeRefName < 0 { e.offerCodeRefName = o.offerCodeRefName }
        if e.promotionalOfferId < 0 { e.promotionalOfferId = o.promotionalOfferId }
        if e.inAppOwnershipType < 0 { e.inAppOwnershipType = o.inAppOwnershipType }
        if e.appAccountToken < 0 { e.appAccountToken = o.appAccountToken }
        if e.bid < 0 { e.bid = o.bid }
        if e.bvrs < 0 { e.bvrs = o.bvrs }
    }

    /// Whether two entries are equal as `LatestReceiptInfo` values (text compared by bytes: all of it is ASCII).
    private static func equal(_ a: Entry, _ b: Entry, _ tape: JSONTape) -> Bool {
        a.purchaseDate == b.purchaseDate && a.originalPurchaseDate == b.originalPurchaseDate
            && a.expiresDate == b.expiresDate && a.cancellationDate == b.cancellationDate
            && a.isTrialPeriod == b.isTrialPeriod && a.isInIntroOfferPeriod == b.isInIntroOfferPeriod
            && a.isUpgraded == b.isUpgraded && same(a.transactionId, b.transactionId, tape)
            && same(a.originalTransactionId, b.originalTransactionId, tape)
            && same(a.webOrderLineItemId, b.webOrderLineItemId, tape) && same(a.productId, b.productId, tape)
            && same(a.subscriptionGroupIdentifier, b.subscriptionGroupIdentifier, tape)
            && same(a.cancellationReason, b.cancellationReason, tape) && same(a.quantity, b.quantity, tape)
            && same(a.offerCodeRefName, b.offerCodeRefName, tape)
            && same(a.promotionalOfferId, b.promotionalOfferId, tape)
            && same(a.inAppOwnershipType, b.inAppOwnershipType, tape)
            && same(a.appAccountToken, b.appAccountToken, tape) && same(a.bid, b.bid, tape)
            && same(a.bvrs, b.bvrs, tape)
    }

    // MARK: - Context

    /// The plan's entry for the record's type; nil when no rule names it (an unmapped record).
    private func v1Type(_ token: Int32, _ tape: JSONTape) -> TapeMigration.V1Type? {
        let t = tape.tokens[Int(token)]
        let length = t.end - t.start
        // By index, each type's bytes read in place: iterating the types would copy (retain) each one.
        for k in plan.types.indices where plan.types[k].bytes.count == length {
            let same = plan.types[k].bytes.withUnsafeBufferPointer { bytes -> Bool in
                guard let p = bytes.baseAddress else { return length == 0 }
                return ByteTables.equal(p, tape.base + t.start, length)
            }
            if same { return plan.types[k] }
        }
        return nil
    }

    /// `MappingContext.init` over the entries.
    private func makeContext(_ body: Body, type: TapeMigration.V1Type, receivedAt: Int64?, _ tape: JSONTape)
        -> Context
    {
        var c = Context()
        // Local copies: reads of a class's arrays are each checked for exclusive access, of a local's not.
        let entries = self.entries
        let pendings = self.pendings
        var history = self.history
        self.history = []
        defer { self.history = history }
        // The subscription: top-level id, else pending_renewal_info's, else the transaction matching
        // auto_renew_product_id.
        var subscription = body.originalTransactionId
        var pendingEntry = -1
        if subscription < 0 {
            var candidates = 0
            var firstCandidate = -1
            for (k, p) in pendings.enumerated() where p.originalTransactionId >= 0 {
                candidates += 1
                if firstCandidate < 0 { firstCandidate = k }
            }
            if candidates == 1 {
                pendingEntry = firstCandidate
            } else if body.autoRenewProductId >= 0 {
                let product = body.autoRenewProductId
                pendingEntry =
                    pendings.indices.first {
                        pendings[$0].originalTransactionId >= 0
                            && Self.same(pendings[$0].autoRenewProductId, product, tape)
                    }
                    ?? pendings.indices.first {
                        pendings[$0].originalTransactionId >= 0 && Self.same(pendings[$0].productId, product, tape)
                    } ?? -1
            }
            if pendingEntry < 0, firstCandidate >= 0, body.autoRenewProductId < 0 { pendingEntry = firstCandidate }
            subscription = pendingEntry >= 0 ? pendings[pendingEntry].originalTransactionId : -1
        }
        if subscription < 0, body.autoRenewProductId >= 0 {
            var best = -1
            for k in entries.indices where Self.same(entries[k].productId, body.autoRenewProductId, tape) {
                if best < 0 || Self.precedes(entries[best], entries[k], tape) { best = k }
            }
            if best >= 0 { subscription = entries[best].originalTransactionId }
        }
        if subscription < 0 {
            var best = -1
            for k in entries.indices where best < 0 || Self.precedes(entries[best], entries[k], tape) { best = k }
            if best >= 0 { subscription = entries[best].originalTransactionId }
        }
        c.subscription = subscription
        if pendingEntry < 0, subscription >= 0 {
            pendingEntry =
                pendings.indices.first { Self.same(pendings[$0].originalTransactionId, subscription, tape) } ?? -1
        }
        if pendingEntry < 0, pendings.count == 1, pendings[0].originalTransactionId < 0 { pendingEntry = 0 }
        c.pending = pendingEntry

        // The subscription's transactions (all of them when none match), oldest first; equal ones keep their order.
        history.removeAll(keepingCapacity: true)
        if subscription >= 0 {
            for k in entries.indices where Self.same(entries[k].originalTransactionId, subscription, tape) {
                history.append(k)
            }
        }
        if history.isEmpty { history.append(contentsOf: entries.indices) }
        var k = 1
        while k < history.count {
            let moving = history[k]
            var j = k
            while j > 0 && Self.precedes(entries[moving], entries[history[j - 1]], tape) {
                history[j] = history[j - 1]
                j -= 1
            }
            history[j] = moving
            k += 1
        }
        c.newest = history.last ?? -1

        var chosen = history.last ?? -1
        if type.isCancellation {
            var latest = -1
            for k in history where entries[k].cancellationDate != nil {
                if latest < 0 || (entries[latest].cancellationDate ?? 0) < (entries[k].cancellationDate ?? 0) {
                    latest = k
                }
            }
            if latest >= 0 { chosen = latest }
        }
        c.relevant = chosen
        if chosen >= 0 {
            var at = history.count - 1
            while at >= 0 && !Self.equal(entries[history[at]], entries[chosen], tape) { at -= 1 }
            c.relevantAt = at
            if at > 0 { c.previous = history[at - 1] }
        }

        // Event time: when the record was received, else the time its body dates the event by.
        let relevant: Entry? = chosen >= 0 ? entries[chosen] : nil
        var dated: Int64?
        var inferred = false
        switch type.dating {
        case .renewalStatusChange: dated = body.autoRenewStatusChangeDate ?? relevant?.purchaseDate
        case .cancellation: dated = body.cancellationDate ?? relevant?.cancellationDate ?? relevant?.purchaseDate
        case .failedRenewal: dated = relevant?.expiresDate ?? relevant?.purchaseDate
        case .inferredFromPurchase:
            dated = relevant?.purchaseDate
            inferred = dated != nil
        case .purchase: dated = relevant?.purchaseDate
        }
        c.eventTime = receivedAt ?? dated
        c.eventTimeInferred = receivedAt == nil && inferred
        return c
    }

    /// What the rules read of the context.
    private func makeFacts(_ body: Body, _ c: Context, _ tape: JSONTape) -> Facts {
        let pending: Pending? = c.pending >= 0 ? pendings[c.pending] : nil
        let relevant: Entry? = c.relevant >= 0 ? entries[c.relevant] : nil
        let next = Self.or(pending?.autoRenewProductId, body.autoRenewProductId)
        let current = Self.or(relevant?.productId, pending?.productId ?? -1)
        return Facts(
            relevantTransaction: relevant.map(Self.ruleTransaction),
            previousTransaction: c.previous >= 0 ? Self.ruleTransaction(entries[c.previous]) : nil,
            eventTime: c.eventTime,
            autoRenewStatus: body.autoRenewStatus ?? pending?.autoRenewStatus,
            isInBillingRetryPeriod: pending?.isInBillingRetryPeriod ?? body.isInBillingRetryPeriod,
            pendingGracePeriodExpiresDate: pending?.gracePeriodExpiresDate,
            autoRenewProductDiffers: next >= 0 && current >= 0 && !Self.same(next, current, tape),
            expirationIntent: Self.bytes(Self.or(pending?.expirationIntent, body.expirationIntent), tape),
            priceConsentStatus: Self.bytes(pending?.priceConsentStatus ?? -1, tape))
    }

    /// An entry as the rules read it.
    private static func ruleTransaction(_ e: Entry) -> RuleTransaction {
        RuleTransaction(
            purchaseDate: e.purchaseDate, expiresDate: e.expiresDate, isUpgraded: e.isUpgraded,
            hasOfferCode: e.offerCodeRefName >= 0, hasPromotionalOffer: e.promotionalOfferId >= 0)
    }

    /// `MappingContext.precedes` for two entries: purchase, then expiry, then transaction id.
    private static func precedes(_ x: Entry, _ y: Entry, _ tape: JSONTape) -> Bool {
        return MappingContext.precedes(
            purchase: x.purchaseDate, y.purchaseDate, expires: x.expiresDate, y.expiresDate
        ) { Self.identifierLess(x.transactionId, y.transactionId, tape) }
    }

    // MARK: - Text

    /// `IdentifierOrder.less` for two digit tokens (-1: absent, the empty text).
    private static func identifierLess(_ a: Int32, _ b: Int32, _ tape: JSONTape) -> Bool {
        if b < 0 { return false }
        if a < 0 { return true }
        let x = tape.tokens[Int(a)]
        let y = tape.tokens[Int(b)]
        var i = x.start
        while i < x.end && tape.base[i] == 0x30 { i += 1 }
        var j = y.start
        while j < y.end && tape.base[j] == 0x30 { j += 1 }
        let la = x.end - i
        let lb = y.end - j
        if la != lb { return la < lb }
        return ByteTables.compare(tape.base + i, la, tape.base + j, lb) < 0
    }

    /// Whether two text tokens (-1: absent) have the same bytes; two absent ones do.
    static func same(_ a: Int32, _ b: Int32, _ tape: JSONTape) -> Bool {
        if a < 0 || b < 0 { return a < 0 && b < 0 }
        let x = tape.tokens[Int(a)]
        let y = tape.tokens[Int(b)]
        let length = x.end - x.start
        return length == y.end - y.start && ByteTables.equal(tape.base + x.start, tape.base + y.start, length)
    }

    /// `a ?? b` for tokens (-1: absent).
    private static func or(_ a: Int32?, _ b: Int32) -> Int32 {
        if let a, a >= 0 { return a }
        return b
    }

    /// A hash of a token's bytes (never 0), eight bytes a step: only compared within one record.
    private static func hash(_ token: Int32, _ tape: JSONTape) -> UInt64 {
        let t = tape.tokens[Int(token)]
        let raw = UnsafeRawPointer(tape.base)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(t.end - t.start)
        var k = t.start
        while k + 8 <= t.end {
            h = (h ^ raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0x0100_0000_01b3
            h ^= h >> 29
            k += 8
        }
        while k < t.end {
            h = (h ^ UInt64(tape.base[k])) &* 0x0100_0000_01b3
            k += 1
        }
        return h | 1
    }

    /// A token's bytes, or nil for -1.
    private static func bytes(_ token: Int32, _ tape: JSONTape) -> UnsafeBufferPointer<UInt8>? {
        guard token >= 0 else { return nil }
        let t = tape.tokens[Int(token)]
        return UnsafeBufferPointer(start: tape.base + t.start, count: t.end - t.start)
    }

    /// `MappingContext`'s comparison of a code with a rule's argument, leading zeros aside (both absent: equal).
    static func digitsMatch(_ value: UnsafeBufferPointer<UInt8>?, _ argument: String?) -> Bool {
        guard let value, let argument else { return value == nil && argument == nil }
        var i = 0
        while i < value.count && value[i] == 0x30 { i += 1 }
        let utf8 = argument.utf8
        var j = utf8.startIndex
        while j < utf8.endIndex && utf8[j] == 0x30 { j = utf8.index(after: j) }
        var k = i
        while k < value.count && j < utf8.endIndex {
            guard value[k] == utf8[j] else { return false }
            k += 1
            j = utf8.index(after: j)
        }
        return k == value.count && j == utf8.endIndex
    }
}

// MARK: - Writing

extension TapeMigrator {
    /// Writes the payload `V2Builder.build` makes for the context and rule, as `MigrationOutput.appendJSONLine` writes
    /// it: members in the models' order, absent ones left out.
    private func writePayload(
        _ rule: TapeMigration.Rule, uuid: (UInt64, UInt64, UInt32), body: Body, context c: Context, facts: Facts,
        location: SourceLocation, to j: inout JSONOut
    ) {
        let tape = j.tape
        let pending: Pending? = c.pending >= 0 ? pendings[c.pending] : nil
        let newest: Entry? = c.newest >= 0 ? entries[c.newest] : nil
        // For an upgrade, V2 carries the new (upgraded-to) transaction; otherwise the relevant one.
        let sourceIndex = rule.carriesNewest ? (c.newest >= 0 ? c.newest : c.relevant) : c.relevant
        let source: Entry? = sourceIndex >= 0 ? entries[sourceIndex] : nil
        var bundleId = body.bid >= 0 ? body.bid : (source?.bid ?? -1)
        if bundleId < 0, let k = history.last(where: { entries[$0].bid >= 0 }) { bundleId = entries[k].bid }
        var bundleVersion = body.bvrs >= 0 ? body.bvrs : (source?.bvrs ?? -1)
        if bundleVersion < 0, let k = history.last(where: { entries[$0].bvrs >= 0 }) {
            bundleVersion = entries[k].bvrs
        }
        let environment = Environment(body.environment, tape)
        let autoRenewable =
            source.map { $0.expiresDate != nil || $0.webOrderLineItemId >= 0 || $0.subscriptionGroupIdentifier >= 0 }
            ?? false
        let writesRenewal = autoRenewable || (source == nil && (pending != nil || body.autoRenewStatus != nil))

        j.open()
        j.key("notificationType")
        j.raw(rule.v2Type)
        if let subtype = rule.v2Subtype {
            j.key("subtype")
            j.raw(subtype)
        }
        j.key("notificationUUID")
        j.uuid(uuid)
        j.key("version")
        j.raw(plan.version)
        if let time = c.eventTime {
            j.key("signedDate")
            j.int(time)
        }
        j.key("data")
        j.open()
        j.text("bundleId", bundleId)
        j.text("bundleVersion", bundleVersion)
        environment.write(&j)
        let nextProduct = Self.or(pending?.autoRenewProductId, body.autoRenewProductId)
        if autoRenewable, let source,
            let status = Self.status(source, facts: facts, statesProduct: nextProduct >= 0, at: c.eventTime)
        {
            j.key("status")
            j.int(Int64(status))
        }
        if let source {
            writeTransaction(source, rule: rule, bundleId: bundleId, environment: environment, to: &j)
        }
        if writesRenewal {
            writeRenewal(body, c, pending: pending, newest: newest, facts: facts, environment: environment, to: &j)
        }
        j.close()
        j.key("migration")
        j.open()
        j.key("source")
        JSONWriter.appendString(location.path, to: &j.bytes)
        if let line = location.line {
            j.key("line")
            j.int(Int64(line))
        }
        if let index = location.index {
            j.key("index")
            j.int(Int64(index))
        }
        j.text("v1NotificationType", body.notificationType)
        j.key("rule")
        j.raw(rule.id)
        if c.eventTimeInferred {
            j.key("eventTimeInferred")
            j.bool(true)
        }
        j.close()
        j.close()
        j.bytes.append(0x0A)
    }

    /// `V2Builder.transaction`, written.
    private func writeTransaction(
        _ t: Entry, rule: TapeMigration.Rule, bundleId: Int32, environment: Environment, to j: inout JSONOut
    ) {
        j.key("transactionInfo")
        j.open()
        j.text("transactionId", t.transactionId)
        j.text("originalTransactionId", t.originalTransactionId)
        j.text("webOrderLineItemId", t.webOrderLineItemId)
        j.text("bundleId", bundleId)
        j.text("productId", t.productId)
        j.text("subscriptionGroupIdentifier", t.subscriptionGroupIdentifier)
        j.int("purchaseDate", t.purchaseDate)
        j.int("originalPurchaseDate", t.originalPurchaseDate)
        j.int("expiresDate", t.expiresDate)
        j.int("quantity", j.integer(t.quantity))
        if t.expiresDate != nil || t.webOrderLineItemId >= 0 || t.subscriptionGroupIdentifier >= 0 {
            j.key("type")
            j.raw(plan.autoRenewable)
        }
        j.text("appAccountToken", t.appAccountToken)
        j.text("inAppOwnershipType", t.inAppOwnershipType)
        if t.isUpgraded != true, let cancelled = t.cancellationDate {
            j.int("revocationReason", j.integer(t.cancellationReason))
            j.int("revocationDate", cancelled)
        }
        if t.isUpgraded == true {
            j.key("isUpgraded")
            j.bool(true)
        }
        if t.offerCodeRefName >= 0 {
            j.int("offerType", Int64(3))
            j.text("offerIdentifier", t.offerCodeRefName)
        } else if t.promotionalOfferId >= 0 {
            j.int("offerType", Int64(2))
            j.text("offerIdentifier", t.promotionalOfferId)
        } else if t.isTrialPeriod == true || t.isInIntroOfferPeriod == true {
            j.int("offerType", Int64(1))
        }
        if t.isTrialPeriod == true {
            j.key("offerDiscountType")
            j.raw(plan.freeTrial)
        }
        environment.write(&j)
        if let reason = rule.reason {
            j.key("transactionReason")
            j.raw(reason)
        } else if t.transactionId >= 0, t.originalTransactionId >= 0,
            Self.same(t.transactionId, t.originalTransactionId, j.tape)
        {
            j.key("transactionReason")
            j.raw(plan.purchaseReason)
        }
        j.close()
    }

    /// `V2Builder.renewal`, written.
    private func writeRenewal(
        _ body: Body, _ c: Context, pending: Pending?, newest: Entry?, facts: Facts, environment: Environment,
        to j: inout JSONOut
    ) {
        j.key("renewalInfo")
        j.open()
        j.text("originalTransactionId", Self.or(c.subscription, pending?.originalTransactionId ?? -1))
        j.text("productId", Self.or(pending?.productId, newest?.productId ?? -1))
        j.text("autoRenewProductId", Self.or(pending?.autoRenewProductId, body.autoRenewProductId))
        j.int("autoRenewStatus", facts.autoRenewStatus.map { $0 ? Int64(1) : Int64(0) })
        j.int("expirationIntent", j.integer(Self.or(pending?.expirationIntent, body.expirationIntent)))
        j.int("gracePeriodExpiresDate", pending?.gracePeriodExpiresDate)
        if let retry = facts.isInBillingRetryPeriod {
            j.key("isInBillingRetryPeriod")
            j.bool(retry)
        }
        j.int("priceIncreaseStatus", j.integer(pending?.priceConsentStatus ?? -1))
        if let pending, pending.offerCodeRefName >= 0 {
            j.int("offerType", Int64(3))
            j.text("offerIdentifier", pending.offerCodeRefName)
        } else if let pending, pending.promotionalOfferId >= 0 {
            j.int("offerType", Int64(2))
            j.text("offerIdentifier", pending.promotionalOfferId)
        }
        j.int("renewalDate", newest?.expiresDate)
        j.int("recentSubscriptionStartDate", recentSubscriptionStartDate(c))
        environment.write(&j)
        j.close()
    }

    /// `MappingContext.recentSubscriptionStartDate`.
    private func recentSubscriptionStartDate(_ c: Context) -> Int64? {
        guard c.relevant >= 0, c.relevantAt >= 0 else { return nil }
        var start = entries[c.relevant].purchaseDate
        var i = c.relevantAt
        let sixtyDays: Int64 = 60 * 86_400_000
        while i > 0 {
            let earlier = entries[history[i - 1]]
            let later = entries[history[i]]
            guard let expires = earlier.expiresDate, let purchase = later.purchaseDate, purchase - expires <= sixtyDays
            else { break }
            start = earlier.purchaseDate ?? start
            i -= 1
        }
        return start
    }

    /// `V2Builder.status` for the transaction written and the renewal info written beside it: the one-fact case of
    /// `SubscriptionStateRules.derive` (differential tests hold the two equal).
    private static func status(_ t: Entry, facts: Facts, statesProduct: Bool, at event: Int64?) -> Int? {
        guard let expires = t.expiresDate else { return nil }
        let revoked = t.isUpgraded == true ? nil : t.cancellationDate
        guard let event else { return revoked != nil ? SubscriptionStatus.revoked.rawValue : nil }
        // Whether the renewal info counts is `Renewal.stated`'s rule; only the product's presence matters to it, so
        // an empty (inline, unallocated) text stands for the product.
        let renewal = StateFact.Renewal(
            autoRenewStatus: facts.autoRenewStatus.map { $0 ? 1 : 0 }, autoRenewProductId: statesProduct ? "" : nil,
            gracePeriodExpiresDate: facts.pendingGracePeriodExpiresDate,
            isInBillingRetryPeriod: facts.isInBillingRetryPeriod)
        let stated = renewal.stated != nil
        let status = SubscriptionStatus.at(
            event, expires: expires, revoked: revoked,
            gracePeriodExpires: stated ? facts.pendingGracePeriodExpiresDate : nil,
            billingRetry: stated ? (facts.isInBillingRetryPeriod ?? false) : nil)
        return (status ?? .expired).rawValue
    }
}

/// The normalised `environment` (`EnvironmentName.normalized`) of a record, written where V2 carries it.
private enum Environment {
    /// None given.
    case absent
    /// `Production`.
    case production
    /// `Sandbox`.
    case sandbox
    /// Kept raw: the token.
    case raw(Int32)

    /// The environment of the token (-1: absent), compared without case (ASCII: the record has no other text).
    init(_ token: Int32, _ tape: JSONTape) {
        guard token >= 0 else {
            self = .absent
            return
        }
        let t = tape.tokens[Int(token)]
        if Self.equalsLowercased(tape, t, "prod") || Self.equalsLowercased(tape, t, "production") {
            self = .production
        } else if Self.equalsLowercased(tape, t, "sandbox") {
            self = .sandbox
        } else {
            self = .raw(token)
        }
    }

    /// Writes `"environment":…` unless absent.
    func write(_ j: inout JSONOut) {
        switch self {
        case .absent: return
        case .production:
            j.key("environment")
            j.literal("\"Production\"")
        case .sandbox:
            j.key("environment")
            j.literal("\"Sandbox\"")
        case .raw(let token): j.text("environment", token)
        }
    }

    /// Whether the token's bytes, lowercased, are `word`.
    private static func equalsLowercased(_ tape: JSONTape, _ t: JSONTape.Token, _ word: StaticString) -> Bool {
        let length = t.end - t.start
        guard length == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<length {
            var byte = tape.base[t.start + k]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != w[k] { return false }
        }
        return true
    }
}

/// Compact JSON written straight into bytes, with the commas between members; text comes from tape tokens.
private struct JSONOut {
    /// The tape the tokens belong to.
    let tape: JSONTape
    /// The bytes written.
    var bytes: [UInt8] = []
    /// Whether the next member is the first of its object.
    private var first = true

    /// A writer over `tape`'s tokens.
    init(tape: JSONTape) {
        self.tape = tape
    }

    /// `{`.
    mutating func open() {
        bytes.append(0x7B)
        first = true
    }

    /// `}`.
    mutating func close() {
        bytes.append(0x7D)
        first = false
    }

    /// `,` when needed, then `"name":`: one append (each append of an array checks that it is unshared).
    mutating func key(_ name: StaticString) {
        member(name, quoted: nil)
    }

    /// `,` when needed, `"name":`, then, with `quoted`, the value's bytes in quotes: written in one append.
    private mutating func member(_ name: StaticString, quoted value: UnsafeBufferPointer<UInt8>?) {
        let comma = first ? 0 : 1
        first = false
        let length = name.utf8CodeUnitCount
        let valueLength = value.map { $0.count + 2 } ?? 0
        let count = comma + length + 3 + valueLength
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            guard let p = buffer.baseAddress else { return }
            p[0] = 0x2C
            p[comma] = 0x22
            ByteTables.copy(name.utf8Start, to: p + comma + 1, length)
            p[comma + length + 1] = 0x22
            p[comma + length + 2] = 0x3A
            if let value {
                let at = comma + length + 3
                p[at] = 0x22
                if let v = value.baseAddress { ByteTables.copy(v, to: p + at + 1, value.count) }
                p[at + value.count + 1] = 0x22
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: count))
        }
    }

    /// Bytes as they are.
    mutating func literal(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Bytes already JSON.
    mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// A text member from a token (its raw bytes need no escaping: the tape holds no escapes or control bytes in
    /// them), left out for -1.
    mutating func text(_ name: StaticString, _ token: Int32) {
        guard token >= 0 else { return }
        let t = tape.tokens[Int(token)]
        member(name, quoted: UnsafeBufferPointer(start: tape.base + t.start, count: t.end - t.start))
    }

    /// An integer member, left out for nil.
    mutating func int(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    /// An integer member, left out for nil.
    mutating func int(_ name: StaticString, _ value: Int?) {
        int(name, value.map(Int64.init))
    }

    /// An integer in decimal, as `String(value)` writes it.
    mutating func int(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(0x2D) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var end = raw.count
            repeat {
                end -= 1
                raw[end] = UInt8(truncatingIfNeeded: 0x30 &+ magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[end...]))
        }
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }

    /// A UUID's 8-4-4-4-12 lowercase text, quoted, from the first 16 bytes of a SHA-1 digest with the version-5 and
    /// variant bits set (`UUIDv5`).
    mutating func uuid(_ digest: (UInt64, UInt64, UInt32)) {
        var value = digest
        // The 38 bytes of text are made on the stack and appended at once.
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            guard let p = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            UUIDv5.markVersion5(p)
            withUnsafeMutableBytes(of: &text) { out in
                var at = 0
                out[at] = 0x22
                at += 1
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = 0x2D
                        at += 1
                    }
                    out[at] = ByteTables.lowerHexDigits[Int(raw[index] >> 4)]
                    out[at + 1] = ByteTables.lowerHexDigits[Int(raw[index] & 0x0F)]
                    at += 2
                }
                out[at] = 0x22
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<(at + 1)]))
            }
        }
    }

    /// `Int(text)` of a digits token: nil for -1 or a value beyond `Int`.
    func integer(_ token: Int32) -> Int? {
        guard token >= 0 else { return nil }
        let t = tape.tokens[Int(token)]
        var value = 0
        for k in t.start..<t.end {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(tape.base[k] &- 0x30))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }
}
