/// A record's facts (`RecordFacts`) as a worker thread fills them straight from the bytes: the same values, with each
/// text a `FactText` (a packed number or a span of the batch's `FactTexts`) instead of a `String`, so reading a record
/// allocates nothing. `ReconciliationInputs.add` takes them; `RecordFacts` converts both ways (`init(_:texts:)`,
/// `facts(in:)`), which the differential tests use.
package struct PackedFacts: Sendable {
    /// Where the record came from.
    package var kind: RecordFacts.Kind
    /// `RecordFacts.environment`.
    package var environment = FactText.absent
    /// `RecordFacts.originalTransactionId`.
    package var originalTransactionId = FactText.absent
    /// `RecordFacts.notificationUUID`.
    package var notificationUUID = FactText.absent
    /// `RecordFacts.notificationType`.
    package var notificationType = FactText.absent
    /// `RecordFacts.subtype`.
    package var subtype = FactText.absent
    /// `RecordFacts.v1NotificationType`.
    package var v1NotificationType = FactText.absent
    /// `RecordFacts.ruleId`.
    package var ruleId = FactText.absent
    /// `RecordFacts.time`.
    package var time: Int64?
    /// `RecordFacts.eventTimeInferred`.
    package var eventTimeInferred = false
    /// The path of `RecordFacts.location`.
    package var source = FactText.absent
    /// The line of `RecordFacts.location`.
    package var line: Int?
    /// The index of `RecordFacts.location`.
    package var index: Int?
    /// `RecordFacts.compared`.
    package var compared = FieldSlots<FactText, Int64?, Int?, Bool?>(
        text: .absent, date: nil, number: nil, flag: nil)
    /// `RecordFacts.hasAutoRenewStatus`.
    package var hasAutoRenewStatus = false
    /// V2: the transaction's `price` (for `report.html`).
    package var price: Int64?
    /// V2: the transaction's `currency`.
    package var currency = FactText.absent
    /// V2: the first 64 bits of the record's content digest (`SHA1.prefix64`).
    package var fingerprint: UInt64 = 0

    /// Facts of `kind` with nothing set.
    package init(kind: RecordFacts.Kind) {
        self.kind = kind
    }

    /// `facts`, their texts added to `texts`.
    package init(_ facts: RecordFacts, texts: inout FactTexts) {
        kind = facts.kind
        environment = texts.add(facts.environment)
        originalTransactionId = texts.add(facts.originalTransactionId)
        notificationUUID = texts.add(facts.notificationUUID)
        notificationType = texts.add(facts.notificationType)
        subtype = texts.add(facts.subtype)
        v1NotificationType = texts.add(facts.v1NotificationType)
        ruleId = texts.add(facts.ruleId)
        time = facts.time
        eventTimeInferred = facts.eventTimeInferred
        source = texts.add(facts.location.path)
        line = facts.location.line
        index = facts.location.index
        for i in compared.texts.indices { compared.texts[i] = texts.add(facts.compared.texts[i]) }
        for i in compared.dates.indices { compared.dates[i] = facts.compared.dates[i] }
        for i in compared.numbers.indices { compared.numbers[i] = facts.compared.numbers[i] }
        for i in compared.flags.indices { compared.flags[i] = facts.compared.flags[i] }
        hasAutoRenewStatus = facts.hasAutoRenewStatus
    }

    /// The facts as `RecordFacts`, their texts read from `texts`.
    package func facts(in texts: FactTexts) -> RecordFacts {
        var f = RecordFacts(
            kind: kind,
            location: SourceLocation(path: texts.string(source) ?? "", line: line, index: index))
        f.environment = texts.string(environment)
        f.originalTransactionId = texts.string(originalTransactionId)
        f.notificationUUID = texts.string(notificationUUID)
        f.notificationType = texts.string(notificationType)
        f.subtype = texts.string(subtype)
        f.v1NotificationType = texts.string(v1NotificationType)
        f.ruleId = texts.string(ruleId)
        f.time = time
        f.eventTimeInferred = eventTimeInferred
        for i in compared.texts.indices { f.compared.texts[i] = texts.string(compared.texts[i]) }
        for i in compared.dates.indices { f.compared.dates[i] = compared.dates[i] }
        for i in compared.numbers.indices { f.compared.numbers[i] = compared.numbers[i] }
        for i in compared.flags.indices { f.compared.flags[i] = compared.flags[i] }
        f.hasAutoRenewStatus = hasAutoRenewStatus
        return f
    }

    /// A text or id field's value.
    package subscript(text field: ComparedField) -> FactText {
        get { field.textSlot.map { compared.texts[$0] } ?? .absent }
        set { if let slot = field.textSlot { compared.texts[slot] = newValue } }
    }
}
