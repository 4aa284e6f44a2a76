/// The reconciliation engine: takes V1 outcomes and V2 records as values, pairs them, and reports what differs.
///
/// Pure: no I/O. Feed every V1 outcome with `addV1`, every V2 record with `addV2` / `addV2Reject`, then `finish()`.
public struct Reconciler: Sendable {
    /// The mapping table (for V2-only lists and the companion tolerance).
    public let table: MappingTable
    /// The run's options (settable until `finish()`: a nightly backfill knows its period only after feeding).
    public var options: ReconcileOptions

    private var pool = StringPool()
    private var v1: [ReconRecord] = []
    private var v2: [ReconRecord] = []
    private var rejects: [ReconciliationResult.Reject] = []
    private var causes = RejectCauses()
    private var v1Read = 0, v1Rejected = 0, v1Duplicates = 0
    private var v2Read = 0, v2Rejected = 0, v2Duplicates = 0
    /// V2 records read while signatures were checked but given decoded, so unverified; nil when signatures were not
    /// checked (then `summary.csv` has no `v2_unverified` row).
    public var v2Unverified: Int?
    private var v1Seen: Set<PackedUUID> = []
    private var v2Seen: [PackedUUID: UInt64] = [:]
    private var conflicts: [Discrepancy] = []
    private var coverage: [CoverageKey: Int] = [:]
    private let environmentTokens: (production: StringPool.Token, sandbox: StringPool.Token)
    private let companionStatusType: StringPool.Token
    private let companionPartners: Set<StringPool.Token>

    /// Creates an engine.
    public init(table: MappingTable, options: ReconcileOptions) {
        self.table = table
        self.options = options
        var pool = StringPool()
        environmentTokens = (pool.token("Production"), pool.token("Sandbox"))
        companionStatusType = pool.token("DID_CHANGE_RENEWAL_STATUS")
        companionPartners = [pool.token("INTERACTIVE_RENEWAL"), pool.token("CANCEL")]
        self.pool = pool
    }

    // MARK: - Input

    /// Takes one V1 outcome from `V1RecordMapper`.
    public mutating func addV1(_ outcome: V1RecordMapper.Outcome) {
        v1Read += 1
        switch outcome {
        case .rejected(let error):
            v1Rejected += 1
            rejects.append(.init(side: "v1", error: error))
            causes.add(side: "v1", error)
        case .migrated(let payload):
            let uuid = PackedUUID(payload.notificationUUID, pool: &pool)
            guard v1Seen.insert(uuid).inserted else {
                v1Duplicates += 1
                return
            }
            var record = makeRecord(payload)
            record.uuid = uuid
            if let m = payload.migration {
                record.v1Type = pool.token(m.v1NotificationType)
                record.rule = pool.token(m.ruleId)
                record.inferred = m.eventTimeInferred
                record.source = pool.token(m.source)
                record.line = Int32(clamping: m.line ?? -1)
                record.index = Int32(clamping: m.index ?? -1)
            }
            coverage[CoverageKey(v1Type: record.v1Type, type: record.type, subtype: record.subtype, rule: record.rule), default: 0] += 1
            v1.append(record)
        case .unmapped(let u):
            let uuid = PackedUUID(u.notificationUUID, pool: &pool)
            guard v1Seen.insert(uuid).inserted else {
                v1Duplicates += 1
                return
            }
            var record = ReconRecord(fields: FieldValues(ResponseBodyV2DecodedPayload(notificationType: ""), pool: &pool))
            record.unmapped = true
            record.uuid = uuid
            record.environment = pool.token(u.environment)
            record.key = pool.token(u.originalTransactionId)
            record.fields.webOrderLineItemId = pool.token(u.webOrderLineItemId)
            record.time = u.eventTime ?? FieldValues.noDate
            record.v1Type = pool.token(u.v1NotificationType)
            record.source = pool.token(u.location.path)
            record.line = Int32(clamping: u.location.line ?? -1)
            record.index = Int32(clamping: u.location.index ?? -1)
            coverage[CoverageKey(v1Type: record.v1Type, type: 0, subtype: 0, rule: 0), default: 0] += 1
            v1.append(record)
        }
    }

    /// Takes one decoded V2 record; `digest` identifies its content (same UUID, other digest = conflicting duplicate).
    public mutating func addV2(_ payload: ResponseBodyV2DecodedPayload, location: SourceLocation, digest: [UInt8]) {
        v2Read += 1
        let uuid = PackedUUID(payload.notificationUUID, pool: &pool)
        let fingerprint = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        if uuid.isPresent {
            if let first = v2Seen[uuid] {
                v2Duplicates += 1
                if first != fingerprint {
                    conflicts.append(Self.conflict(payload))
                }
                return
            }
            v2Seen[uuid] = fingerprint
        }
        var record = makeRecord(payload)
        record.uuid = uuid
        record.source = pool.token(location.path)
        record.line = Int32(clamping: location.line ?? -1)
        record.index = Int32(clamping: location.index ?? -1)
        v2.append(record)
    }

    /// Counts one V2 record that could not be read.
    public mutating func addV2Reject(_ error: ASNError) {
        v2Read += 1
        v2Rejected += 1
        rejects.append(.init(side: "v2", error: error))
        causes.add(side: "v2", error)
    }

    // MARK: - Reconciliation

    /// Pairs the records, classifies every one, and returns the result.
    public func finish() -> ReconciliationResult {
        var work = Work(engine: self)
        return work.run()
    }

    // MARK: - Private

    private mutating func makeRecord(_ p: ResponseBodyV2DecodedPayload) -> ReconRecord {
        var r = ReconRecord(fields: FieldValues(p, pool: &pool))
        r.environment = pool.token(Self.environmentName(p.data.environment))
        r.key = pool.token(p.data.transactionInfo?.originalTransactionId ?? p.data.renewalInfo?.originalTransactionId)
        r.type = pool.token(p.notificationType)
        r.subtype = pool.token(p.subtype)
        r.time = p.signedDate ?? FieldValues.noDate
        r.familyShared = p.data.transactionInfo?.inAppOwnershipType == "FAMILY_SHARED"
        r.hasAutoRenewStatus = p.data.renewalInfo?.autoRenewStatus != nil
        return r
    }

    /// Apple spells environments several ways; reports use "Production" and "Sandbox".
    static func environmentName(_ raw: String?) -> String {
        V2Builder.environment(raw) ?? ""
    }

    /// The `conflicting_duplicate_v2` row for a V2 record whose notificationUUID was seen with other content: the
    /// duplicate's identity and product, no values (the nightly state builds the same row).
    static func conflict(_ payload: ResponseBodyV2DecodedPayload) -> Discrepancy {
        var d = Discrepancy(kind: .conflictingDuplicateV2)
        d.environment = environmentName(payload.data.environment)
        d.originalTransactionId = payload.data.transactionInfo?.originalTransactionId ?? payload.data.renewalInfo?.originalTransactionId ?? ""
        d.webOrderLineItemId = payload.data.transactionInfo?.webOrderLineItemId ?? ""
        d.eventDate = payload.signedDate
        d.v2NotificationType = payload.notificationType
        d.v2Subtype = payload.subtype ?? ""
        d.v2NotificationUUID = payload.notificationUUID ?? ""
        d.productId = payload.data.transactionInfo?.productId ?? ""
        d.bundleId = payload.data.transactionInfo?.bundleId ?? payload.data.bundleId ?? ""
        d.v2SignedDate = payload.signedDate
        return d
    }

    // MARK: - Work

    fileprivate struct CoverageKey: Hashable, Sendable {
        var v1Type: StringPool.Token, type: StringPool.Token, subtype: StringPool.Token, rule: StringPool.Token
    }

    private struct GroupKey: Hashable {
        var environment: StringPool.Token
        var key: StringPool.Token
    }

    /// What became of a record; `open` until pairing and the period rule decide.
    private enum Fate: UInt8 {
        case open, outOfPeriod, unmapped, companion, matched, typeMismatch, missing, pending, v2OnlyExpected
    }

    /// The mutable state of one `finish()`.
    private struct Work {
        let e: Reconciler
        var fate1: [Fate]
        var fate2: [Fate]
        var partner1: [Int32]
        var partner2: [Int32]
        var isCompanion: [Bool]
        var differences: [Discrepancy] = []
        var pending: [Discrepancy] = []
        let period: ReconciliationPeriod

        init(engine: Reconciler) {
            e = engine
            period = ReconciliationPeriod(v1Span: engine.options.v1Span ?? ReconciliationPeriod.span(of: engine.v1.lazy.filter { !$0.inferred }.map(\.time)),
                                          v2Span: engine.options.v2Span ?? ReconciliationPeriod.span(of: engine.v2.lazy.map(\.time)),
                                          from: engine.options.from, to: engine.options.to, window: engine.options.window)
            fate1 = Array(repeating: .open, count: engine.v1.count)
            fate2 = Array(repeating: .open, count: engine.v2.count)
            partner1 = Array(repeating: -1, count: engine.v1.count)
            partner2 = Array(repeating: -1, count: engine.v2.count)
            isCompanion = Array(repeating: false, count: engine.v1.count)
        }

        mutating func run() -> ReconciliationResult {
            for i in e.v1.indices where e.v1[i].unmapped { fate1[i] = period.contains(e.v1[i].time) ? .unmapped : .outOfPeriod }

            var groups: [GroupKey: ([Int32], [Int32])] = [:]
            // Records without an originalTransactionId form their own group per environment: they can still pair by type.
            for i in e.v1.indices where !e.v1[i].unmapped {
                groups[GroupKey(environment: e.v1[i].environment, key: e.v1[i].key), default: ([], [])].0.append(Int32(i))
            }
            for j in e.v2.indices {
                groups[GroupKey(environment: e.v2[j].environment, key: e.v2[j].key), default: ([], [])].1.append(Int32(j))
            }
            // Pairing runs over every record read, whatever the period.
            for (_, group) in groups {
                reconcile(v1: group.0, v2: group.1)
            }
            judge()
            emitRecordDifferences()
            let subscriptions = subscriptionStates(groups)
            return assemble(subscriptions)
        }

        // MARK: Period

        /// Applies the period rule (`ReconciliationPeriod`): a pair is judged when either member lies in the period; an
        /// unpaired record is judged when it does, and is then pending when its partner could lie outside the data.
        mutating func judge() {
            for i in e.v1.indices where partner1[i] >= 0 {
                let j = Int(partner1[i])
                let a = e.v1[i]
                if !period.judgesPair(v1Time: a.inferred ? nil : a.time, v2Time: e.v2[j].time) {
                    fate1[i] = .outOfPeriod
                    fate2[j] = .outOfPeriod
                }
            }
            for i in e.v1.indices where fate1[i] == .open {
                let a = e.v1[i]
                if !period.contains(a.time) {
                    fate1[i] = .outOfPeriod
                } else if isCompanion[i] {
                    fate1[i] = .companion
                } else {
                    fate1[i] = period.isPending(a.time, side: .v1) ? .pending : .missing
                }
            }
            for j in e.v2.indices where fate2[j] == .open {
                let r = e.v2[j]
                let expected = r.key == 0 || e.table.isV2OnlyExpected(type: e.pool.string(r.type), subtype: e.pool.text(r.subtype), familyShared: r.familyShared)
                if !period.contains(r.time) {
                    fate2[j] = .outOfPeriod
                } else if expected {
                    fate2[j] = .v2OnlyExpected
                } else {
                    fate2[j] = period.isPending(r.time, side: .v2) ? .pending : .missing
                }
            }
        }

        // MARK: Matching

        mutating func reconcile(v1 ids1: [Int32], v2 ids2: [Int32]) {
            let e = self.e
            let window = e.options.window
            let tolerance = e.table.settings.companionTolerance
            // Companions: a DID_CHANGE_RENEWAL_STATUS close to an INTERACTIVE_RENEWAL or CANCEL of the same subscription.
            let partners = ids1.filter { e.companionPartners.contains(e.v1[Int($0)].v1Type) && e.v1[Int($0)].hasTime }
            if !partners.isEmpty {
                for i in ids1 where fate1[Int(i)] == .open && e.v1[Int(i)].v1Type == e.companionStatusType && e.v1[Int(i)].hasTime {
                    let t = e.v1[Int(i)].time
                    if partners.contains(where: { abs(e.v1[Int($0)].time - t) <= tolerance }) { isCompanion[Int(i)] = true }
                }
            }
            let main = ids1.filter { fate1[Int($0)] == .open && !isCompanion[Int($0)] && !e.v1[Int($0)].inferred }
            let inferred = ids1.filter { fate1[Int($0)] == .open && e.v1[Int($0)].inferred }

            // Pass 1: same type, subtype and webOrderLineItemId, within the window.
            pair(main, ids2, maxDistance: window, as: .matched) { a, b in
                a.type == b.type && a.subtype == b.subtype && a.fields.webOrderLineItemId != 0 && a.fields.webOrderLineItemId == b.fields.webOrderLineItemId
            }
            // Pass 2: same type and subtype, within the window.
            pair(main, ids2, maxDistance: window, as: .matched) { a, b in a.type == b.type && a.subtype == b.subtype }
            // Inferred times: key, type, subtype and webOrderLineItemId, nearest, no window; any V2 of the key still free.
            pair(inferred, ids2, maxDistance: nil, as: .matched) { a, b in
                a.type == b.type && a.subtype == b.subtype && a.fields.webOrderLineItemId == b.fields.webOrderLineItemId
            }
            // Pass 3: any V2 record of the key within the window, except ones V1 never had: a type mismatch.
            pair(main, ids2, maxDistance: window, as: .typeMismatch) { _, b in
                b.key != 0 && !e.table.isV2OnlyExpected(type: e.pool.string(b.type), subtype: e.pool.text(b.subtype), familyShared: b.familyShared)
            }
            // Companions pair last, with a DID_CHANGE_RENEWAL_STATUS or their own type, within the companion tolerance.
            let companions = ids1.filter { isCompanion[Int($0)] && fate1[Int($0)] == .open }
            pair(companions, ids2, maxDistance: tolerance, as: .matched) { a, b in
                b.type == e.companionStatusType || (a.type == b.type && a.subtype == b.subtype)
            }
        }

        /// Greedy pairing: candidate pairs sorted by time distance, then V1 and V2 input order.
        mutating func pair(_ ids1: [Int32], _ ids2: [Int32], maxDistance: Int64?, as fate: Fate,
                           _ accepts: (ReconRecord, ReconRecord) -> Bool) {
            let free1 = ids1.filter { partner1[Int($0)] < 0 && fate1[Int($0)] == .open }
            let free2 = ids2.filter { partner2[Int($0)] < 0 }
            guard !free1.isEmpty, !free2.isEmpty else { return }
            var candidates: [(distance: Int64, i: Int32, j: Int32)] = []
            // V2 by time, to find the window's records quickly.
            let byTime = free2.sorted { (e.v2[Int($0)].time, $0) < (e.v2[Int($1)].time, $1) }
            let times = byTime.map { e.v2[Int($0)].time }
            for i in free1 {
                let a = e.v1[Int(i)]
                var lo = 0, hi = byTime.count
                if let maxDistance {
                    if a.hasTime {
                        lo = lowerBound(times, a.time &- maxDistance)
                        hi = lowerBound(times, a.time &+ maxDistance &+ 1)
                    } else {
                        // No time on either side: only records that have none either (they sort first).
                        hi = lowerBound(times, FieldValues.noDate &+ 1)
                    }
                }
                for k in lo..<hi {
                    let j = byTime[k]
                    let b = e.v2[Int(j)]
                    if maxDistance != nil && a.hasTime && !b.hasTime { continue }
                    guard accepts(a, b) else { continue }
                    let distance = (a.hasTime && b.hasTime) ? abs(a.time &- b.time) : (a.hasTime == b.hasTime ? 0 : Int64.max)
                    candidates.append((distance, i, j))
                }
            }
            candidates.sort { ($0.distance, $0.i, $0.j) < ($1.distance, $1.i, $1.j) }
            for c in candidates where partner1[Int(c.i)] < 0 && partner2[Int(c.j)] < 0 {
                partner1[Int(c.i)] = c.j
                partner2[Int(c.j)] = c.i
                fate1[Int(c.i)] = fate
                fate2[Int(c.j)] = fate
            }
        }

        func lowerBound(_ values: [Int64], _ target: Int64) -> Int {
            var lo = 0, hi = values.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[mid] < target { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        // MARK: Differences

        func base(_ r: ReconRecord, _ kind: Discrepancy.Kind) -> Discrepancy {
            var d = Discrepancy(kind: kind)
            d.environment = e.pool.string(r.environment)
            d.originalTransactionId = e.pool.string(r.key)
            d.webOrderLineItemId = e.pool.string(r.fields.webOrderLineItemId)
            d.eventDate = r.hasTime ? r.time : nil
            return d
        }

        func withV1(_ d: Discrepancy, _ r: ReconRecord) -> Discrepancy {
            var d = d
            d.v1NotificationType = e.pool.string(r.v1Type)
            d.expectedType = e.pool.string(r.type)
            d.expectedSubtype = e.pool.string(r.subtype)
            d.v1Source = r.sourceText(e.pool)
            d.productId = e.pool.string(r.fields.productId)
            d.bundleId = e.pool.string(r.fields.bundleId)
            d.v1EventTimeInferred = r.inferred
            return d
        }

        func withV2(_ d: Discrepancy, _ r: ReconRecord) -> Discrepancy {
            var d = d
            d.v2NotificationType = e.pool.string(r.type)
            d.v2Subtype = e.pool.string(r.subtype)
            d.v2NotificationUUID = r.uuid.text(e.pool)
            // The V1 side's product and bundle win when it has them (withV1 runs first).
            if d.productId.isEmpty { d.productId = e.pool.string(r.fields.productId) }
            if d.bundleId.isEmpty { d.bundleId = e.pool.string(r.fields.bundleId) }
            d.v2SignedDate = r.hasTime ? r.time : nil
            return d
        }

        mutating func emitRecordDifferences() {
            for i in e.v1.indices {
                let a = e.v1[i]
                switch fate1[i] {
                case .missing:
                    differences.append(withV1(base(a, .missingInV2), a))
                case .pending:
                    pending.append(withV1(base(a, .pendingInV2), a))
                case .unmapped:
                    differences.append(withV1(base(a, .unmappedV1), a))
                case .typeMismatch:
                    let b = e.v2[Int(partner1[i])]
                    differences.append(withV2(withV1(base(a, .typeMismatch), a), b))
                case .matched:
                    let b = e.v2[Int(partner1[i])]
                    guard fate2[Int(partner1[i])] == .matched else { break }
                    for field in e.options.fields where a.fields.has(field) && b.fields.has(field) && !a.fields.same(field, as: b.fields) {
                        var d = withV2(withV1(base(a, .fieldMismatch), a), b)
                        d.field = field.rawValue
                        d.v1Value = a.fields.text(field, pool: e.pool) ?? ""
                        d.v2Value = b.fields.text(field, pool: e.pool) ?? ""
                        differences.append(d)
                    }
                default:
                    break
                }
            }
            for j in e.v2.indices {
                switch fate2[j] {
                case .missing: differences.append(withV2(base(e.v2[j], .missingInV1), e.v2[j]))
                case .pending: pending.append(withV2(base(e.v2[j], .pendingInV1), e.v2[j]))
                default: break
                }
            }
        }

        // MARK: Subscription state

        /// One side's state at the period end, from the records judged (pending and out-of-period ones left out).
        func state(_ ids: [Int32], in records: [ReconRecord], fates: [Fate]) -> SubscriptionState? {
            let judged = ids.compactMap { id -> ReconRecord? in
                let r = records[Int(id)]
                switch fates[Int(id)] {
                case .outOfPeriod, .pending, .unmapped, .open: return nil
                default: return r.unmapped ? nil : r
                }
            }
            return SubscriptionStateDerivation.state(judged, at: period.end, pool: e.pool)
        }

        mutating func subscriptionStates(_ groups: [GroupKey: ([Int32], [Int32])]) -> [ReconciliationResult.SubscriptionRow] {
            guard period.isSet, period.end != Int64.max else { return [] }
            var rows: [ReconciliationResult.SubscriptionRow] = []
            for (key, group) in groups {
                guard let s1 = state(group.0, in: e.v1, fates: fate1), let s2 = state(group.1, in: e.v2, fates: fate2) else { continue }
                var mismatches: [String] = []
                var pairs: [(String, String, String)] = []
                if s1.productId != s2.productId { pairs.append(("productId", s1.productId ?? "", s2.productId ?? "")) }
                if s1.expiresDate != s2.expiresDate {
                    pairs.append(("expiresDate", s1.expiresDate.map(Timestamp.iso8601(ms:)) ?? "", s2.expiresDate.map(Timestamp.iso8601(ms:)) ?? ""))
                }
                if s1.autoRenewStatus != s2.autoRenewStatus {
                    pairs.append(("autoRenewStatus", s1.autoRenewStatus.map(String.init) ?? "", s2.autoRenewStatus.map(String.init) ?? ""))
                }
                if s1.active != s2.active { pairs.append(("active", String(s1.active), String(s2.active))) }
                let environment = e.pool.string(key.environment), id = e.pool.string(key.key)
                for (field, left, right) in pairs {
                    mismatches.append(field)
                    var d = Discrepancy(kind: .stateMismatch)
                    d.environment = environment
                    d.originalTransactionId = id
                    d.eventDate = period.end
                    d.field = field
                    d.v1Value = left
                    d.v2Value = right
                    d.productId = [s1.productId, s2.productId].compactMap { $0 }.first { !$0.isEmpty } ?? ""
                    differences.append(d)
                }
                rows.append(.init(environment: environment, originalTransactionId: id, v1: s1, v2: s2, mismatches: mismatches))
            }
            rows.sort { utf8Precedes([$0.environment, $0.originalTransactionId], [$1.environment, $1.originalTransactionId]) }
            return rows
        }

        // MARK: Result

        func assemble(_ subscriptions: [ReconciliationResult.SubscriptionRow]) -> ReconciliationResult {
            func count(_ fates: [Fate], _ fate: Fate) -> Int { fates.reduce(0) { $0 + ($1 == fate ? 1 : 0) } }
            var all = differences + e.conflicts
            all.sort(by: Discrepancy.reportOrder)
            let pendingRows = pending.sorted(by: Discrepancy.reportOrder)
            let fieldMismatches = all.reduce(0) { $0 + ($1.kind == .fieldMismatch ? 1 : 0) }
            let metrics: [(String, String)] = [
                ("v1_records_read", String(e.v1Read)),
                ("v1_rejected", String(e.v1Rejected)),
                ("v1_duplicates", String(e.v1Duplicates)),
                ("v1_out_of_period", String(count(fate1, .outOfPeriod))),
                ("v1_unmapped", String(count(fate1, .unmapped))),
                ("v1_companion", String(count(fate1, .companion))),
                ("v2_records_read", String(e.v2Read)),
                ("v2_rejected", String(e.v2Rejected)),
            ] + (e.v2Unverified.map { [("v2_unverified", String($0))] } ?? []) + [
                ("v2_duplicates", String(e.v2Duplicates)),
                ("v2_out_of_period", String(count(fate2, .outOfPeriod))),
                ("v2_only_expected", String(count(fate2, .v2OnlyExpected))),
                ("matched", String(count(fate1, .matched))),
                ("type_mismatch", String(count(fate1, .typeMismatch))),
                ("missing_in_v2", String(count(fate1, .missing))),
                ("missing_in_v1", String(count(fate2, .missing))),
                ("v1_pending", String(count(fate1, .pending))),
                ("v2_pending", String(count(fate2, .pending))),
                ("field_mismatch", String(fieldMismatches)),
                ("state_mismatch", String(subscriptions.reduce(0) { $0 + ($1.mismatches.isEmpty ? 0 : 1) })),
                ("conflicting_duplicate_v2", String(e.conflicts.count)),
                ("subscriptions_compared", String(subscriptions.count)),
                ("period_start", period.start != Int64.min ? Timestamp.iso8601(ms: period.start) : ""),
                ("period_end", period.end != Int64.max ? Timestamp.iso8601(ms: period.end) : ""),
                ("window_ms", String(e.options.window)),
            ] + e.options.run.metrics + e.causes.causes.map { ("rejects_by_cause", $0.line) }
            var coverage = e.coverage.map { key, n in
                ReconciliationResult.Coverage(v1Type: e.pool.string(key.v1Type), v2Type: e.pool.string(key.type),
                                              v2Subtype: e.pool.string(key.subtype), rule: e.pool.string(key.rule), count: n)
            }
            coverage.sort { utf8Precedes([$0.v1Type, $0.v2Type, $0.v2Subtype, $0.rule], [$1.v1Type, $1.v2Type, $1.v2Subtype, $1.rule]) }
            return ReconciliationResult(metrics: metrics, differences: all, pending: pendingRows, rejects: e.rejects, coverage: coverage,
                                        subscriptions: subscriptions, rejectCauses: e.causes.causes)
        }
    }
}

// MARK: - Byte-wise ordering

/// True when the string lists compare byte-wise (UTF-8) in ascending order, first differing element deciding.
private func utf8Precedes(_ a: [String], _ b: [String]) -> Bool {
    for (x, y) in zip(a, b) where x != y {
        return x.utf8.lexicographicallyPrecedes(y.utf8)
    }
    return a.count < b.count
}
