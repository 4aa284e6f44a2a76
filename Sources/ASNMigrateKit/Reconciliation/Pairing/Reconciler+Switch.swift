/// `reconcile --switch`: the engine's records of each switched environment read through `SwitchSeam`.
extension Reconciler {
    /// The rows and figures of the seam checks over `pairing`'s records, group by group; `switched` maps each switched
    /// environment's token to its switch instant.
    static func seam(
        _ pairing: RecordPairing, groups: SubscriptionGroups, switched: [StringPool.Token: Int64],
        dates: SwitchDates, window: Int64
    ) -> (differences: [Discrepancy], pending: [Discrepancy], figures: SwitchFigures) {
        let (pool, v1Records, v2Records) = (pairing.inputs.pool, pairing.inputs.v1Records, pairing.inputs.v2Records)
        var figures = SwitchFigures(dates: dates)
        // How far each environment's V2 notifications reach, and the records on the wrong side of S.
        var reach: [StringPool.Token: Int64] = [:]
        for j in v2Records.indices {
            let r = v2Records[j]
            guard let instant = switched[r.environment], r.hasTime else { continue }
            if r.time >= instant {
                reach[r.environment] = max(reach[r.environment] ?? r.time, r.time)
            } else {
                figures.v2BeforeSwitch += 1
                if figures.firstV2BeforeSwitch.map({ r.time < $0.time }) ?? true {
                    figures.firstV2BeforeSwitch = (r.uuid.text(pool), r.time)
                }
            }
        }
        for i in v1Records.indices {
            let r = v1Records[i]
            guard let instant = switched[r.environment], !r.unmapped, r.hasTime, !r.inferred, r.time >= instant
            else { continue }
            figures.v1AfterSwitch += 1
            if figures.firstV1AfterSwitch.map({ r.time < $0.time }) ?? true {
                figures.firstV1AfterSwitch = (r.sourceText(pool), r.time)
            }
        }
        var differences: [Discrepancy] = []
        var pending: [Discrepancy] = []
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
        for group in 0..<groups.count {
            let key = groups.keys[group]
            guard let instant = switched[key.environment], key.originalTransactionId != 0 else { continue }
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
            let seam = SwitchSeam(instant: instant, window: window, v2Reach: reach[key.environment])
            let outcome = seam.judge(
                environment: pool.string(key.environment),
                originalTransactionId: pool.string(key.originalTransactionId),
                v1: v1, v2: v2)
            differences += outcome.differences
            pending += outcome.pending
            if outcome.live { figures.liveAtSwitch += 1 }
            if outcome.continued { figures.continuedInV2 += 1 }
            figures.deliveredInBoth += outcome.deliveredInBoth
        }
        figures.awaitingV2 = pending.count
        for d in differences {
            switch d.kind {
            case .silentInV2: figures.silentInV2 += 1
            case .renewalGap: figures.renewalGap += 1
            case .seamStateMismatch: figures.seamStateMismatch += 1
            default: break
            }
        }
        return (differences, pending, figures)
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
