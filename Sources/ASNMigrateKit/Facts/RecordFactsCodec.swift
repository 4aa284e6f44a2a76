/// The compact bytes a nightly state keeps per record (`facts.facts`): a `RecordFacts` without its subscription,
/// notificationUUID and time (columns of their own), about 45 bytes where the JSON payload it replaces took 1.8 KB.
///
/// Layout (format 1): a format byte; a varint of flags (kind, inferred, renewal flags, which of environment and
/// originalTransactionId are absent, an empty notificationUUID, then two bits per flag field of the V2 field table:
/// known, true); a varint mask of the optional fields present (bits 0–6 the record's own, then each compared field at
/// its table `bit`); then each present field in mask order. Texts are ids of the state's `texts` table; numeric Apple ids are varints (a text id
/// when not canonical decimal); dates are zigzag varints relative to an earlier date of the record; small numbers are
/// zigzag varints. Decoding checks every length, so damaged bytes are an error, never a wrong value.
package enum RecordFactsCodec {
    /// The format byte this binary writes.
    package static let format: UInt8 = 1

    /// The record's own optional fields, in mask (and byte) order; the compared fields follow at their table bits.
    private enum Field: Int, CaseIterable {
        case notificationType, subtype, v1NotificationType, ruleId, path, line, index
    }

    /// The record's own flag bits (bits 0–1 hold the kind); flag fields of the table follow from `firstFieldFlag`.
    private enum Flag: Int {
        case inferred = 2
        case hasAutoRenewStatus, environmentAbsent, keyAbsent, emptyUUID
    }

    /// The flags bit of the first flag field's "known" bit; its "true" bit is the next, and so on two per slot.
    private static let firstFieldFlag = 7

    /// The compared fields the mask holds, in bit (and byte) order.
    private static let maskFields: [ComparedField] = ComparedField.allCases.filter { $0.row.bit != nil }
        .sorted { ($0.row.bit ?? 0) < ($1.row.bit ?? 0) }

    /// One past the highest mask bit in use.
    private static let maskWidth = (maskFields.last?.row.bit).map { $0 + 1 } ?? Field.allCases.count

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
        for slot in facts.compared.flags.indices {
            let known = UInt64(firstFieldFlag + 2 * slot)
            if let value = facts.compared.flags[slot] { flags |= (1 << known) | (value ? 1 << (known + 1) : 0) }
        }
        Varint.append(flags, to: &out)

        var mask: UInt64 = 0
        var body: [UInt8] = []
        body.reserveCapacity(72)
        func textField(_ bit: Int, _ value: String?) throws(ASNError) {
            guard let value else { return }
            mask |= 1 << UInt64(bit)
            Varint.append(UInt64(bitPattern: try text(value)), to: &body)
        }
        func idField(_ bit: Int, _ value: String?) throws(ASNError) {
            guard let value else { return }
            mask |= 1 << UInt64(bit)
            if let number = canonicalNumber(value) {
                Varint.append(number << 1, to: &body)
            } else {
                Varint.append(UInt64(bitPattern: try text(value)) << 1 | 1, to: &body)
            }
        }
        func signedField(_ bit: Int, _ value: Int64?, from base: Int64) {
            guard let value else { return }
            mask |= 1 << UInt64(bit)
            Varint.appendSigned(value &- base, to: &body)
        }
        func intField(_ bit: Int, _ value: Int?) {
            signedField(bit, value.map(Int64.init), from: 0)
        }
        try textField(Field.notificationType.rawValue, facts.notificationType)
        try textField(Field.subtype.rawValue, facts.subtype)
        try textField(Field.v1NotificationType.rawValue, facts.v1NotificationType)
        try textField(Field.ruleId.rawValue, facts.ruleId)
        try textField(Field.path.rawValue, facts.location.path)
        intField(Field.line.rawValue, facts.location.line)
        intField(Field.index.rawValue, facts.location.index)
        let time = facts.time ?? 0
        for field in maskFields {
            switch field.row {
            case .text(let bit, _): try textField(bit, facts[text: field])
            case .id(let bit, _): try idField(bit, facts[text: field])
            case .date(let bit, let base, _):
                signedField(bit, facts[date: field], from: base.flatMap { facts[date: $0] } ?? time)
            case .number(let bit, _): intField(bit, facts[number: field])
            case .flag, .notInNotifications: break
            }
        }
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
        for slot in facts.compared.flags.indices {
            let known = UInt64(firstFieldFlag + 2 * slot)
            if flags & (1 << known) != 0 { facts.compared.flags[slot] = flags & (1 << (known + 1)) != 0 }
        }
        var damaged = false
        func present(_ bit: Int) -> Bool { mask & (1 << UInt64(bit)) != 0 }
        func textField(_ bit: Int) -> String? {
            guard present(bit) else { return nil }
            guard let id = reader.next(), let value = text(Int64(bitPattern: id)) else {
                damaged = true
                return nil
            }
            return value
        }
        func idField(_ bit: Int) -> String? {
            guard present(bit) else { return nil }
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
        func signedField(_ bit: Int, from base: Int64) -> Int64? {
            guard present(bit) else { return nil }
            guard let delta = reader.nextSigned() else {
                damaged = true
                return nil
            }
            return base &+ delta
        }
        func intField(_ bit: Int) -> Int? {
            signedField(bit, from: 0).map { Int(truncatingIfNeeded: $0) }
        }
        facts.notificationType = textField(Field.notificationType.rawValue)
        facts.subtype = textField(Field.subtype.rawValue)
        facts.v1NotificationType = textField(Field.v1NotificationType.rawValue)
        facts.ruleId = textField(Field.ruleId.rawValue)
        facts.location = SourceLocation(
            path: textField(Field.path.rawValue) ?? "", line: intField(Field.line.rawValue),
            index: intField(Field.index.rawValue))
        let time = facts.time ?? 0
        for field in maskFields {
            switch field.row {
            case .text(let bit, _): facts[text: field] = textField(bit)
            case .id(let bit, _): facts[text: field] = idField(bit)
            case .date(let bit, let base, _):
                facts[date: field] = signedField(bit, from: base.flatMap { facts[date: $0] } ?? time)
            case .number(let bit, _): facts[number: field] = intField(bit)
            case .flag, .notInNotifications: break
            }
        }
        guard !damaged, reader.isAtEnd, mask >> UInt64(maskWidth) == 0 else { return nil }
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
