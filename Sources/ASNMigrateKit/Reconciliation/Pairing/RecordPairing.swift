/// Pairs each subscription's V1 records with its V2 records, then decides every record's fate under the period rule.
///
/// Pairing runs over every record read, whatever the period, group by group (`SubscriptionGroups`), in passes from the
/// strictest to the loosest (see `pair(_:)`). Each pass is greedy: of all acceptable V1–V2 pairs, the closest in time
/// pair first, ties broken by V1 then V2 input order, and a record pairs once. A V1 record's partner is
/// `v1Partner[i]` (a V2 position, -1 when none), and the other way round.
struct RecordPairing: Sendable {
    /// The collected records.
    let inputs: ReconciliationInputs
    /// The mapping table (which V2 records V1 never had, the companion tolerance).
    let table: MappingTable
    /// How far apart (ms) a V1 event time and a V2 signedDate may be to pair.
    let window: Int64
    /// Each V1 record's fate.
    private(set) var v1Fates: [RecordFate]
    /// Each V2 record's fate.
    private(set) var v2Fates: [RecordFate]
    /// Each V1 record's V2 partner (-1 when none).
    private(set) var v1Partner: [Int32]
    /// Each V2 record's V1 partner (-1 when none).
    private(set) var v2Partner: [Int32]
    /// V1 records that are companions (a DID_CHANGE_RENEWAL_STATUS close to an INTERACTIVE_RENEWAL or CANCEL).
    private(set) var isCompanion: [Bool]
    /// A group's lists of V1 records, reused from group to group.
    private var lists = GroupLists()
    /// A pass's working arrays, reused from pass to pass.
    private var pass = PassArrays()

    /// Starts with every record open and unpaired.
    init(inputs: ReconciliationInputs, table: MappingTable, window: Int64) {
        self.inputs = inputs
        self.table = table
        self.window = window
        v1Fates = Array(repeating: .open, count: inputs.v1Records.count)
        v2Fates = Array(repeating: .open, count: inputs.v2Records.count)
        v1Partner = Array(repeating: -1, count: inputs.v1Records.count)
        v2Partner = Array(repeating: -1, count: inputs.v2Records.count)
        isCompanion = Array(repeating: false, count: inputs.v1Records.count)
    }

    // MARK: - Pairing passes

    /// Marks unmapped V1 records: `unmapped` when in the period, else out of period. They never pair.
    mutating func settleUnmapped(in period: ReconciliationPeriod) {
        let v1 = inputs.v1Records
        for i in v1.indices where v1[i].unmapped {
            v1Fates[i] = period.contains(v1[i].time) ? .unmapped : .outOfPeriod
        }
    }

    /// Pairs one subscription's records, pass by pass:
    /// 1. same type, subtype and webOrderLineItemId, within the window;
    /// 2. same type and subtype, within the window;
    /// 3. V1 records with an inferred event time: same type, subtype and webOrderLineItemId, nearest, no window;
    /// 4. any V2 record of the subscription within the window, except ones V1 never had: a type mismatch;
    /// 5. companions last, with a DID_CHANGE_RENEWAL_STATUS or their own type, within the companion tolerance.
    mutating func pair(v1 group1: ArraySlice<Int32>, v2 group2: ArraySlice<Int32>) {
        let v1 = inputs.v1Records
        let tolerance = table.settings.companionTolerance
        var lists = GroupLists()
        swap(&lists, &self.lists)
        defer { swap(&lists, &self.lists) }
        markCompanions(group1, partners: &lists.partners)
        lists.timed.removeAll(keepingCapacity: true)
        lists.inferred.removeAll(keepingCapacity: true)
        for i in group1 where v1Fates[Int(i)] == .open {
            if v1[Int(i)].inferred {
                lists.inferred.append(i)
            } else if !isCompanion[Int(i)] {
                lists.timed.append(i)
            }
        }

        pairGreedily(lists.timed, group2, maxDistance: window, as: .matched) { a, b in
            a.type == b.type && a.subtype == b.subtype && a.fields.token(.webOrderLineItemId) != 0
                && a.fields.token(.webOrderLineItemId) == b.fields.token(.webOrderLineItemId)
        }
        pairGreedily(lists.timed, group2, maxDistance: window, as: .matched) { a, b in
            a.type == b.type && a.subtype == b.subtype
        }
        pairGreedily(lists.inferred, group2, maxDistance: nil, as: .matched) { a, b in
            a.type == b.type && a.subtype == b.subtype
                && a.fields.token(.webOrderLineItemId) == b.fields.token(.webOrderLineItemId)
        }
        let (table, pool) = (self.table, inputs.pool)
        pairGreedily(lists.timed, group2, maxDistance: window, as: .typeMismatch) { _, b in
            b.key != 0 && !Self.isV2OnlyExpected(b, table: table, pool: pool)
        }
        lists.companions.removeAll(keepingCapacity: true)
        for i in group1 where isCompanion[Int(i)] && v1Fates[Int(i)] == .open { lists.companions.append(i) }
        let statusType = inputs.companionStatusType
        pairGreedily(lists.companions, group2, maxDistance: tolerance, as: .matched) { a, b in
            b.type == statusType || (a.type == b.type && a.subtype == b.subtype)
        }
    }

    /// Marks the open DID_CHANGE_RENEWAL_STATUS records within the companion tolerance of an INTERACTIVE_RENEWAL or
    /// CANCEL of the same subscription (`partners`: a list to reuse).
    private mutating func markCompanions(_ ids: ArraySlice<Int32>, partners: inout [Int32]) {
        let v1 = inputs.v1Records
        let tolerance = table.settings.companionTolerance
        partners.removeAll(keepingCapacity: true)
        for i in ids where inputs.companionPartners.contains(v1[Int(i)].v1Type) && v1[Int(i)].hasTime {
            partners.append(i)
        }
        guard !partners.isEmpty else { return }
        for i in ids
        where v1Fates[Int(i)] == .open && v1[Int(i)].v1Type == inputs.companionStatusType && v1[Int(i)].hasTime {
            let time = v1[Int(i)].time
            if partners.contains(where: { abs(v1[Int($0)].time - time) <= tolerance }) { isCompanion[Int(i)] = true }
        }
    }

    /// One greedy pass: every acceptable pair of a free V1 record of `v1Ids` and a free V2 record of `v2Ids` within
    /// `maxDistance` (nil = any distance), closest first, then by V1 and V2 input order; each record pairs once.
    ///
    /// Without a time a record pairs only with records that have none either (when a distance is required).
    private mutating func pairGreedily(
        _ v1Ids: [Int32], _ v2Ids: ArraySlice<Int32>, maxDistance: Int64?, as fate: RecordFate,
        _ accepts: (ReconRecord, ReconRecord) -> Bool
    ) {
        let v1 = inputs.v1Records
        let v2 = inputs.v2Records
        guard v1Ids.contains(where: { v1Partner[Int($0)] < 0 && v1Fates[Int($0)] == .open }) else { return }
        var pass = PassArrays()
        swap(&pass, &self.pass)
        defer { swap(&pass, &self.pass) }
        // V2 by time, to find the window's records quickly (records without a time sort first).
        pass.byTime.removeAll(keepingCapacity: true)
        for j in v2Ids where v2Partner[Int(j)] < 0 { pass.byTime.append(j) }
        guard !pass.byTime.isEmpty else { return }
        pass.byTime.sort { (v2[Int($0)].time, $0) < (v2[Int($1)].time, $1) }
        pass.times.removeAll(keepingCapacity: true)
        for j in pass.byTime { pass.times.append(v2[Int(j)].time) }
        pass.candidates.removeAll(keepingCapacity: true)
        for i in v1Ids where v1Partner[Int(i)] < 0 && v1Fates[Int(i)] == .open {
            let a = v1[Int(i)]
            var lo = 0
            var hi = pass.byTime.count
            if let maxDistance {
                if a.hasTime {
                    lo = Self.lowerBound(pass.times, a.time &- maxDistance)
                    hi = Self.lowerBound(pass.times, a.time &+ maxDistance &+ 1)
                } else {
                    hi = Self.lowerBound(pass.times, FieldValues.noDate &+ 1)
                }
            }
            for k in lo..<hi {
                let j = pass.byTime[k]
                let b = v2[Int(j)]
                if maxDistance != nil && a.hasTime && !b.hasTime { continue }
                guard accepts(a, b) else { continue }
                let distance =
                    (a.hasTime && b.hasTime) ? abs(a.time &- b.time) : (a.hasTime == b.hasTime ? 0 : Int64.max)
                pass.candidates.append((distance, i, j))
            }
        }
        pass.candidates.sort { ($0.distance, $0.i, $0.j) < ($1.distance, $1.i, $1.j) }
        for c in pass.candidates where v1Partner[Int(c.i)] < 0 && v2Partner[Int(c.j)] < 0 {
            v1Partner[Int(c.i)] = c.j
            v2Partner[Int(c.j)] = c.i
            v1Fates[Int(c.i)] = fate
            v2Fates[Int(c.j)] = fate
        }
    }

    /// The first position in ascending `values` whose value is not below `target`.
    private static func lowerBound(_ values: [Int64], _ target: Int64) -> Int {
        var lo = 0
        var hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: - Period rule

    /// Applies the period rule (`ReconciliationPeriod`): a pair is judged when either member lies in the period; an
    /// unpaired record is judged when it does, and is then pending when its partner could lie outside the data.
    mutating func judge(in period: ReconciliationPeriod) {
        let v1 = inputs.v1Records
        let v2 = inputs.v2Records
        for i in v1.indices where v1Partner[i] >= 0 {
            let j = Int(v1Partner[i])
            let a = v1[i]
            if !period.judgesPair(v1Time: a.inferred ? nil : a.time, v2Time: v2[j].time) {
                v1Fates[i] = .outOfPeriod
                v2Fates[j] = .outOfPeriod
            }
        }
        for i in v1.indices where v1Fates[i] == .open {
            let a = v1[i]
            if !period.contains(a.time) {
                v1Fates[i] = .outOfPeriod
            } else if isCompanion[i] {
                v1Fates[i] = .companion
            } else {
                v1Fates[i] = period.isPending(a.time, side: .v1) ? .pending : .missing
            }
        }
        for j in v2.indices where v2Fates[j] == .open {
            let b = v2[j]
            if !period.contains(b.time) {
                v2Fates[j] = .outOfPeriod
            } else if b.key == 0 || Self.isV2OnlyExpected(b, table: table, pool: inputs.pool) {
                v2Fates[j] = .v2OnlyExpected
            } else {
                v2Fates[j] = period.isPending(b.time, side: .v2) ? .pending : .missing
            }
        }
    }

    /// With `--switch`: the records of the environments `switched` names (by environment token) are not compared
    /// notification by notification, since V1 ends where V2 starts: they are out of the period, and the seam checks
    /// (`SwitchSeam`) judge them. Unmapped V1 records keep their fate.
    mutating func setAside(switched: Set<StringPool.Token>) {
        let v1 = inputs.v1Records
        let v2 = inputs.v2Records
        for i in v1.indices where v1Fates[i] != .unmapped && switched.contains(v1[i].environment) {
            v1Fates[i] = .outOfPeriod
        }
        for j in v2.indices where switched.contains(v2[j].environment) { v2Fates[j] = .outOfPeriod }
    }

    /// A group's lists of V1 record positions (emptied, capacity kept, for each group).
    private struct GroupLists {
        /// Open records with an event time, not companions.
        var timed: [Int32] = []
        /// Open records whose event time is inferred.
        var inferred: [Int32] = []
        /// Open companions.
        var companions: [Int32] = []
        /// The INTERACTIVE_RENEWAL and CANCEL records a companion follows.
        var partners: [Int32] = []
    }

    /// A greedy pass's working arrays (emptied, capacity kept, for each pass).
    private struct PassArrays {
        /// The free V2 records, by time then position.
        var byTime: [Int32] = []
        /// Their times.
        var times: [Int64] = []
        /// The acceptable pairs.
        var candidates: [(distance: Int64, i: Int32, j: Int32)] = []
    }

    /// True when the mapping table says V1 never has a counterpart of this V2 record's type.
    private static func isV2OnlyExpected(_ record: ReconRecord, table: MappingTable, pool: StringPool) -> Bool {
        table.isV2OnlyExpected(
            type: pool.string(record.type), subtype: pool.text(record.subtype), familyShared: record.familyShared)
    }
}
