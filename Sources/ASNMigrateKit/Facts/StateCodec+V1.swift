/// The V1 forms: a V1 record's transaction facts (`v1_transactions.facts`) and one receipt entry (`v1_entries.entry`).
extension StateCodec {
    /// A receipt entry's members by Apple's key, tagged beside the model (`LatestReceiptInfo.storedMembers`).
    package static let receiptEntryTable: Table = LatestReceiptInfo.storedMembers

    /// A V1 record's transaction facts by the V1 key they come from (or, for what no one key holds, a name fixed
    /// here). Tags are fixed: never change or reuse one; a new member takes the next free tag.
    package static let v1FactsTable: Table = [
        "environment": Member(1, .shared),
        "original_transaction_id": Member(2, .id),
        "event_time": Member(3, .date),
        "event_time_inferred": Member(4, .flag),
        "body_event_time": Member(5, .date),
        "notification_type": Member(6, .shared),
        "relevant_transaction_id": Member(7, .id),
        "auto_renew_status": Member(8, .flag),
        "auto_renew_product_id": Member(9, .shared),
        "grace_period_expires_date": Member(10, .date),
        "is_in_billing_retry_period": Member(11, .flag),
        "source_path": Member(12, .shared),
        "source_line": Member(13, .number),
        "source_index": Member(14, .number),
        "bid": Member(15, .shared)
    ]

    /// Encodes a receipt entry; `text` gives a shared text's `texts` id (adding it when new).
    package static func encode(_ entry: LatestReceiptInfo, text: (String) throws(ASNError) -> Int64)
        throws(ASNError) -> [UInt8]
    {
        try blob(fields(of: entry, receiptEntryTable, form: "a V1 receipt entry"), text: text)
    }

    /// A receipt entry read back; nil when the bytes are damaged or of another version.
    package static func receiptEntry(_ bytes: [UInt8], text: (Int64) -> String?) -> LatestReceiptInfo? {
        readBlob(bytes, text: text).flatMap { model($0, receiptEntryTable) }
    }

    /// Encodes a V1 record's transaction facts, without its receipt entries (`transactions`, kept apart as entries);
    /// `text` gives a shared text's `texts` id (adding it when new).
    package static func encode(_ facts: V1RecordFacts, text: (String) throws(ASNError) -> Int64)
        throws(ASNError) -> [UInt8]
    {
        var fields: [Field] = []
        func add(_ key: String, _ value: Value?) {
            if let value, let member = v1FactsTable[key] { fields.append(Field(member: member, value: value)) }
        }
        add("environment", .text(facts.environment))
        add("original_transaction_id", facts.subscriptionId.map { .text($0) })
        add("event_time", facts.eventTime.map { .number($0) })
        add("event_time_inferred", .flag(facts.eventTimeInferred))
        add("body_event_time", facts.bodyEventTime.map { .number($0) })
        add("notification_type", .text(facts.notificationType))
        add("relevant_transaction_id", facts.relevantTransactionId.map { .text($0) })
        add("auto_renew_status", facts.autoRenewStatus.map { .flag($0) })
        add("auto_renew_product_id", facts.autoRenewProductId.map { .text($0) })
        add("grace_period_expires_date", facts.gracePeriodExpiresDate.map { .number($0) })
        add("is_in_billing_retry_period", facts.isInBillingRetryPeriod.map { .flag($0) })
        let source = SourceParts(facts.source)
        add("source_path", .text(source.path))
        add("source_line", source.line.map { .number($0) })
        add("source_index", source.index.map { .number($0) })
        add("bid", facts.bundleId.map { .text($0) })
        return try blob(fields, text: text)
    }

    /// A V1 record's transaction facts read back, with no receipt entries; nil when the bytes are damaged or of
    /// another version.
    package static func v1Facts(_ bytes: [UInt8], text: (Int64) -> String?) -> V1RecordFacts? {
        guard var members = readBlob(bytes, text: text) else { return nil }
        var damaged = false
        func take(_ key: String) -> Read? {
            guard let tag = v1FactsTable[key]?.tag else { return nil }
            return members.removeValue(forKey: tag)
        }
        func string(_ key: String) -> String? {
            switch take(key) {
            case .text(let value)?: return value
            case nil: return nil
            default:
                damaged = true
                return nil
            }
        }
        func number(_ key: String) -> Int64? {
            switch take(key) {
            case .number(let value)?: return value
            case nil: return nil
            default:
                damaged = true
                return nil
            }
        }
        func flag(_ key: String) -> Bool? {
            switch take(key) {
            case .flag(let value)?: return value
            case nil: return nil
            default:
                damaged = true
                return nil
            }
        }
        guard let environment = string("environment"), let notificationType = string("notification_type"),
            let inferred = flag("event_time_inferred"), let path = string("source_path")
        else { return nil }
        var facts = V1RecordFacts(environment: environment, notificationType: notificationType, source: "")
        facts.subscriptionId = string("original_transaction_id")
        facts.eventTime = number("event_time")
        facts.eventTimeInferred = inferred
        facts.bodyEventTime = number("body_event_time")
        facts.relevantTransactionId = string("relevant_transaction_id")
        facts.autoRenewStatus = flag("auto_renew_status")
        facts.autoRenewProductId = string("auto_renew_product_id")
        facts.gracePeriodExpiresDate = number("grace_period_expires_date")
        facts.isInBillingRetryPeriod = flag("is_in_billing_retry_period")
        facts.bundleId = string("bid")
        let line = number("source_line")
        let index = number("source_index")
        guard !damaged, members.isEmpty, line == nil || index == nil, (line ?? 0) >= 0, (index ?? 0) >= 0 else {
            return nil
        }
        facts.source = SourceParts(path: path, line: line, index: index).text
        return facts
    }
}

extension V1RecordFacts {
    /// Facts with only the members that are never absent set; the rest are set one by one.
    init(environment: String, notificationType: String, source: String) {
        self.environment = environment
        self.notificationType = notificationType
        self.source = source
        eventTimeInferred = false
        transactions = []
    }
}
