/// Writes a model's members straight to compact JSON bytes, byte for byte as `JSONWriter` writes the same members as
/// a `JSONObject` (no whitespace, members in order, strings escaped the same way, integers in decimal).
package struct JSONByteSink: JSONMemberSink {
    /// The bytes written so far.
    package var bytes: [UInt8] = []
    /// Whether the next member is the first of its object (no comma before it).
    private var first = true

    /// An empty sink, inside an object whose `{` the caller writes.
    package init() {}

    /// Writes `,` when needed, the key and `:`.
    private mutating func key(_ key: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONWriter.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A string member.
    package mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONWriter.appendString(value, to: &bytes)
    }

    /// An integer member.
    package mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// An integer member.
    package mutating func add(_ key: String, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// A Boolean member.
    package mutating func add(_ key: String, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// An object member, written from a model.
    package mutating func add<Member: JSONMembers>(_ key: String, object value: Member?) {
        guard let value else { return }
        openObject(key)
        value.writeMembers(to: &self)
        closeObject()
    }

    // MARK: - Members written from raw bytes

    /// Starts an object member `key`, whose members follow until `closeObject()`.
    package mutating func openObject(_ key: String) {
        self.key(key)
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    /// Ends the object `openObject` started.
    package mutating func closeObject() {
        first = false
        bytes.append(UInt8(ascii: "}"))
    }

    /// A string member given as its UTF-8 bytes (valid UTF-8), escaped as `add(_:_:)` escapes a `String`.
    package mutating func add(_ key: String, utf8 value: UnsafeBufferPointer<UInt8>) {
        self.key(key)
        ByteTables.appendEscapedJSONString(value, to: &bytes)
    }

    /// A member whose value is written as given: an integer literal already in `String(Int64)`'s form, or `true` /
    /// `false`.
    package mutating func add(_ key: String, literal value: UnsafeBufferPointer<UInt8>) {
        self.key(key)
        bytes.append(contentsOf: value)
    }
}
