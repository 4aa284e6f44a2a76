/// The nightly state's one binary form for what it keeps beside the packed facts (`RecordFactsCodec`): a V1 record's
/// transaction facts (`v1_transactions.facts`), a V1 receipt entry (`v1_entries.entry`) and an answer of Apple's API
/// view (`api_records.record`), each stored as facts, never as JSON and never by a Swift property name.
///
/// Layout (version 1): a version byte, then the form's member list: a varint count of the members present, then each
/// member, a varint header `tag << 3 | wire` and its value. A member's tag is a small number fixed by hand in the form's table (`Table`), looked up by Apple's key as
/// the model's `visitMembers` names it (or, for a form that is not one of Apple's models, by a key named here), so
/// renaming or reordering a Swift property changes no stored byte. Members are written in tag order, absent members
/// not at all, so equal values give equal bytes. Texts are length-prefixed UTF-8, or ids of the state's `texts`
/// table for texts many records repeat (products, bundles, notification types, file paths); a canonical decimal id
/// is its number; dates are zigzag varints relative to the form's previous date. Decoding checks every length, every
/// tag and every wire type: damaged bytes, or bytes of a newer version, decode to nil, never to a wrong value.
package enum StateCodec {
    /// The version byte this binary writes and the only one it reads.
    package static let version: UInt8 = 1

    /// How a member's value is written.
    package enum Wire: UInt64, Sendable {
        /// Length-prefixed UTF-8.
        case text = 0
        /// A canonical decimal text as its number.
        case decimal = 1
        /// An id of the state's `texts` table.
        case textId = 2
        /// A zigzag varint.
        case number = 3
        /// A zigzag varint relative to the previous date of the same member list.
        case date = 4
        /// The flag false.
        case no = 5
        /// The flag true.
        case yes = 6
        /// A length-prefixed member list of its own (a nested model).
        case nested = 7
    }

    /// How a member is kept: the kind of its values picks the wire (declared with the models: `StoredMember.Kind`).
    package typealias Kind = StoredMember.Kind

    /// One member of a form: its hand-fixed tag and how it is kept (declared beside the model's members).
    package typealias Member = StoredMember

    /// A form's members by Apple's key.
    package typealias Table = [String: Member]

    /// A member's value as read or to be written.
    package enum Value: Sendable, Equatable {
        /// A text.
        case text(String)
        /// A number (or a date).
        case number(Int64)
        /// A flag.
        case flag(Bool)
        /// A nested member list.
        case nested([Field])
    }

    /// One present member, ready to be written.
    package struct Field: Sendable, Equatable {
        /// The member.
        package var member: Member
        /// Its value.
        package var value: Value
    }

    // MARK: - Writing

    /// Appends `fields` in tag order; `text` gives a shared text's `texts` id.
    static func write(
        _ fields: [Field], to out: inout [UInt8], text: (String) throws(ASNError) -> Int64
    ) throws(ASNError) {
        var lastDate: Int64 = 0
        Varint.append(UInt64(fields.count), to: &out)
        for field in fields.sorted(by: { $0.member.tag < $1.member.tag }) {
            let tag = field.member.tag << 3
            switch field.value {
            case .text(let value):
                if field.member.kind == .id, let number = RecordFactsCodec.canonicalNumber(value) {
                    Varint.append(tag | Wire.decimal.rawValue, to: &out)
                    Varint.append(number, to: &out)
                } else if field.member.kind == .shared {
                    Varint.append(tag | Wire.textId.rawValue, to: &out)
                    Varint.append(UInt64(bitPattern: try text(value)), to: &out)
                } else {
                    Varint.append(tag | Wire.text.rawValue, to: &out)
                    Varint.append(UInt64(value.utf8.count), to: &out)
                    out += value.utf8
                }
            case .number(let value):
                if field.member.kind == .date {
                    Varint.append(tag | Wire.date.rawValue, to: &out)
                    Varint.appendSigned(value &- lastDate, to: &out)
                    lastDate = value
                } else {
                    Varint.append(tag | Wire.number.rawValue, to: &out)
                    Varint.appendSigned(value, to: &out)
                }
            case .flag(let value):
                Varint.append(tag | (value ? Wire.yes : Wire.no).rawValue, to: &out)
            case .nested(let members):
                var inner: [UInt8] = []
                try write(members, to: &inner, text: text)
                Varint.append(tag | Wire.nested.rawValue, to: &out)
                Varint.append(UInt64(inner.count), to: &out)
                out += inner
            }
        }
    }

    /// The fields of a visited model, by `table`; throws naming a member the table lacks (a member added to the model
    /// needs its tag here before the state can keep it).
    static func fields<Model: StateCodecModel>(of model: Model, _ table: Table, form: String) throws(ASNError)
        -> [Field]
    {
        var collector = FieldCollector(table: table)
        var copy = model
        copy.visitMembers(&collector)
        if let key = collector.unknown {
            throw ASNError(
                .stateDatabase,
                "the state's codec has no tag for member '\(key)' of \(form); add one to its table in StateCodec (Sources/README.md, The state's one codec)"
            )
        }
        return collector.fields
    }

    /// A whole blob: the version byte and `fields`.
    static func blob(_ fields: [Field], text: (String) throws(ASNError) -> Int64) throws(ASNError) -> [UInt8] {
        var out: [UInt8] = [version]
        out.reserveCapacity(96)
        try write(fields, to: &out, text: text)
        return out
    }

    // MARK: - Reading

    /// The members of a member list, by tag (a nested list's bytes kept for its own reading); nil when damaged: a
    /// value cut short, fewer or more members than its count, an unknown wire, a tag twice, a text id `text` does not
    /// know.
    static func read(_ bytes: UnsafeRawBufferPointer, text: (Int64) -> String?) -> [UInt64: Read]? {
        var reader = Varint.Reader(bytes)
        var members: [UInt64: Read] = [:]
        var lastDate: Int64 = 0
        guard let count = reader.next(), count <= UInt64(bytes.count) else { return nil }
        for _ in 0..<count {
            guard let header = reader.next(), let wire = Wire(rawValue: header & 7) else { return nil }
            let tag = header >> 3
            var value: Read
            switch wire {
            case .text:
                guard let count = reader.next(), let raw = reader.bytes(count),
                    let string = String(validating: raw, as: UTF8.self)
                else { return nil }
                value = .text(string)
            case .decimal:
                guard let number = reader.next(), number < 1 << 63 else { return nil }
                value = .text(String(number))
            case .textId:
                guard let id = reader.next(), let string = text(Int64(bitPattern: id)) else { return nil }
                value = .text(string)
            case .number:
                guard let number = reader.nextSigned() else { return nil }
                value = .number(number)
            case .date:
                guard let delta = reader.nextSigned() else { return nil }
                lastDate = lastDate &+ delta
                value = .number(lastDate)
            case .no, .yes:
                value = .flag(wire == .yes)
            case .nested:
                guard let count = reader.next(), let raw = reader.bytes(count) else { return nil }
                value = .nested(Array(raw))
            }
            guard members.updateValue(value, forKey: tag) == nil else { return nil }
        }
        return reader.isAtEnd ? members : nil
    }

    /// A member as read.
    enum Read: Equatable {
        /// A text.
        case text(String)
        /// A number or date.
        case number(Int64)
        /// A flag.
        case flag(Bool)
        /// A nested member list's bytes.
        case nested([UInt8])
    }

    /// The members of a blob after its version byte; nil when the version is not this binary's or the bytes are
    /// damaged.
    static func readBlob(_ bytes: [UInt8], text: (Int64) -> String?) -> [UInt64: Read]? {
        guard bytes.first == version else { return nil }
        return bytes.withUnsafeBytes { raw in
            read(UnsafeRawBufferPointer(rebasing: raw.dropFirst()), text: text)
        }
    }

    /// A model set from members read by `table`; nil when a member's value is of the wrong kind or a tag is unknown
    /// (written by a newer version).
    static func model<Model: StateCodecModel>(_ members: [UInt64: Read], _ table: Table) -> Model? {
        var setter = MemberSetter(table: table, members: members)
        var model = Model()
        model.visitMembers(&setter)
        guard !setter.failed, setter.members.isEmpty else { return nil }
        return model
    }

    /// A nested model read back from its member's bytes; nil when damaged.
    static func nested<Model: StateCodecModel>(_ read: Read, _ table: Table, text: (Int64) -> String?) -> Model? {
        guard case .nested(let bytes) = read,
            let members = bytes.withUnsafeBytes({ raw in Self.read(raw, text: text) })
        else { return nil }
        return model(members, table)
    }
}

/// Collects a visited model's present members as codec fields, by the table's tags.
private struct FieldCollector: V2MemberVisitor {
    let table: StateCodec.Table
    var fields: [StateCodec.Field] = []
    var unknown: String?

    init(table: StateCodec.Table) {
        self.table = table
        fields.reserveCapacity(table.count)
    }

    mutating func visit(_ key: String, _ value: inout String?) { add(key, value.map { .text($0) }) }
    mutating func visit(_ key: String, _ value: inout Int64?) { add(key, value.map { .number($0) }) }
    mutating func visit(_ key: String, _ value: inout Int?) { add(key, value.map { .number(Int64($0)) }) }
    mutating func visit(_ key: String, _ value: inout Bool?) { add(key, value.map { .flag($0) }) }

    /// Adds one member, noting a key the table lacks.
    private mutating func add(_ key: String, _ value: StateCodec.Value?) {
        guard let member = table[key] else {
            unknown = unknown ?? key
            return
        }
        if let value { fields.append(StateCodec.Field(member: member, value: value)) }
    }
}

/// Sets each visited member from the members read, by the table's tags, removing those it takes.
private struct MemberSetter: V2MemberVisitor {
    let table: StateCodec.Table
    var members: [UInt64: StateCodec.Read]
    var failed = false

    init(table: StateCodec.Table, members: [UInt64: StateCodec.Read]) {
        self.table = table
        self.members = members
    }

    mutating func visit(_ key: String, _ value: inout String?) {
        guard let read = take(key) else { return }
        if case .text(let text) = read { value = text } else { failed = true }
    }

    mutating func visit(_ key: String, _ value: inout Int64?) {
        guard let read = take(key) else { return }
        if case .number(let number) = read { value = number } else { failed = true }
    }

    mutating func visit(_ key: String, _ value: inout Int?) {
        guard let read = take(key) else { return }
        if case .number(let number) = read, let int = Int(exactly: number) { value = int } else { failed = true }
    }

    mutating func visit(_ key: String, _ value: inout Bool?) {
        guard let read = take(key) else { return }
        if case .flag(let flag) = read { value = flag } else { failed = true }
    }

    /// The member read for `key`, removed from those left; nil when absent.
    private mutating func take(_ key: String) -> StateCodec.Read? {
        guard let member = table[key] else {
            failed = true
            return nil
        }
        return members.removeValue(forKey: member.tag)
    }
}
