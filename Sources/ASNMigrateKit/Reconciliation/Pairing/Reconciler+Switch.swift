import Foundation

/// `reconcile --switch`: the engine's records of each switched environment read through `SwitchSeam`.
extension Reconciler {
    /// What the seam checks give: rows, pending items, figures, and with `ReconcileOptions.keepsSwitchShares` each
    /// subscription's part of the counts.
    struct Seam {
        /// The difference rows.
        var differences: [Discrepancy] = []
        /// The `awaiting_v2` items.
        var pending: [Discrepancy] = []
        /// The figures.
        var figures: SwitchFigures
        /// Each subscription's part of the counts (kept only when asked).
        var shares: [SwitchFigures.Share] = []
    }

    /// The rows and figures of the seam checks over `pairing`'s records, group by group; `switched` maps each switched
    /// environment's token to its switch instant.
    static func seam(
        _ pairing: RecordPairing, groups: SubscriptionGroups, switched: [StringPool.Token: Int64],
        options: ReconcileOptions
    ) -> Seam {
        let (pool, v1Records, v2Records) = (pairing.inputs.pool, pairing.inputs.v1Records, pairing.inputs.v2Records)
        var seam = Seam(figures: SwitchFigures(dates: options.switchDates))
        // How far each environment's V2 notifications reach (over all the data when the caller knows it), and the
        // records on the wrong side of S.
        var reach: [StringPool.Token: Int64] = [:]
        if let known = options.switchReach {
            for (token, _) in switched {
                if let instant = known[pool.string(token)] { reach[token] = instant }
            }
        }
        for j in v2Records.indices {
            let r = v2Records[j]
            guard let instant = switched[r.environment], r.hasTime else { continue }
            if r.time >= instant {
                if options.switchReach == nil { reach[r.environment] = max(reach[r.environment] ?? r.time, r.time) }
            } else {
                seam.figures.v2BeforeSwitch += 1
                if seam.figures.firstV2BeforeSwitch.map({ r.time < $0.time }) ?? true {
                    seam.figures.firstV2BeforeSwitch = (r.uuid.text(pool), r.time)
                }
            }
        }
        for i in v1Records.indices {
            let r = v1Records[i]
            guard let instant = switched[r.environment], Self.isAfterSwitch(r, instant) else { continue }
            seam.figures.v1AfterSwitch += 1
            if seam.figures.firstV1AfterSwitch.map({ r.time < $0.time }) ?? true {
                seam.figures.firstV1AfterSwitch = (r.sourceText(pool), r.time)
            }
        }
        // The groups are independent: judged in ranges on the worker threads, merged in group order.
        let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let rangeSize = max(256, groups.count / (workers * 8) + 1)
        let total = groups.count
        let reachNow = reach
        try? OrderedWorkers.run(
            workers: workers, capacity: 2 * workers + 2,
            produce: { feed in
                var first = 0
                while first < total, feed.add(first..<min(first + rangeSize, total)) { first += rangeSize }
            },
            process: { (range: Range<Int>) -> Seam in
                judge(range, pairing, groups: groups, switched: switched, reach: reachNow, options: options)
            },
            consume: { (part: Seam) throws(ASNError) in
                seam.differences += part.differences
                seam.pending += part.pending
                seam.shares += part.shares
                seam.figures.liveAtSwitch += part.figures.liveAtSwitch
                seam.figures.continuedInV2 += part.figures.continuedInV2
                seam.figures.deliveredInBoth += part.figures.deliveredInBoth
            })
        seam.figures.awaitingV2 = seam.pending.count
        for d in seam.differences {
            switch d.kind {
            case .silentInV2: seam.figures.silentInV2 += 1
            case .renewalGap: seam.figures.renewalGap += 1
            case .seamStateMismatch: seam.figures.seamStateMismatch += 1
            default: break
            }
        }
        return seam
    }

    /// The seam checks of the groups in `range`: their rows, pending items, shares, and the live, continued and
    /// delivered-in-both counts (the figures' other counts are the caller's).
    private static func judge(
        _ range: Range<Int>, _ pairing: RecordPairing, groups: SubscriptionGroups, switched: [StringPool.Token: Int64],
        reach: [StringPool.Token: Int64], options: ReconcileOptions
    ) -> Seam {
        let (pool, v1Records, v2Records) = (pairing.inputs.pool, pairing.inputs.v1Records, pairing.inputs.v2Records)
        var seam = Seam(figures: SwitchFigures(dates: options.switchDates))
        var v1: [SwitchSeam.Record] = []
        var v2: [SwitchSeam.Record] = []
        // Each type and subtype text made once, not once per record.
        var names: [StringPool.Token: String] = [:]
        let name = { (token: StringPool.Token) -> String in
            if let known = names[token] { return known }
            let text = pool.string(token)
            names[token] = text
            return text
        }
        for group in range {
            let key = groups.keys[group]
            guard let instant = switched[key.environment] else { continue }
            var share = SwitchFigures.Share()
            if options.keepsSwitchShares {
                share.v1AfterSwitch = groups.v1(group).count { Self.isAfterSwitch(v1Records[Int($0)], instant) }
                share.v2BeforeSwitch = groups.v2(group).count {
                    v2Records[Int($0)].hasTime && v2Records[Int($0)].time < instant
                }
            }
            defer {
                if options.keepsSwitchShares {
                    share.environment = pool.string(key.environment)
                    share.originalTransactionId = pool.string(key.originalTransactionId)
                    seam.shares.append(share)
                }
            }
            guard key.originalTransactionId != 0 else { continue }
            v1.removeAll(keepingCapacity: true)
            v2.removeAll(keepingCapacity: true)
            for id in groups.v1(group) {
                let r = v1Records[Int(id)]
                guard !r.unmapped, r.hasTime, !r.inferred, r.time < instant,
                    let record = Self.seamRecord(r, pool, name: name)
                else { continue }
                v1.append(record)
            }
            for id in groups.v2(group) {
                let r = v2Records[Int(id)]
                guard r.hasTime, r.time >= instant, var record = Self.seamRecord(r, pool, name: name) else { continue }
                record.uuid = r.uuid.text(pool)
                v2.append(record)
            }
            guard !v1.isEmpty || !v2.isEmpty else { continue }
            let judge = SwitchSeam(instant: instant, window: options.window, v2Reach: reach[key.environment])
            let outcome = judge.judge(
                environment: pool.string(key.environment),
                originalTransactionId: pool.string(key.originalTransactionId),
                v1: v1, v2: v2)
            seam.differences += outcome.differences
            seam.pending += outcome.pending
            share.live = outcome.live
            share.continued = outcome.continued
            share.deliveredInBoth = outcome.deliveredInBoth
            if outcome.live { seam.figures.liveAtSwitch += 1 }
            if outcome.continued { seam.figures.continuedInV2 += 1 }
            seam.figures.deliveredInBoth += outcome.deliveredInBoth
        }
        return seam
    }

    /// Whether a V1 record lies on the wrong side of its environment's switch `instant` (mapped, with its own event
    /// time from the switch on): `v1_after_switch`.
    private static func isAfterSwitch(_ r: ReconRecord, _ instant: Int64) -> Bool {
        !r.unmapped && r.hasTime && !r.inferred && r.time >= instant
    }

    /// A record as the seam checks read it; nil without an event time.
    private static func seamRecord(
        _ r: ReconRecord, _ pool: StringPool, name: (StringPool.Token) -> String
    ) -> SwitchSeam.Record? {
        guard let fact = r.stateFact(pool, v2Only: false) else { return nil }
        return SwitchSeam.Record(
            time: r.time, type: name(r.type), subtype: name(r.subtype), fact: fact,
            transactionID: pool.transactionID(r.fields.token(.transactionId)),
            productId: pool.text(r.fields.token(.productId)))
    }
}
