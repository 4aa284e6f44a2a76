/// Decides, once per file, whether a file is JSON Lines, multi-line JSON (one pretty-printed object, or a stream of
/// them) or a top-level array, from a sample of its first lines, so that how a line counts never depends on the lines
/// before it.
///
/// Each non-blank line of the sample is looked at alone. A *complete* line starts with `{` and its brackets close
/// exactly at its end (strings and escapes honoured): what every good JSON Lines record is. A *pretty* line is what
/// only a pretty-printer writes: closers alone (`}`, `},`, `]`), an opener alone or ending the line (`{`,
/// `"key": {`), or an indented line starting with a key (`  "key": …`). The file is multi-line when some sampled line
/// is pretty and pretty lines are at least as many as complete ones, or when it has two lines or more and none is
/// complete (values spanning unindented lines); otherwise it is JSON Lines, where every non-blank line is one record
/// or one reject whatever damage came before it. A pretty-printed record has two pretty lines or more (its indented
/// keys and its closing `}`) and no complete one, so a damaged record cannot turn a pretty-printed file into JSON
/// Lines; a JSON Lines file stays JSON Lines as long as its undamaged lines in the sample outnumber the damaged ones
/// (the property tests and the fuzz target damage fewer than half of a file's lines).
///
/// A file starting with `[` is a top-level array unless its lines say JSON Lines: complete lines outnumbering pretty
/// ones while its first line is no whole array (`[1]` then more lines stays an array followed by values, as before).
/// So a JSON Lines file whose first line was damaged into starting with `[` is still read line by line; an array
/// written one element per line has no complete line (each element ends with `,` or `]`): when such element lines
/// outnumber pretty ones, the array is read line by line too (`arrayLines`), each non-blank line one element, so a
/// damaged element costs its line only, as in JSON Lines.
enum FileShape: Equatable {
    /// One record per non-blank line.
    case jsonLines
    /// Values spanning lines, split by bracket depth.
    case multiLine
    /// The elements of a top-level array.
    case array
    /// The elements of a top-level array written one per line, each read as a line.
    case arrayLines

    /// The shape's name in a `nightly` state's file ledger.
    var ledgerName: String {
        switch self {
        case .jsonLines: return "json_lines"
        case .multiLine: return "multi_line"
        case .array: return "array"
        case .arrayLines: return "array_lines"
        }
    }

    /// The shape a ledger names (`ledgerName`); nil for a name this release does not know.
    init?(ledgerName: String) {
        guard
            let shape = [FileShape.jsonLines, .multiLine, .array, .arrayLines].first(where: {
                $0.ledgerName == ledgerName
            })
        else { return nil }
        self = shape
    }

    /// How many lines (line feeds) the sample holds at most; it may run to the end of the chunk that reaches them.
    static let sampleLines = 256
    /// How many bytes the sample holds at most (it may run to the end of the chunk that reaches it).
    static let sampleBytes = 1 << 20

    /// The shape of a file whose first lines are `sample` (starting at its first non-blank byte).
    static func of(_ sample: [UInt8]) -> FileShape {
        var complete = 0
        var pretty = 0
        var lines = 0
        var elements = 0
        var firstLineIsArray = false
        sample.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if start == 0 { firstLineIsArray = isWholeArray(line) }
                switch kind(of: line) {
                case .complete: complete += 1
                case .pretty: pretty += 1
                case .other: if isElementLine(line, first: start == 0) { elements += 1 }
                }
                if line.contains(where: { !isBlank($0) }) { lines += 1 }
                start = end + 1
            }
        }
        if sample.first == 0x5B {
            // Lines of whole objects outweighing the rest make JSON Lines even when the first line is a whole array:
            // that is one damaged record (its braces turned to brackets), not a top-level array followed by more lines.
            if complete >= 1 && complete > pretty && complete > elements { return .jsonLines }
            if firstLineIsArray { return .array }
            return elements >= 1 && elements + complete > pretty ? .arrayLines : .array
        }
        return (pretty > 0 && pretty >= complete) || (complete == 0 && lines >= 2) ? .multiLine : .jsonLines
    }

    /// Whether `line` is one array element on its own line: a complete object once the array's `[` (first line only)
    /// and a trailing `,` or closing `]` are set aside.
    private static func isElementLine(_ line: UnsafeBufferPointer<UInt8>, first: Bool) -> Bool {
        var a = 0
        var b = line.count
        while a < b && isBlank(line[a]) { a += 1 }
        while b > a && isBlank(line[b - 1]) { b -= 1 }
        if first, a < b, line[a] == 0x5B {
            a += 1
            while a < b && isBlank(line[a]) { a += 1 }
        }
        guard b > a, line[b - 1] == 0x2C || line[b - 1] == 0x5D else { return false }
        b -= 1
        while b > a && isBlank(line[b - 1]) { b -= 1 }
        return a < b && line[a] == 0x7B && closesAtEnd(line, from: a, to: b)
    }

    /// Whether the bytes `bytes[from..<to]` are one value that closes exactly at their end (used to tell an element's
    /// own `]` from the array's).
    static func closesBefore(_ bytes: [UInt8], from: Int, to: Int) -> Bool {
        guard from < to else { return true }
        return bytes.withUnsafeBufferPointer { closesAtEnd($0, from: from, to: to) }
    }

    /// Whether `line` is a whole array: `[` closed exactly at its end.
    private static func isWholeArray(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var a = 0
        var b = line.count
        while a < b && isBlank(line[a]) { a += 1 }
        while b > a && isBlank(line[b - 1]) { b -= 1 }
        return a < b && line[a] == 0x5B && closesAtEnd(line, from: a, to: b)
    }

    /// What one line tells about the file.
    enum LineKind: Equatable {
        /// A whole JSON value on its own line.
        case complete
        /// A fragment only a pretty-printer writes.
        case pretty
        /// Anything else (blank, damaged, junk).
        case other
    }

    /// The kind of one line (without its line feed).
    static func kind(of line: UnsafeBufferPointer<UInt8>) -> LineKind {
        var a = 0
        var b = line.count
        while a < b && isBlank(line[a]) { a += 1 }
        while b > a && isBlank(line[b - 1]) { b -= 1 }
        guard a < b else { return .other }
        let first = line[a]
        let last = line[b - 1]
        if first == 0x7B && closesAtEnd(line, from: a, to: b) { return .complete }
        if (a..<b).allSatisfy({ line[$0] == 0x7D || line[$0] == 0x5D || line[$0] == 0x2C }) { return .pretty }
        if last == 0x7B || last == 0x5B { return .pretty }
        if a > 0 && first == 0x22 { return .pretty }
        return .other
    }

    /// Whether the value opening at `line[from]` closes exactly at `line[to - 1]`. A string's bytes are passed
    /// over eight at a time up to its next quote or backslash (most of a record's bytes are inside strings).
    private static func closesAtEnd(_ line: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        guard let base = line.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var depth = 0
        var i = from
        while i < to {
            switch base[i] {
            case 0x22:
                i += 1
                inString: while true {
                    while i &+ 8 <= to {
                        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                        let hit = ByteTables.matches(word, 0x22) | ByteTables.matches(word, 0x5C)
                        if hit != 0 {
                            i &+= hit.trailingZeroBitCount &>> 3
                            break
                        }
                        i &+= 8
                    }
                    guard i < to else { return false }
                    switch base[i] {
                    case 0x22: break inString
                    case 0x5C: i += 2
                    default: i += 1
                    }
                }
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth <= 0 { return depth == 0 && i == to - 1 }
            default: break
            }
            i += 1
        }
        return false
    }

    /// Space, tab or carriage return.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
