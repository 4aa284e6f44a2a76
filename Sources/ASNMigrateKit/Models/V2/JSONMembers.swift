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
        var sink = JSONByteSink()
        sink.bytes.append(UInt8(ascii: "{"))
        writeMembers(to: &sink)
        sink.bytes.append(UInt8(ascii: "}"))
        return sink.bytes
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
