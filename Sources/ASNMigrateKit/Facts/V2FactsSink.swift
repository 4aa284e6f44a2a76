/// The sink that fills a migrated V1 record's `PackedFacts` straight from the one mapping (`V2Builder.emit`): the
/// values `RecordFacts(payload, kind: .migrated, …)` reads from the model sink's payload, with each text added to
/// the batch's `FactTexts` from the view's bytes, so nothing is written to be read back.
///
/// Which member feeds which compared field is `V2FactsPacker.members` (read once from the field table's paths),
/// indexed here by object and `V2Member`; the facts that are not compared fields (identity, time, place) follow
/// `RecordFacts.init(_:kind:location:)`.
struct V2FactsSink<View: V1RecordView>: V2Sink {
    /// The record's view.
    let view: View
    /// The facts being filled.
    private(set) var facts = PackedFacts(kind: .migrated)
    /// The batch's texts (taken over from the caller, given back by `finish`).
    private var texts: FactTexts
    /// The object open.
    private var object = V2FactsPacker.Object.notification
    /// The rank of the member that set each compared field (`UInt8.max`: none yet).
    private var ranks: [UInt8]
    /// The rank of the member that set `originalTransactionId`.
    private var idRank: UInt8 = .max
    /// The rule's id and `transactionReason`.
    private let ruleId: String
    /// See `ruleId`.
    private let ruleReason: String?
    /// The record's location.
    private let location: SourceLocation

    /// A sink for the record of `view` matched by `rule`, with its notificationUUID's text bytes, read at `location`;
    /// `texts` and `ranks` are taken over until `finish` gives them back.
    init(
        view: View, rule: MappingRule, uuid: UnsafeRawBufferPointer, location: SourceLocation,
        texts: inout FactTexts, ranks: inout [UInt8]
    ) {
        self.view = view
        self.texts = FactTexts()
        self.ranks = []
        swap(&self.texts, &texts)
        swap(&self.ranks, &ranks)
        if self.ranks.count != ComparedField.allCases.count {
            self.ranks = Array(repeating: .max, count: ComparedField.allCases.count)
        }
        for i in self.ranks.indices { self.ranks[i] = .max }
        ruleId = rule.id
        ruleReason = V2Builder.ruleTransactionReason(rule)
        self.location = location
        facts.environment = self.texts.add(RecordFacts.environmentName(nil))
        facts.notificationType = self.texts.add(rule.v2Type)
        facts.subtype = self.texts.add(rule.v2Subtype)
        facts.notificationUUID = self.texts.add(uuid)
    }

    /// Gives `texts` and `ranks` back, and the facts.
    mutating func finish(texts: inout FactTexts, ranks: inout [UInt8]) -> PackedFacts {
        swap(&self.texts, &texts)
        swap(&self.ranks, &ranks)
        return facts
    }

    /// `signedDate`: the record's time.
    mutating func begin(signedDate: Int64?) {
        facts.time = signedDate
    }

    /// Notes the object whose members follow.
    mutating func open(_ object: V2Object) {
        switch object {
        case .data: self.object = .data
        case .transaction: self.object = .transaction
        case .renewal: self.object = .renewal
        }
    }

    /// Back to `data`.
    mutating func close(_ object: V2Object) {
        self.object = .data
    }

    /// A text member: the subscription, and the compared fields it feeds.
    mutating func text(_ member: V2Member, _ value: View.Text?) {
        guard let value else { return }
        let text = view.withUTF8(value) { texts.add($0) }
        if member == .originalTransactionId { setSubscription(text) }
        for target in V2FactsSinkTable.targets[object.rawValue][member.rawValue]
        where target.rank < ranks[target.ordinal] {
            guard target.kind == .text else { continue }
            facts.compared.texts[target.slot] = text
            ranks[target.ordinal] = target.rank
        }
    }

    /// An integer member: the compared fields it feeds.
    mutating func int(_ member: V2Member, _ value: Int64?) {
        guard let value else { return }
        if object == .renewal, member == .autoRenewStatus { facts.hasAutoRenewStatus = true }
        for target in V2FactsSinkTable.targets[object.rawValue][member.rawValue]
        where target.rank < ranks[target.ordinal] {
            switch target.kind {
            case .date: facts.compared.dates[target.slot] = value
            case .number: facts.compared.numbers[target.slot] = Int(truncatingIfNeeded: value)
            case .text:
                var digits = String(value)
                facts.compared.texts[target.slot] = digits.withUTF8 { texts.add(UnsafeRawBufferPointer($0)) }
            case .flag: continue
            }
            ranks[target.ordinal] = target.rank
        }
    }

    /// A boolean member: the compared fields it feeds.
    mutating func flag(_ member: V2Member, _ value: Bool?) {
        guard let value else { return }
        for target in V2FactsSinkTable.targets[object.rawValue][member.rawValue]
        where target.rank < ranks[target.ordinal] && target.kind == .flag {
            facts.compared.flags[target.slot] = value
            ranks[target.ordinal] = target.rank
        }
    }

    /// A member with the mapping's own value.
    mutating func constant(_ member: V2Member, _ value: V2Constant) {
        let text: String =
            switch value {
            case .autoRenewable: V2Builder.autoRenewableType
            case .freeTrial: V2Builder.freeTrialDiscount
            case .purchase: V2Builder.purchaseReason
            case .ruleReason: ruleReason ?? V2Builder.purchaseReason
            }
        for target in V2FactsSinkTable.targets[object.rawValue][member.rawValue]
        where target.rank < ranks[target.ordinal] && target.kind == .text {
            facts.compared.texts[target.slot] = texts.add(text)
            ranks[target.ordinal] = target.rank
        }
    }

    /// `environment`: the record's (from `data`), and the compared fields it feeds.
    mutating func environment(_ value: V2Environment<View.Text>?) {
        guard let value else { return }
        let text: FactText
        switch value {
        case .production: text = texts.add("Production")
        case .sandbox: text = texts.add("Sandbox")
        case .raw(let raw): text = view.withUTF8(raw) { texts.add($0) }
        }
        if object == .data { facts.environment = text }
        for target in V2FactsSinkTable.targets[object.rawValue][V2Member.environment.rawValue]
        where target.rank < ranks[target.ordinal] && target.kind == .text {
            facts.compared.texts[target.slot] = text
            ranks[target.ordinal] = target.rank
        }
    }

    /// The V1 type, the rule, the inference and the place.
    mutating func end(v1Type: View.Text, eventTimeInferred: Bool) {
        facts.v1NotificationType = view.withUTF8(v1Type) { texts.add($0) }
        facts.ruleId = texts.add(ruleId)
        facts.eventTimeInferred = eventTimeInferred
        facts.source = texts.add(location.path)
        facts.line = location.line
        facts.index = location.index
    }

    /// `originalTransactionId`: the transaction info's, else the renewal info's.
    private mutating func setSubscription(_ text: FactText) {
        let rank: UInt8
        switch object {
        case .transaction: rank = 0
        case .renewal: rank = 1
        default: return
        }
        guard rank < idRank else { return }
        facts.originalTransactionId = text
        idRank = rank
    }
}

/// `V2FactsPacker.members` by object and `V2Member`, with each field's slot.
enum V2FactsSinkTable {
    /// How a compared field holds its value.
    enum Kind {
        /// A text or id slot.
        case text
        /// A date slot.
        case date
        /// A number slot.
        case number
        /// A flag slot.
        case flag
    }

    /// A compared field a member feeds.
    struct Target {
        /// The field's place in `ComparedField.allCases`.
        let ordinal: Int
        /// The member's rank among those the field reads.
        let rank: UInt8
        /// How the field holds its value.
        let kind: Kind
        /// Its slot.
        let slot: Int
    }

    /// `[object][member]`: the fields the member feeds.
    static let targets: [[[Target]]] = V2FactsPacker.Object.allCases.map { object in
        V2Member.allCases.map { member in
            let key = member.key.description
            return V2FactsPacker.members[object.rawValue].compactMap { m -> Target? in
                guard m.key == key else { return nil }
                let kind: Kind =
                    switch m.storage {
                    case .texts: .text
                    case .dates: .date
                    case .numbers: .number
                    case .flags: .flag
                    }
                return Target(ordinal: m.ordinal, rank: m.rank, kind: kind, slot: m.slot)
            }
        }
    }
}
