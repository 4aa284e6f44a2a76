import Foundation

/// The sink that writes `migrate`'s V2 JSON line straight into bytes, byte for byte what the models' sink and
/// `MigrationOutput.appendJSONLine` give, with the rule's names already as JSON (`TapeMigration`).
struct V2JSONSink<View: V1RecordView>: V2Sink {
    /// The record's notificationUUID: the digest it is made of, or its text.
    enum UUID {
        /// The first 16 bytes of a SHA-1 digest, version-5 bits not yet set.
        case digest((UInt64, UInt64, UInt32))
        /// The text.
        case text(String)
    }

    /// The record's view.
    let view: View
    /// The plan (its constants).
    let plan: TapeMigration
    /// The rule that matched.
    let rule: TapeMigration.Rule
    /// The notificationUUID.
    let uuid: UUID
    /// Where the record was read.
    let location: SourceLocation
    /// The writer.
    var json = JSONOut()

    /// A sink writing the record of `view` matched by `rule` into `out`'s bytes (taken over; give them back with
    /// `finish`).
    init(
        view: View, plan: TapeMigration, rule: TapeMigration.Rule, uuid: UUID, location: SourceLocation,
        into out: inout [UInt8]
    ) {
        self.view = view
        self.plan = plan
        self.rule = rule
        self.uuid = uuid
        self.location = location
        swap(&json.bytes, &out)
    }

    /// Gives the bytes back.
    mutating func finish(into out: inout [UInt8]) {
        swap(&json.bytes, &out)
    }

    /// `{`, the rule's names, the notificationUUID, `version` and `signedDate`.
    mutating func begin(signedDate: Int64?) {
        json.open()
        json.key("notificationType")
        json.raw(rule.v2Type)
        if let subtype = rule.v2Subtype {
            json.key("subtype")
            json.raw(subtype)
        }
        json.key("notificationUUID")
        switch uuid {
        case .digest(let digest): json.uuid(digest)
        case .text(let text): JSONWriter.appendString(text, to: &json.bytes)
        }
        json.key("version")
        json.raw(plan.version)
        json.int("signedDate", signedDate)
    }

    /// `"data":{`, `"transactionInfo":{` or `"renewalInfo":{`.
    mutating func open(_ object: V2Object) {
        switch object {
        case .data: json.key("data")
        case .transaction: json.key("transactionInfo")
        case .renewal: json.key("renewalInfo")
        }
        json.open()
    }

    /// `}`.
    mutating func close(_ object: V2Object) {
        json.close()
    }

    /// A text member.
    mutating func text(_ member: V2Member, _ value: View.Text?) {
        guard let value else { return }
        json.key(member)
        view.appendJSON(value, to: &json.bytes)
    }

    /// An integer member.
    mutating func int(_ member: V2Member, _ value: Int64?) {
        guard let value else { return }
        json.key(member)
        json.int(value)
    }

    /// A boolean member.
    mutating func flag(_ member: V2Member, _ value: Bool?) {
        guard let value else { return }
        json.key(member)
        json.bool(value)
    }

    /// A member with the mapping's own value, already JSON.
    mutating func constant(_ member: V2Member, _ value: V2Constant) {
        json.key(member)
        switch value {
        case .autoRenewable: json.raw(plan.autoRenewable)
        case .freeTrial: json.raw(plan.freeTrial)
        case .purchase: json.raw(plan.purchaseReason)
        case .ruleReason: json.raw(rule.reason ?? plan.purchaseReason)
        }
    }

    /// `environment`, unless absent.
    mutating func environment(_ value: V2Environment<View.Text>?) {
        switch value {
        case .none: return
        case .production:
            json.key("environment")
            json.literal("\"Production\"")
        case .sandbox:
            json.key("environment")
            json.literal("\"Sandbox\"")
        case .raw(let text):
            json.key("environment")
            view.appendJSON(text, to: &json.bytes)
        }
    }

    /// `"migration":{…}`, `}` and the line break.
    mutating func end(v1Type: View.Text, eventTimeInferred: Bool) {
        json.key("migration")
        json.open()
        json.key("source")
        JSONWriter.appendString(location.path, to: &json.bytes)
        json.int("line", location.line)
        json.int("index", location.index)
        json.key("v1NotificationType")
        view.appendJSON(v1Type, to: &json.bytes)
        json.key("rule")
        json.raw(rule.id)
        if eventTimeInferred {
            json.key("eventTimeInferred")
            json.bool(true)
        }
        json.close()
        json.close()
        json.bytes.append(0x0A)
    }
}

/// Compact JSON written straight into bytes, with the commas between members.
struct JSONOut {
    /// The bytes written.
    var bytes: [UInt8] = []
    /// Whether the next member is the first of its object.
    private var first = true

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
        member(name.utf8Start, name.utf8CodeUnitCount, quoted: nil)
    }

    /// `,` when needed, then a mapped member's `"key":` (its bytes made once, `V2Member.keyBytes`).
    mutating func key(_ member: V2Member) {
        let name = V2Member.keyBytes[member.rawValue]
        guard let start = name.baseAddress else { return }
        self.member(start, name.count, quoted: nil)
    }

    /// `,` when needed, `"name":` (`length` bytes at `name`), then, with `quoted`, the value's bytes in quotes:
    /// written in one append.
    private mutating func member(_ name: UnsafePointer<UInt8>, _ length: Int, quoted value: UnsafeBufferPointer<UInt8>?)
    {
        let comma = first ? 0 : 1
        first = false
        let valueLength = value.map { $0.count + 2 } ?? 0
        let count = comma + length + 3 + valueLength
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            guard let p = buffer.baseAddress else { return }
            p[0] = 0x2C
            p[comma] = 0x22
            ByteTables.copy(name, to: p + comma + 1, length)
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

    /// A member whose value's bytes are written in quotes as they are (they need no escaping).
    mutating func quoted(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>) {
        member(name.utf8Start, name.utf8CodeUnitCount, quoted: value)
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
}
