#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The streaming state machine behind `RecordReader`: fed one source's bytes chunk by chunk (any sizes), it finds
/// record boundaries without parsing values, keeping only the current record's bytes between chunks.
struct RecordSplitter {
    /// Receives each record or broken item as soon as it is complete.
    typealias Emit = (InputItem) throws -> Void

    /// How the source is being split.
    enum Mode: Equatable {
        /// Skipping the BOM and leading whitespace; nothing seen yet.
        case start
        /// Holding the file's first lines until `FileShape` can tell JSON Lines from multi-line JSON.
        case sampling
        /// One record per non-blank line.
        case jsonLines
        /// Top-level values one after another, split by depth tracking.
        case concatenated
        /// Elements of a top-level array.
        case array
        /// Elements of a top-level array written one per line (`[{…},` / `{…},` / `{…}]`): each non-blank line is one
        /// element, as in JSON Lines, so damage to one element costs that line only.
        case arrayLines
    }

    /// How far `scanValue` got in a chunk.
    private enum ValueStop {
        /// The chunk ended inside the value.
        case incomplete
        /// The value ends just before this index.
        case end(Int)
        /// A `{` at this index opens a line no deeper than the value's first line: the value is cut short there.
        case cut(Int)
    }

    /// Where array splitting stands.
    private enum ArrayState {
        case expectElement, inElement, afterElement, junk, closed
    }

    /// The path put into every location.
    let path: String
    /// The mode, once detected.
    private(set) var mode: Mode = .start

    // MARK: - State

    /// How many bytes of the UTF-8 BOM have matched so far.
    private var bomMatched = 0
    /// Whether the BOM check is over (matched, or ruled out).
    private var bomDone = false
    /// The 1-based line of the current scan position.
    private var line = 1
    /// Bytes of the current record carried over from earlier chunks.
    private var pending: [UInt8] = []
    /// The file's first bytes (from its first non-blank byte) while its shape is being decided.
    private var sample: [UInt8] = []
    /// How many line feeds `sample` holds.
    private var sampleLineFeeds = 0

    /// Whether a value (concatenated mode or array element) is being scanned.
    private var inValue = false
    /// Whether the current value is a bare scalar (ends at a delimiter) rather than an object, array or string.
    private var isScalar = false
    /// The first byte of the current value.
    private var opener: UInt8 = 0
    /// The line where the current value starts.
    private var recordLine = 1
    /// Bracket depth inside the current value or junk.
    private var depth = 0
    /// Whether the scan position is inside a string.
    private var inString = false
    /// Whether the previous byte was a backslash inside a string.
    private var escaped = false
    /// Whether only blanks have been seen on the current line so far.
    private var atLineStart = true
    /// How many blanks (space, tab, CR) start the current line; frozen at its first other byte.
    private var indent = 0
    /// The indentation of the line where the current value starts: a `{` opening a line at this indentation or
    /// less starts a new record, since pretty-printed JSON indents nested values deeper.
    private var valueIndent = 0
    /// The line where a `{` cut the previous value short, for that value's message.
    private var cutLine = 1

    /// In `.arrayLines`: whether the opening `[` is still to be stripped, whether the closing `]` was seen, and
    /// whether the last element line ended with `,` (so a file ending there was cut at a line boundary).
    private var arrayOpenPending = true, arrayLinesClosed = false, lastElementHadComma = false
    /// The line of the opening `[`.
    private var arrayLine = 1
    /// Where array splitting stands.
    private var arrayState: ArrayState = .expectElement
    /// The index the next array element gets.
    private var nextIndex = 0
    /// The line where skipped junk between elements starts.
    private var junkLine = 1
    /// The indentation of the line where that junk starts.
    private var junkIndent = 0
    /// Whether the junk ended at a `{` opening a line (a new element) rather than at `,` or `]`.
    private var junkEndsAtRecord = false
    /// The first bytes of that junk, for the message.
    private var junkPreview: [UInt8] = []

    /// The longest record kept, in bytes (`--max-record-bytes`): a longer one is one `record_too_large` broken item,
    /// read past without holding more than this and one chunk.
    let maxRecordBytes: Int
    /// Bytes of the current record let go because it passed `maxRecordBytes` (0 while it is within it).
    private var dropped = 0

    /// A splitter for the source reported as `path`, keeping records of up to `maxRecordBytes` bytes. With a `shape`
    /// (the new part of a grown file, whose shape its first read decided) nothing is sampled and no byte order mark
    /// looked for: the bytes are split in that shape from the first, as the whole file's reading goes on past them.
    init(path: String, maxRecordBytes: Int = InputLimits.defaultMaxRecordBytes, shape: FileShape? = nil) {
        self.path = path
        self.maxRecordBytes = max(1, maxRecordBytes)
        guard let shape else { return }
        bomDone = true
        switch shape {
        case .jsonLines: mode = .jsonLines
        case .multiLine: mode = .concatenated
        case .arrayLines:
            mode = .arrayLines
            arrayOpenPending = false
        case .array:
            mode = .array
            arrayState = .afterElement
        }
    }

    /// The shape the splitter decided (or was given); nil while undecided, or for an input of only blanks.
    var shape: FileShape? {
        switch mode {
        case .start, .sampling: return nil
        case .jsonLines: return .jsonLines
        case .concatenated: return .multiLine
        case .array: return .array
        case .arrayLines: return .arrayLines
        }
    }

    // MARK: - Feeding

    /// Splits the next chunk, emitting every record or broken item it completes.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, emit: Emit) throws {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        var start = 0
        if !bomDone {
            start = try consumeBOM(base, chunk.count, emit)
            if !bomDone { return }
        }
        try scan(base, start, chunk.count, emit)
    }

    /// Ends the source: emits the last record, or a broken item for a value or array left open.
    mutating func finish(emit: Emit) throws {
        if !bomDone { try replayBOMPrefix(emit) }
        if mode == .sampling { try endSampling(emit) }
        switch mode {
        case .start, .sampling:
            break
        case .jsonLines:
            try emitPendingLine(emit)
        case .arrayLines:
            try emitPendingLine(emit)
            if !arrayLinesClosed && lastElementHadComma {
                // Cut at a line boundary: no line holds the damage, so the missing end is reported on its own.
                try emit(.broken(arrayNeverClosed()))
            }
        case .concatenated:
            if inValue { try finishValue(index: nil, emit) }
        case .array:
            switch arrayState {
            case .expectElement, .afterElement:
                try emit(.broken(arrayNeverClosed()))
            case .inElement:
                let wasScalar = isScalar
                try finishValue(index: nextIndex, emit)
                if wasScalar {
                    nextIndex += 1
                    try emit(.broken(arrayNeverClosed()))
                }
            case .junk:
                try emit(.broken(junkError(atEndOfFile: true)))
            case .closed:
                break
            }
        }
        inValue = false
        pending = []
        dropped = 0
    }

    /// Ends the sampling early, when the input fails part way (a corrupt gzip member): the shape is decided from the
    /// lines read so far and their records are emitted, so the records before the failure are not lost with it.
    mutating func endSample(emit: Emit) throws {
        if mode == .sampling { try endSampling(emit) }
    }

    // MARK: - Byte order mark

    /// Matches the BOM at the very start, across chunks; returns where content starts in this chunk.
    private mutating func consumeBOM(_ p: UnsafePointer<UInt8>, _ end: Int, _ emit: Emit) throws -> Int {
        var i = 0
        while i < end && bomMatched < Bytes.bom.count {
            guard p[i] == Bytes.bom[bomMatched] else {
                try replayBOMPrefix(emit)
                return i
            }
            bomMatched += 1
            i += 1
        }
        if bomMatched == Bytes.bom.count { bomDone = true }
        return i
    }

    /// Ends the BOM check and scans the bytes that matched only a BOM prefix as ordinary content.
    private mutating func replayBOMPrefix(_ emit: Emit) throws {
        bomDone = true
        let prefix = Array(Bytes.bom.prefix(bomMatched))
        try prefix.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try scan(base, 0, buffer.count, emit)
        }
    }

    // MARK: - Dispatch

    /// Scans `p[start..<end]` in the current mode, following mode changes.
    private mutating func scan(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ emit: Emit) throws {
        var i = start
        while i < end {
            switch mode {
            case .start:
                i = detect(p, i, end)
            case .sampling:
                try takeSample(p, i, end, emit)
                return
            case .concatenated:
                i = try scanConcatenated(p, i, end, emit)
            case .jsonLines, .arrayLines:
                try scanLines(p, i, end, emit)
                return
            case .array:
                i = try scanArray(p, i, end, emit)
            }
        }
    }

    /// Skips leading whitespace; the first other byte starts the sample `FileShape` decides the mode from.
    private mutating func detect(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end {
            let byte = p[i]
            if Bytes.isSpace(byte) {
                track(byte)
            } else {
                mode = .sampling
                return i
            }
            i += 1
        }
        return end
    }

    // MARK: - Shape

    /// Holds `p[start..<end]` in the sample; once it has `FileShape.sampleLines` lines or `sampleBytes` bytes,
    /// decides the shape and splits the sample in it.
    private mutating func takeSample(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ emit: Emit) throws {
        let chunk = UnsafeBufferPointer(start: p + start, count: end - start)
        sample.append(contentsOf: chunk)
        for byte in chunk where byte == Bytes.newline { sampleLineFeeds += 1 }
        if sampleLineFeeds > FileShape.sampleLines || sample.count >= FileShape.sampleBytes { try endSampling(emit) }
    }

    /// Decides the shape from the sample held so far and splits the sample in it.
    private mutating func endSampling(_ emit: Emit) throws {
        var start = 0
        switch FileShape.of(sample) {
        case .jsonLines: mode = .jsonLines
        case .multiLine: mode = .concatenated
        case .arrayLines:
            mode = .arrayLines
            arrayLine = line
        case .array:
            // The sample starts with the array's `[`.
            atLineStart = false
            mode = .array
            arrayLine = line
            arrayState = .expectElement
            start = 1
        }
        let held = sample
        sample = []
        try held.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count else { return }
            try scan(base, start, buffer.count, emit)
        }
    }

    // MARK: - Record size

    /// Holds `bytes` as more of the current record, unless it has passed `maxRecordBytes`: then its bytes are only
    /// counted, so memory stays within the limit and one chunk however long the record is.
    private mutating func hold(_ bytes: UnsafeBufferPointer<UInt8>) {
        if dropped > 0 {
            dropped += bytes.count
            return
        }
        pending.append(contentsOf: bytes)
        if pending.count > maxRecordBytes {
            dropped = pending.count
            pending = []
        }
    }

    /// Whether no bytes of a record are carried over from earlier chunks (none held, none let go).
    private var nothingHeld: Bool { pending.isEmpty && dropped == 0 }

    /// The broken item for a record of `bytes` bytes, longer than `maxRecordBytes`; resets `dropped`.
    private mutating func tooLarge(bytes: Int, line: Int, index: Int?) -> InputItem {
        dropped = 0
        pending = []
        return .broken(
            InputFile.recordTooLarge(
                bytes: bytes, limit: maxRecordBytes, at: SourceLocation(path: path, line: line, index: index)))
    }

    // MARK: - JSON Lines

    /// Splits at every `\n` (found with `memchr`), emitting each non-blank line trimmed of surrounding whitespace.
    private mutating func scanLines(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ emit: Emit) throws {
        var i = start
        let origin = UnsafeRawPointer(p)
        while i < end {
            guard let hit = memchr(origin + i, Int32(Bytes.newline), end - i) else {
                if nothingHeld {
                    while i < end && Bytes.isSpace(p[i]) { i += 1 }
                }
                if i < end { hold(UnsafeBufferPointer(start: p + i, count: end - i)) }
                return
            }
            let j = origin.distance(to: UnsafeRawPointer(hit))
            if nothingHeld {
                var a = i
                var b = j
                while a < b && Bytes.isSpace(p[a]) { a += 1 }
                while b > a && Bytes.isSpace(p[b - 1]) { b -= 1 }
                if a < b { try emitLine(Array(UnsafeBufferPointer(start: p + a, count: b - a)), emit) }
            } else {
                hold(UnsafeBufferPointer(start: p + i, count: j - i))
                try emitPendingLine(emit)
            }
            line += 1
            i = j + 1
        }
    }

    /// Emits the carried-over line, trimmed, unless it is blank; empties `pending`.
    private mutating func emitPendingLine(_ emit: Emit) throws {
        if dropped > 0 {
            let item = tooLarge(bytes: dropped, line: line, index: mode == .arrayLines ? nextIndex : nil)
            if mode == .arrayLines { nextIndex += 1 }
            return try emit(item)
        }
        var a = 0
        var b = pending.count
        while a < b && Bytes.isSpace(pending[a]) { a += 1 }
        while b > a && Bytes.isSpace(pending[b - 1]) { b -= 1 }
        guard a < b else {
            pending.removeAll(keepingCapacity: true)
            return
        }
        let bytes: [UInt8]
        if a == 0 && b == pending.count {
            bytes = pending
            pending = []
        } else {
            bytes = Array(pending[a..<b])
            pending.removeAll(keepingCapacity: true)
        }
        try emitLine(bytes, emit)
    }

    /// Emits one trimmed, non-blank line: a record in JSON Lines; in `.arrayLines` an element, without the array's
    /// `[` before it, the `,` after it or the `]` closing the array (a line of only these is no element).
    private mutating func emitLine(_ bytes: [UInt8], _ emit: Emit) throws {
        if bytes.count > maxRecordBytes {
            let item = tooLarge(bytes: bytes.count, line: line, index: mode == .arrayLines ? nextIndex : nil)
            if mode == .arrayLines { nextIndex += 1 }
            return try emit(item)
        }
        guard mode == .arrayLines, !arrayLinesClosed else {
            try emit(.record(RawRecord(location: SourceLocation(path: path, line: line), bytes: bytes)))
            return
        }
        var a = 0
        var b = bytes.count
        if arrayOpenPending, a < b, bytes[a] == Bytes.openBracket {
            arrayOpenPending = false
            a += 1
            while a < b && Bytes.isSpace(bytes[a]) { a += 1 }
        }
        lastElementHadComma = false
        if b > a, bytes[b - 1] == Bytes.comma {
            b -= 1
            lastElementHadComma = true
        } else if b > a, bytes[b - 1] == Bytes.closeBracket, FileShape.closesBefore(bytes, from: a, to: b - 1) {
            b -= 1
            arrayLinesClosed = true
        }
        while b > a && Bytes.isSpace(bytes[b - 1]) { b -= 1 }
        guard a < b else { return }
        try emit(
            .record(
                RawRecord(
                    location: SourceLocation(path: path, line: line, index: nextIndex), bytes: Array(bytes[a..<b]))))
        nextIndex += 1
    }

    // MARK: - Concatenated values

    /// Splits top-level values one after another.
    private mutating func scanConcatenated(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ emit: Emit) throws
        -> Int
    {
        var i = start
        while i < end {
            if !inValue {
                let byte = p[i]
                if Bytes.isSpace(byte) {
                    track(byte)
                    i += 1
                    continue
                }
                beginValue(byte)
            }
            let valueStart = i
            let stop: Int
            switch scanValue(p, i, end) {
            case .incomplete:
                hold(UnsafeBufferPointer(start: p + valueStart, count: end - valueStart))
                return end
            case .cut(let next):
                try emit(.broken(cutShort(index: nil)))
                beginValue(p[next])
                i = next
                continue
            case .end(let index):
                stop = index
            }
            try emitValue(p, valueStart, stop, index: nil, emit)
            i = stop
        }
        return end
    }

    // MARK: - Top-level array

    /// Splits the elements of a top-level array; junk between elements is skipped up to the next `,` or `]` and reported.
    private mutating func scanArray(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ emit: Emit) throws -> Int {
        var i = start
        while i < end {
            switch arrayState {
            case .expectElement, .afterElement, .closed:
                let byte = p[i]
                if Bytes.isSpace(byte) {
                    track(byte)
                    i += 1
                    continue
                }
                let opensLine = atLineStart
                atLineStart = false
                if arrayState == .closed {
                    // More values after the array (a JSON Lines file whose first line is an array, say): they are
                    // read as concatenated values rather than skipped, so nothing after it is lost.
                    mode = .concatenated
                    return i
                }
                if byte == Bytes.closeBracket {
                    arrayState = .closed
                    i += 1
                } else if byte == Bytes.comma {
                    // A comma after an element, or an extra one (`[1,,2]`, `[1,]`): nothing is lost, so it is let go.
                    arrayState = .expectElement
                    i += 1
                } else if arrayState == .expectElement || (byte == Bytes.openBrace && opensLine) {
                    // A `{` opening a line after an element is a missing comma: nothing is lost, so it is let go too.
                    beginValue(byte)
                    arrayState = .inElement
                } else {
                    beginJunk()
                    arrayState = .junk
                }
            case .inElement:
                let valueStart = i
                let stop: Int
                switch scanValue(p, i, end) {
                case .incomplete:
                    hold(UnsafeBufferPointer(start: p + valueStart, count: end - valueStart))
                    return end
                case .cut(let next):
                    try emit(.broken(cutShort(index: nextIndex)))
                    nextIndex += 1
                    beginValue(p[next])
                    i = next
                    continue
                case .end(let index):
                    stop = index
                }
                try emitValue(p, valueStart, stop, index: nextIndex, emit)
                nextIndex += 1
                arrayState = .afterElement
                i = stop
            case .junk:
                guard let stop = scanJunk(p, i, end) else { return end }
                try emit(.broken(junkError(atEndOfFile: false)))
                if junkEndsAtRecord {
                    junkEndsAtRecord = false
                    beginValue(p[stop])
                    arrayState = .inElement
                } else {
                    arrayState = .afterElement
                }
                i = stop
            }
        }
        return end
    }

    /// Starts skipping junk where `,` or `]` was expected.
    private mutating func beginJunk() {
        junkLine = line
        junkIndent = indent
        junkPreview.removeAll(keepingCapacity: true)
        depth = 0
        inString = false
        escaped = false
    }

    /// Skips junk up to (not including) the next `,` or `]` outside strings and brackets, or a `{` opening a line no
    /// deeper than the junk's first line; nil if the chunk ends first.
    private mutating func scanJunk(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while i < end {
            let byte = p[i]
            if atLineStart && byte == Bytes.openBrace && indent <= junkIndent {
                // A record opening a line ends the junk, as it ends a cut-short value.
                junkEndsAtRecord = true
                return i
            }
            track(byte)
            if inString {
                if byte == Bytes.newline {
                    escaped = false
                } else if escaped {
                    escaped = false
                } else if byte == Bytes.backslash {
                    escaped = true
                } else if byte == Bytes.quote {
                    inString = false
                }
            } else {
                switch byte {
                case Bytes.quote: inString = true
                case Bytes.openBrace, Bytes.openBracket: depth += 1
                case Bytes.closeBrace: depth = max(0, depth - 1)
                case Bytes.closeBracket:
                    if depth == 0 { return i }
                    depth -= 1
                case Bytes.comma:
                    if depth == 0 { return i }
                default: break
                }
            }
            if junkPreview.count < Self.previewLength { junkPreview.append(byte) }
            i += 1
        }
        return nil
    }

    // MARK: - Lines

    /// Notes one byte scanned outside a value for the line and indentation bookkeeping.
    @inline(__always) private mutating func track(_ byte: UInt8) {
        if byte == Bytes.newline {
            line += 1
            atLineStart = true
            indent = 0
        } else if atLineStart {
            if Bytes.isBlank(byte) { indent += 1 } else { atLineStart = false }
        }
    }

    // MARK: - Values

    /// Starts a value whose first byte is `byte` at the current line.
    private mutating func beginValue(_ byte: UInt8) {
        inValue = true
        opener = byte
        isScalar = !(byte == Bytes.openBrace || byte == Bytes.openBracket || byte == Bytes.quote)
        recordLine = line
        valueIndent = indent
        atLineStart = false
        depth = 0
        inString = false
        escaped = false
        pending.removeAll(keepingCapacity: true)
        dropped = 0
    }

    /// Scans the current value from `start`: `.end` just past its last byte, `.incomplete` if the chunk ends first,
    /// or `.cut` at a `{` that opens a line indented no deeper than the value's first line (a new record; the current
    /// value was cut short or is unbalanced). Objects and arrays end when the bracket depth returns to 0, strings at
    /// their closing quote (both honouring strings and backslash escapes). A bare scalar ends before the next
    /// whitespace or structural byte inside an array, and at the end of its line at the top level, where such a line
    /// is junk rather than a record, so that it costs one reject however many words it holds.
    private mutating func scanValue(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> ValueStop {
        var i = start
        if isScalar {
            if mode != .array {
                while i < end {
                    if p[i] == Bytes.newline { return .end(i) }
                    i += 1
                }
                return .incomplete
            }
            if nothingHeld && i < end { i += 1 } // the first byte always belongs to the scalar
            while i < end {
                if Bytes.endsScalar(p[i]) { return .end(i) }
                i += 1
            }
            return .incomplete
        }
        var depth = self.depth
        var inString = self.inString
        var escaped = self.escaped
        var line = self.line
        var atLineStart = self.atLineStart
        var indent = self.indent
        var stop = ValueStop.incomplete
        scanning: while i < end {
            if inString && !escaped && !atLineStart {
                // Most of a record is string content: skip 8 bytes at a time while none can end or escape it (or
                // end the line, after which the next line's indentation is looked at).
                while i + 8 <= end && !Bytes.mayStopString(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                }
                if i == end { break scanning }
            }
            let byte = p[i]
            if atLineStart {
                if Bytes.isBlank(byte) {
                    indent += 1
                } else if byte != Bytes.newline {
                    atLineStart = false
                    if byte == Bytes.openBrace && indent <= valueIndent {
                        // Even inside a string: a raw line break never belongs to a JSON string.
                        cutLine = line
                        stop = .cut(i)
                        break scanning
                    }
                }
            }
            i += 1
            if byte == Bytes.newline {
                line += 1
                escaped = false
                atLineStart = true
                indent = 0
            } else if inString {
                if escaped {
                    escaped = false
                } else if byte == Bytes.backslash {
                    escaped = true
                } else if byte == Bytes.quote {
                    inString = false
                    if depth == 0 {
                        stop = .end(i)
                        break scanning
                    }
                }
            } else {
                switch byte {
                case Bytes.quote:
                    inString = true
                case Bytes.openBrace, Bytes.openBracket:
                    depth += 1
                case Bytes.closeBrace, Bytes.closeBracket:
                    depth -= 1
                    if depth <= 0 {
                        stop = .end(i)
                        break scanning
                    }
                default:
                    break
                }
            }
        }
        self.depth = depth
        self.inString = inString
        self.escaped = escaped
        self.line = line
        self.atLineStart = atLineStart
        self.indent = indent
        return stop
    }

    /// Emits the value made of `pending` plus `p[from..<to]` as a record.
    private mutating func emitValue(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, index: Int?, _ emit: Emit) throws
    {
        if dropped > 0 || pending.count + (to - from) > maxRecordBytes {
            inValue = false
            return try emit(tooLarge(bytes: dropped + pending.count + (to - from), line: recordLine, index: index))
        }
        let bytes: [UInt8]
        if pending.isEmpty {
            bytes = Array(UnsafeBufferPointer(start: p + from, count: to - from))
        } else {
            pending.append(contentsOf: UnsafeBufferPointer(start: p + from, count: to - from))
            bytes = pending
            pending = []
        }
        inValue = false
        try emit(
            .record(
                RawRecord(location: SourceLocation(path: path, line: recordLine, index: index), bytes: trimmed(bytes))))
    }

    /// `bytes` without trailing whitespace when they are a top-level junk line (which runs to its line end).
    private func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        guard isScalar && mode != .array, let last = bytes.lastIndex(where: { !Bytes.isSpace($0) }) else {
            return bytes
        }
        return last == bytes.count - 1 ? bytes : Array(bytes[...last])
    }

    /// At the end of the file inside a value: a scalar is complete and emitted; anything else is unterminated.
    private mutating func finishValue(index: Int?, _ emit: Emit) throws {
        inValue = false
        if dropped > 0 {
            return try emit(tooLarge(bytes: dropped, line: recordLine, index: index))
        }
        if isScalar {
            let bytes = pending
            pending = []
            try emit(
                .record(
                    RawRecord(
                        location: SourceLocation(path: path, line: recordLine, index: index), bytes: trimmed(bytes))))
        } else {
            try emit(.broken(unterminated(index: index)))
        }
    }

    // MARK: - Messages

    /// How many junk bytes a message quotes.
    private static let previewLength = 24

    /// A value still open at the end of the file.
    private func unterminated(index: Int?) -> ASNError {
        let inside: String
        if inString || opener == Bytes.quote {
            inside = "a string"
        } else if opener == Bytes.openBracket {
            inside = "an array"
        } else {
            inside = "an object"
        }
        let what = index.map { "array element \($0)" } ?? "JSON value"
        let array = index == nil ? "" : ", before the top-level array is closed"
        return ASNError(
            .malformedJSON,
            "unterminated \(what) starting at line \(recordLine): the file ends inside \(inside)\(array); "
                + "the archive may be truncated — restore a complete copy, or accept that this record is lost",
            at: SourceLocation(path: path, line: recordLine, index: index))
    }

    /// A value cut short by a `{` that opens a new record at `cutLine`.
    private func cutShort(index: Int?) -> ASNError {
        let what = index.map { "array element \($0)" } ?? "record"
        return ASNError(
            .malformedJSON,
            "unterminated \(what) at line \(recordLine): a new record starts at line \(cutLine) before it is closed; "
                + "the record is cut short or unbalanced (a missing or extra '{', '}' or '\"') — fix or drop that record, "
                + "the records after it are read",
            at: SourceLocation(path: path, line: recordLine, index: index))
    }

    /// The top-level array never closed.
    private func arrayNeverClosed() -> ASNError {
        ASNError(
            .malformedJSON,
            "the top-level array opened at line \(arrayLine) is never closed: the file ends after \(nextIndex) element(s); "
                + "the archive may be truncated — check that the file was copied completely",
            at: SourceLocation(path: path, line: line))
    }

    /// Junk where `,` or `]` was expected between elements.
    private func junkError(atEndOfFile: Bool) -> ASNError {
        var preview = junkPreview
        while let last = preview.last, Bytes.isSpace(last) || last == Bytes.newline { preview.removeLast() }
        let quoted = String(decoding: preview, as: UTF8.self).debugDescription
        let after = nextIndex == 0 ? "at the start of the array" : "after array element \(nextIndex - 1)"
        let skipped =
            atEndOfFile
            ? "the file ends there without closing the array; the archive may be truncated or damaged"
            : "the bytes up to the next ',', ']' or record were skipped and any record in them is lost"
        return ASNError(
            .malformedJSON,
            "unexpected \(quoted)\(junkPreview.count >= Self.previewLength ? "…" : "") \(after) at line \(junkLine) "
                + "(expected ',' or ']'): \(skipped); check the archive at that line",
            at: SourceLocation(path: path, line: junkLine))
    }
}

// MARK: - Bytes

/// The bytes the splitter looks at.
private enum Bytes {
    /// `\n`
    static let newline: UInt8 = 0x0A
    /// `"`
    static let quote: UInt8 = 0x22
    /// `\\`
    static let backslash: UInt8 = 0x5C
    /// `,`
    static let comma: UInt8 = 0x2C
    /// `{`
    static let openBrace: UInt8 = 0x7B
    /// `}`
    static let closeBrace: UInt8 = 0x7D
    /// `[`
    static let openBracket: UInt8 = 0x5B
    /// `]`
    static let closeBracket: UInt8 = 0x5D
    /// The UTF-8 byte order mark.
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// JSON whitespace: space, tab, carriage return, and line feed.
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        ByteTables.isJSONSpace(byte)
    }

    /// A blank that indents a line: space, tab or carriage return.
    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    /// Whether any of the 8 bytes in `word` is `"`, `\\` or `\n` (the bytes that matter inside a string).
    @inline(__always) static func mayStopString(_ word: UInt64) -> Bool {
        (ByteTables.matches(word, quote) | ByteTables.matches(word, backslash) | ByteTables.matches(word, newline)) != 0
    }

    /// Whether `byte` ends a bare scalar: whitespace or a structural byte.
    @inline(__always) static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, comma, quote, openBrace, closeBrace, openBracket, closeBracket: return true
        default: return false
        }
    }
}
