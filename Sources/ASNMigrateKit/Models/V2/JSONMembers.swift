/// A model that lists its JSON members, in order, to any `JSONMemberSink`: the one declaration of its keys, from
/// which both its `JSONObject` (`JSONObjectBuilder`) and its compact bytes (`JSONByteSink`) are made.
package protocol JSONMembers {
    /// Gives each present member to `sink`, in the model's fixed order.
    func writeMembers<Sink: JSONMemberSink>(to sink: inout Sink)
}

/// Receives a model's JSON members in order; absent (nil) values are left out. A sink is also a member visitor that
/// writes what it visits, so models list their scalar members once (`visitMembers`).
package protocol JSONMemberSink: V2MemberVisitor {
    /// A string member.
    mutating func add(_ key: String, _ value: String?)
    /// An integer member.
    mutating func add(_ key: String, _ value: Int64?)
    /// An integer member.
    mutating func add(_ key: String, _ value: Int?)
    /// A Boolean member.
    mutating func add(_ key: String, _ value: Bool?)
    /// An object member, written from a model.
    mutating func add<Member: JSONMembers>(_ key: String, object value: Member?)
}

/// A model made only of optional scalar members (transaction and renewal info), which it visits in order: reading it
/// from a parsed object or a tape and writing it both follow from `visitMembers`, where its keys are named once.
package protocol V2ScalarModel: JSONMembers, MemberVisitable {
    /// An empty model.
    init()
    /// Visits every member, by key and `inout`, in the fixed order of the model's JSON.
    mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor)
}

extension V2ScalarModel {
    /// Decodes it from a parsed object; never fails, unknown values are kept raw.
    package init(_ object: JSONObject) {
        self.init(V2FieldReader(object))
    }

    /// Decodes it from any field source (a parsed object or a tape); never fails.
    package init<Source: V2FieldSource>(_ r: Source) {
        self.init()
        var reader = V2MemberReader(r)
        visitMembers(&reader)
    }

    /// Gives each present member to `b`, in the model's order.
    package func writeMembers<Sink: JSONMemberSink>(to b: inout Sink) {
        var members = self
        members.visitMembers(&b)
    }
}

extension JSONMembers {
    /// The members as an ordered JSON object.
    package var json: JSONObject {
        var builder = JSONObjectBuilder()
        writeMembers(to: &builder)
        return builder.object
    }

    /// The compact JSON bytes of the object, exactly as `JSONWriter.bytes(.object(json))` writes them, without the
    /// tree in between.
    package var compactJSONBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        appendCompactJSON(to: &bytes)
        return bytes
    }

    /// Appends the compact JSON bytes of the object to `out` (`compactJSONBytes`, without a copy).
    package func appendCompactJSON(to out: inout [UInt8]) {
        var sink = JSONByteSink()
        swap(&sink.bytes, &out)
        sink.bytes.append(UInt8(ascii: "{"))
        writeMembers(to: &sink)
        sink.bytes.append(UInt8(ascii: "}"))
        swap(&sink.bytes, &out)
    }
}

extension JSONMemberSink {
    /// Writes a visited string member.
    package mutating func visit(_ key: String, _ value: inout String?) { add(key, value) }
    /// Writes a visited integer member.
    package mutating func visit(_ key: String, _ value: inout Int64?) { add(key, value) }
    /// Writes a visited integer member.
    package mutating func visit(_ key: String, _ value: inout Int?) { add(key, value) }
    /// Writes a visited Boolean member.
    package mutating func visit(_ key: String, _ value: inout Bool?) { add(key, value) }
}
