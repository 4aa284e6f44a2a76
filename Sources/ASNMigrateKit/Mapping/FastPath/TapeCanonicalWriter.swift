import Foundation

/// Writes the canonical JSON of a tape value, byte for byte what `JSONWriter.canonical` writes for the parsed value
/// (secret members are already absent from the tape): no whitespace, keys sorted by UTF-8 bytes, last duplicate kept.
///
/// It writes either into a buffer of the source's size (the canonical form is never longer than the source bytes:
/// whitespace and duplicates dropped, every escape written at most as long as it was read), or through a small chunk
/// straight into SHA-1 (`digest`), so the notificationUUID's name is hashed without the canonical text ever being
/// held whole. Objects with the same keys in the same order as one sorted before (the transactions of a receipt, and
/// the body, receipt and renewal entries of later records) reuse its sorted order instead of sorting again; a writer
/// kept across records reuses its buffers and these orders too.
struct TapeCanonicalWriter {
    /// Member key indices of the objects being written, innermost last.
    private var memberStack: [Int] = []
    /// The keys and output orders of the last objects sorted, most recent first in `recent`.
    private var cache: [SortedKeys] = []
    /// How many keys each cache entry has: looked at first, so most entries are passed over without being read.
    private var cacheCounts: [Int] = []
    /// The cache entry hit or filled last.
    private var recent = 0
    /// The cache entry the next sort replaces, once the cache is full.
    private var victim = 0
    /// How many key lists the cache keeps: simulated archives have about 30 (a body's keys differ by type).
    private static let cacheSize = 48
    /// Objects with more members are sorted in O(n log n); smaller ones (every real notification's) by insertion,
    /// the fastest there. Above it the insertion sort's n² compares made a 200,000-key object cost a minute.
    static let insertionSortLimit = 32
    /// The key prefixes of the object being sorted, by ordinal.
    private var prefixes: [UInt64] = []
    /// The ordinals being sorted.
    private var ordinals: [Int] = []
    /// The output cursor.
    private var out: UnsafeMutablePointer<UInt8>
    /// Where the output (or the chunk) begins.
    private let start: UnsafeMutablePointer<UInt8>
    /// The chunk's size when hashing; `Int.max` when writing into a buffer.
    private let capacity: Int
    /// Bytes left in the chunk before it goes to `hasher`.
    private var room: Int
    /// The running digest when hashing.
    private var hasher = SHA1()

    /// Creates a writer into `buffer`, which must have room for the source bytes of the value written.
    init(into buffer: UnsafeMutablePointer<UInt8>) {
        out = buffer
        start = buffer
        capacity = .max
        room = .max
        memberStack.reserveCapacity(256)
    }

    /// Creates a writer that hashes through the `capacity` bytes at `chunk` (`digest`); the chunk must outlive it.
    init(chunk: UnsafeMutablePointer<UInt8>, capacity: Int) {
        out = chunk
        start = chunk
        self.capacity = max(1, capacity)
        room = self.capacity
        memberStack.reserveCapacity(256)
    }

    /// How many bytes were written (into a buffer).
    var written: Int { out - start }

    /// Writes the SHA-1 of `prefix` followed by the canonical bytes of the value at `index` to the 20 bytes at
    /// `digest`, streaming the canonical bytes through the chunk (a writer made with `init(chunk:capacity:)`).
    mutating func digest(
        prefix: UnsafeRawBufferPointer, _ tape: JSONTape, _ index: Int, into digest: UnsafeMutablePointer<UInt8>
    ) {
        hasher = SHA1()
        hasher.update(prefix)
        out = start
        room = capacity
        write(tape, index)
        flush()
        hasher.finalize(into: digest)
    }

    /// Writes the canonical bytes of the value at `index`.
    mutating func write(_ tape: JSONTape, _ index: Int) {
        tape.tokens.withUnsafeBufferPointer { tokens in
            guard let first = tokens.baseAddress else { return }
            write(TapeTokens(token: first, base: tape.base), index)
        }
    }

    // MARK: - Private

    /// Writes the canonical bytes of the value at `index`, reading the tape's tokens through a pointer.
    private mutating func write(_ tape: TapeTokens, _ index: Int) {
        let token = tape.token[index]
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

    /// Appends one byte.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        if room == 0 { flush() }
        out.pointee = byte
        out += 1
        room &-= 1
    }

    /// Appends `count` bytes.
    @inline(__always)
    private mutating func copy(_ source: UnsafePointer<UInt8>, _ count: Int) {
        if count > room {
            flush()
            if count > capacity {
                hasher.update(UnsafeRawPointer(source), count: count)
                return
            }
        }
        ByteTables.copy(source, to: out, count)
        out += count
        room &-= count
    }

    /// Hands the chunk's bytes to the hasher and starts it again (hashing only).
    private mutating func flush() {
        hasher.update(UnsafeRawPointer(start), count: out - start)
        out = start
        room = capacity
    }

    /// Writes an object's members sorted by key bytes, keeping the last of equal keys.
    private mutating func writeObject(_ tape: TapeTokens, _ index: Int) {
        let end = tape.token[index].end
        let first = memberStack.count
        var key = index + 1
        while key < end {
            memberStack.append(key)
            key = tape.next(after: key + 1)
        }
        let count = memberStack.count - first
        let sorted = cachedEntry(tape, first, count) ?? sortIntoCache(tape, first, count)
        // Held by value, not copied: a nested object sorting into this entry while it is written gets new storage.
        let order = cache[sorted].order
        put(0x7B)
        order.withUnsafeBufferPointer { order in
            for n in order.indices {
                if n > 0 { put(0x2C) }
                let member = memberStack[first &+ order[n]]
                let keyToken = tape.token[member]
                copy(tape.base + keyToken.start - 1, keyToken.end - keyToken.start + 2)
                put(0x3A)
                write(tape, member + 1)
            }
        }
        put(0x7D)
        memberStack.removeSubrange(first...)
    }

    /// The cache entry whose keys are the object's, in the same order, if any (the one hit last tried first).
    private mutating func cachedEntry(_ tape: TapeTokens, _ first: Int, _ count: Int) -> Int? {
        if recent < cache.count, cacheCounts[recent] == count, cache[recent].holds(tape, memberStack, first, count) {
            return recent
        }
        for k in cacheCounts.indices where cacheCounts[k] == count && k != recent {
            guard cache[k].holds(tape, memberStack, first, count) else { continue }
            recent = k
            return k
        }
        return nil
    }

    /// Sorts the object's members and keeps their output order (last of equal keys kept) with their keys in a cache
    /// entry; returns the entry.
    private mutating func sortIntoCache(_ tape: TapeTokens, _ first: Int, _ count: Int) -> Int {
        // Each key's first eight bytes as a big-endian number order keys as their bytes do, up to ties.
        prefixes.removeAll(keepingCapacity: true)
        for k in 0..<count { prefixes.append(prefix(tape, memberStack[first + k])) }
        ordinals.removeAll(keepingCapacity: true)
        ordinals.append(contentsOf: 0..<count)
        if count <= Self.insertionSortLimit {
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
        } else {
            // A large object: O(n log n), equal keys ordered by ordinal (document order), as the insertion sort does.
            var sorted = ordinals
            ordinals = []
            sorted.sort { a, b in
                let order = keyOrder(tape, first, a, b)
                return order != 0 ? order < 0 : a < b
            }
            ordinals = sorted
        }
        let entry: Int
        if cache.count < Self.cacheSize {
            entry = cache.count
            cache.append(SortedKeys())
            cacheCounts.append(0)
        } else {
            entry = victim
            victim = (victim + 1) % Self.cacheSize
        }
        recent = entry
        cache[entry].order.removeAll(keepingCapacity: true)
        for n in 0..<count {
            let ordinal = ordinals[n]
            if n + 1 < count && keyOrder(tape, first, ordinal, ordinals[n + 1]) == 0 { continue }
            cache[entry].order.append(ordinal)
        }
        cache[entry].keep(tape, memberStack, first, count)
        cacheCounts[entry] = count
        return entry
    }

    /// Compares the keys of members `a` and `b` (ordinals) of the object being sorted: by prefix, then all bytes.
    @inline(__always)
    private func keyOrder(_ tape: TapeTokens, _ first: Int, _ a: Int, _ b: Int) -> Int {
        let pa = prefixes[a]
        let pb = prefixes[b]
        if pa != pb { return pa < pb ? -1 : 1 }
        return compareKeys(tape, memberStack[first + a], memberStack[first + b])
    }

    /// The first eight bytes of a key token, big-endian, zero-padded (reads only the key's own bytes).
    @inline(__always)
    private func prefix(_ tape: TapeTokens, _ key: Int) -> UInt64 {
        let token = tape.token[key]
        let length = token.end - token.start
        let p = tape.base + token.start
        if length >= 8 { return UInt64(bigEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) }
        var value: UInt64 = 0
        for k in 0..<length { value |= UInt64(p[k]) << UInt64(56 - 8 * k) }
        return value
    }

    /// Compares the raw bytes of two key tokens (keys never have escapes on a tape): negative, zero or positive.
    @inline(__always)
    private func compareKeys(_ tape: TapeTokens, _ a: Int, _ b: Int) -> Int {
        let x = tape.token[a]
        let y = tape.token[b]
        return ByteTables.compare(tape.base + x.start, x.end - x.start, tape.base + y.start, y.end - y.start)
    }
}

/// One object's keys, as bytes, and the order its members are written in: a cache entry of `TapeCanonicalWriter`.
private struct SortedKeys {
    /// Each key's length.
    var lengths: [Int] = []
    /// The keys' bytes, one after another.
    var bytes: [UInt8] = []
    /// The members to write, as ordinals in document order, in output order.
    var order: [Int] = []

    /// Whether the `count` keys at `members[first...]` are these keys, in this order.
    func holds(_ tape: TapeTokens, _ members: [Int], _ first: Int, _ count: Int) -> Bool {
        guard count == lengths.count else { return false }
        return bytes.withUnsafeBufferPointer { kept -> Bool in
            // Empty keys have no bytes to point at; any pointer serves to compare zero bytes.
            let p = kept.baseAddress ?? tape.base
            var offset = 0
            for k in 0..<count {
                let token = tape.token[members[first + k]]
                let length = token.end - token.start
                guard length == lengths[k], ByteTables.equal(p + offset, tape.base + token.start, length) else {
                    return false
                }
                offset += length
            }
            return true
        }
    }

    /// Keeps the `count` keys at `members[first...]`.
    mutating func keep(_ tape: TapeTokens, _ members: [Int], _ first: Int, _ count: Int) {
        lengths.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        for k in 0..<count {
            let token = tape.token[members[first + k]]
            lengths.append(token.end - token.start)
            bytes.append(
                contentsOf: UnsafeBufferPointer(start: tape.base + token.start, count: token.end - token.start))
        }
    }
}

/// A tape's tokens through a pointer (valid while the tape is being written), and the bytes they point into.
private struct TapeTokens {
    /// The first token.
    let token: UnsafePointer<JSONTape.Token>
    /// The bytes.
    let base: UnsafePointer<UInt8>

    /// The index of the token after the value at `index` (its descendants skipped), as `JSONTape.next(after:)`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let t = token[index]
        switch t.kind {
        case .object, .array: return t.end
        default: return index &+ 1
        }
    }
}
