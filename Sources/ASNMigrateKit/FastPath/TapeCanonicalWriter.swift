import Foundation

/// Writes the canonical JSON of a tape value, byte for byte what `JSONWriter.canonical` writes for the parsed value
/// (secret members are already absent from the tape): no whitespace, keys sorted by UTF-8 bytes, last duplicate kept.
struct TapeCanonicalWriter {
    /// Member key indices of the objects being written, innermost last.
    private var memberStack: [Int] = []

    /// Creates a writer.
    init() {
        memberStack.reserveCapacity(256)
    }

    /// Appends the canonical bytes of the value at `index` to `out`.
    mutating func append(_ tape: JSONTape, _ index: Int, to out: inout [UInt8]) {
        let token = tape.tokens[index]
        let base = tape.base
        switch token.kind {
        case .string:
            out.append(contentsOf: UnsafeBufferPointer(start: base + token.start - 1, count: token.end - token.start + 2))
        case .escapedString:
            TapeBytes.appendEscaped(TapeBytes.unescape(base, token.start, token.end), to: &out)
        case .number, .trueLiteral, .falseLiteral, .null:
            out.append(contentsOf: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start))
        case .array:
            out.append(0x5B)
            var child = index + 1
            var first = true
            while child < token.end {
                if !first { out.append(0x2C) }
                first = false
                append(tape, child, to: &out)
                child = tape.next(after: child)
            }
            out.append(0x5D)
        case .object:
            appendObject(tape, index, to: &out)
        }
    }

    // MARK: - Private

    /// Appends an object's members sorted by key bytes, keeping the last of equal keys.
    private mutating func appendObject(_ tape: JSONTape, _ index: Int, to out: inout [UInt8]) {
        let end = tape.tokens[index].end
        let first = memberStack.count
        var key = index + 1
        while key < end {
            memberStack.append(key)
            key = tape.next(after: key + 1)
        }
        let last = memberStack.count
        // Stable insertion sort: equal keys keep document order, so the last of a run is the one to keep.
        var k = first + 1
        while k < last {
            let moving = memberStack[k]
            var j = k
            while j > first && compareKeys(tape, memberStack[j - 1], moving) > 0 {
                memberStack[j] = memberStack[j - 1]
                j -= 1
            }
            memberStack[j] = moving
            k += 1
        }
        out.append(0x7B)
        var wrote = false
        k = first
        while k < last {
            let member = memberStack[k]
            if k + 1 < last && compareKeys(tape, member, memberStack[k + 1]) == 0 {
                k += 1
                continue
            }
            if wrote { out.append(0x2C) }
            wrote = true
            let keyToken = tape.tokens[member]
            out.append(contentsOf: UnsafeBufferPointer(start: tape.base + keyToken.start - 1, count: keyToken.end - keyToken.start + 2))
            out.append(0x3A)
            append(tape, member + 1, to: &out)
            k += 1
        }
        out.append(0x7D)
        memberStack.removeSubrange(first...)
    }

    /// Compares the raw bytes of two key tokens (keys never have escapes on a tape): negative, zero or positive.
    @inline(__always)
    private func compareKeys(_ tape: JSONTape, _ a: Int, _ b: Int) -> Int {
        let x = tape.tokens[a]
        let y = tape.tokens[b]
        let lx = x.end - x.start
        let ly = y.end - y.start
        let common = memcmp(tape.base + x.start, tape.base + y.start, min(lx, ly))
        if common != 0 { return Int(common) }
        return lx - ly
    }
}
