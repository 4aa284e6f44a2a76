/// A record's source (`path:line`, `path[index]` or a bare text) in parts, so the path is a shared text and the
/// line or index a number; put together again it is the same text, byte for byte.
struct SourceParts: Equatable {
    /// The path, or the whole text when it has no line or index.
    var path: String
    /// The line, when the text ends in `:<line>`.
    var line: Int64?
    /// The index, when the text ends in `[<index>]`.
    var index: Int64?

    /// The parts of `source`.
    init(_ source: String) {
        path = source
        let bytes = Array(source.utf8)
        if bytes.last == UInt8(ascii: "]"), let open = bytes.lastIndex(of: UInt8(ascii: "[")), open > 0,
            let number = Self.number(bytes[(open + 1)..<(bytes.count - 1)])
        {
            path = String(decoding: bytes[..<open], as: UTF8.self)
            index = number
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > 0,
            let number = Self.number(bytes[(colon + 1)...])
        {
            path = String(decoding: bytes[..<colon], as: UTF8.self)
            line = number
        }
        // A path that is not whole UTF-8 on its own is kept whole.
        if SourceParts(path: path, line: line, index: index).text != source {
            path = source
            line = nil
            index = nil
        }
    }

    /// Parts as read back.
    init(path: String, line: Int64?, index: Int64?) {
        self.path = path
        self.line = line
        self.index = index
    }

    /// The source text.
    var text: String {
        if let line { return "\(path):\(line)" }
        if let index { return "\(path)[\(index)]" }
        return path
    }

    /// The value of canonical decimal digits, else nil.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        RecordFactsCodec.canonicalNumber(String(decoding: digits, as: UTF8.self)).map { Int64($0) }
    }
}
