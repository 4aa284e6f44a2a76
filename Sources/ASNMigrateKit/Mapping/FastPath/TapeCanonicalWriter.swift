import Foundation

/// Writes the canonical JSON of a tape value, byte for byte what `JSONWriter.canonical` writes for the parsed value
/// (secret members are already absent from the tape): no whitespace, keys sorted by UTF-8 bytes, last duplicate kept.
///
/// The canonical form is never longer than the source bytes (whitespace and duplicates dropped, every escape written
/// at most as long as it was read), so it is written through a raw pointer into a buffer of the source's size.
/// Objects with the same keys in the same order as the previous object (the transactions of a receipt) reuse its
/// sorted order instead of sorting again.
struct TapeCanonicalWriter {
    /// Member key indices of the objects being written, innermost last.
    private var memberStack: [Int] = []
    /// The key token indices of the last object sorted.
    private var cachedKeys: [Int] = []
    /// The members of the last object sorted to write, as ordinals in document order, in output order.
    private var cachedOrder: [Int] = []
    /// The key prefixes of the object being sorted, by ordinal.
    private var prefixes: [UInt64] = []
    /// The output cursor.
    private var out: UnsafeMutablePointer<UInt8>
    /// Where the output began.
    private let start: UnsafeMutablePointer<UInt8>

    /// Creates a writer into `buffer`, which must have room for the source bytes of the value written.
    init(into buffer: UnsafeMutablePointer<UInt8>) {
        out = buffer
        start = buffer
        memberStack.reserveCapacity(256)
    }

    /// How many bytes were written.
    var written: Int { out - start }

    /// Writes the canonical bytes of the value at `index`.
    mutating func write(_ tape: JSONTape, _ index: Int) {
        let token = tape.tokens[index]
        let base = tape.base
        switch token.kind {
        case .string:
            copy(base + token.start - 1, token.end - token.start + 2)
        case .escapedString:
            var escaped: [UInt8] = []
            TapeBytes.appendEscaped(TapeBytes.unescape(base, token.start, token.end), to: &escaped)
            escaped.withUnsafeBufferPointer { if let p = $0.baseAddress { copy(p, $0.count) } }
        case .number, .trueLiteral, .falseLiteral, .null:
            copy(base + token.start, token.end - token.start)
        case .array:
            put(0x5B)
            var child = index + 1
            var first = true
            while child < token.end {
                if !first { put(0x2C) }
                first = false
                write(tape, child)
                child = tape.next(after: child)
            }
            put(0x5D)
        case .object:
            writeObject(tape, index)
        }
    }

    // MARK: - Private

    /// Appends one byte.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        out.pointee = byte
        out += 1
    }

    /// Appends `count` bytes.
    @inline(__always)
    private mutating func copy(_ source: UnsafePointer<UInt8>, _ count: Int) {
        ByteTables.copy(source, to: out, count)
        out += count
    }

    /// Writes an object's members sorted by key bytes, keeping the last of equal keys.
    private mutating func writeObject(_ tape: JSONTape, _ index: Int) {
        let end = tape.tokens[index].end
        let first = memberStack.count
        var key = index + 1
        while key < end {
            memberStack.append(key)
            key = tape.next(after: key + 1)
        }
        let count = memberStack.count - first
        if !sameKeysAsCached(tape, first, count) {
            sortIntoCache(tape, first, count)
        }
        let order = cachedOrder
        put(0x7B)
        for (n, ordinal) in order.enumerated() {
            if n > 0 { put(0x2C) }
            let member = memberStack[first + ordinal]
            let keyToken = tape.tokens[member]
            copy(tape.base + keyToken.start - 1, keyToken.end - keyToken.start + 2)
            put(0x3A)
            write(tape, member + 1)
        }
        put(0x7D)
        memberStack.removeSubrange(first...)
    }

    /// Whether the object's keys are those of the last sorted object, in the same order.
    private func sameKeysAsCached(_ tape: JSONTape, _ first: Int, _ count: Int) -> Bool {
        guard count == cachedKeys.count else { return false }
        for k in 0..<count {
            let a = tape.tokens[memberStack[first + k]]
            let b = tape.tokens[cachedKeys[k]]
            let length = a.end - a.start
            guard length == b.end - b.start, ByteTables.equal(tape.base + a.start, tape.base + b.start, length) else {
                return false
            }
        }
        return true
    }

    /// Sorts the object's members and records their output order (last of equal keys kept) and keys in the cache.
    private mutating func sortIntoCache(_ tape: JSONTape, _ first: Int, _ count: Int) {
        // Each key's first eight bytes as a big-endian number order keys as their bytes do, up to ties.
        prefixes.removeAll(keepingCapacity: true)
        for k in 0..<count { prefixes.append(prefix(tape, memberStack[first + k])) }
        var ordinals = Array(0..<count)
        // Stable insertion sort: equal keys keep document order, so the last of a run is the one to keep.
        var k = 1
        while k < count {
            let moving = ordinals[k]
            var j = k
            while j > 0 && keyOrder(tape, first, ordinals[j - 1], moving) > 0 {
                ordinals[j] = ordinals[j - 1]
                j -= 1
            }
            ordinals[j] = moving
            k += 1
        }
        cachedOrder.removeAll(keepingCapacity: true)
        for (n, ordinal) in ordinals.enumerated() {
            if n + 1 < count && keyOrder(tape, first, ordinal, ordinals[n + 1]) == 0 { continue }
            cachedOrder.append(ordinal)
        }
        cachedKeys = Array(memberStack[first..<(first + count)])
    }

    /// Compares the keys of members `a` and `b` (ordinals) of the object being sorted: by prefix, then all bytes.
    @inline(__always)
    private func keyOrder(_ tape: JSONTape, _ first: Int, _ a: Int, _ b: Int) -> Int {
        let pa = prefixes[a]
        let pb = prefixes[b]
        if pa != pb { return pa < pb ? -1 : 1 }
        return compareKeys(tape, memberStack[first + a], memberStack[first + b])
    }

    /// The first eight bytes of a key token, big-endian, zero-padded (reads only the key's own bytes).
    @inline(__always)
    private func prefix(_ tape: JSONTape, _ key: Int) -> UInt64 {
        let token = tape.tokens[key]
        let length = token.end - token.start
        let p = tape.base + token.start
        if length >= 8 { return UInt64(bigEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) }
        var value: UInt64 = 0
        for k in 0..<length { value |= UInt64(p[k]) << UInt64(56 - 8 * k) }
        return value
    }

    /// Compares the raw bytes of two key tokens (keys never have escapes on a tape): negative, zero or positive.
    @inline(__always)
    private func compareKeys(_ tape: JSONTape, _ a: Int, _ b: Int) -> Int {
        let x = tape.tokens[a]
        let y = tape.tokens[b]
        return ByteTables.compare(tape.base + x.start, x.end - x.start, tape.base + y.start, y.end - y.start)
    }
}
