import Foundation

/// The fast path's lookup of raw key bytes, built from `V1Key.allCases` (the one list of V1 keys): each key has two
/// slots, its base name and its `_ms` form, so a key added to `V1Key` is found here without another change.
enum V1Keys {
    /// Key bytes → slot: the keys' bytes in one buffer, grouped by length, checked by first and last byte before
    /// an inline comparison.
    struct Table: Sendable {
        /// One known key.
        private struct Entry: Sendable {
            /// Where its bytes start in `bytes`.
            var offset: Int
            /// Its first byte.
            var first: UInt8
            /// Its last byte.
            var last: UInt8
            /// Its slot.
            var slot: Int
        }

        /// Every key's bytes, one after another.
        private let bytes: [UInt8]
        /// The entries, sorted by key length.
        private let entries: [Entry]
        /// For each length, the range of `entries` of that length (`starts[n]..<starts[n + 1]`).
        private let starts: [Int]

        /// A table of `keys` (name, slot).
        init(_ keys: [(String, Int)]) {
            let sorted = keys.enumerated().sorted {
                ($0.element.0.utf8.count, $0.offset) < ($1.element.0.utf8.count, $1.offset)
            }.map(\.element)
            let longest = sorted.last.map { $0.0.utf8.count } ?? 0
            var bytes: [UInt8] = []
            var entries: [Entry] = []
            var starts = Array(repeating: 0, count: longest + 2)
            for (key, slot) in sorted {
                let utf8 = Array(key.utf8)
                entries.append(Entry(offset: bytes.count, first: utf8.first ?? 0, last: utf8.last ?? 0, slot: slot))
                bytes += utf8
                starts[utf8.count + 1] = entries.count
            }
            for n in 1..<starts.count where starts[n] < starts[n - 1] { starts[n] = starts[n - 1] }
            self.bytes = bytes
            self.entries = entries
            self.starts = starts
        }

        /// The slot of the `length` key bytes at `start`, if known.
        @inline(__always)
        func lookup(_ start: UnsafePointer<UInt8>, _ length: Int) -> Int? {
            guard length > 0, length &+ 1 < starts.count else { return nil }
            let first = start[0]
            let last = start[length &- 1]
            let from = starts[length]
            let to = starts[length &+ 1]
            return bytes.withUnsafeBufferPointer { buffer -> Int? in
                entries.withUnsafeBufferPointer { entries -> Int? in
                    guard let base = buffer.baseAddress else { return nil }
                    for k in from..<to {
                        let entry = entries[k]
                        if entry.first == first, entry.last == last,
                            ByteTables.equal(base + entry.offset, start, length)
                        {
                            return entry.slot
                        }
                    }
                    return nil
                }
            }
        }
    }

    /// Slots per object: two per key.
    static let slotCount = V1Key.allCases.count * 2

    /// The slot of a key's base name.
    @inline(__always)
    static func slot(_ key: V1Key) -> Int { key.rawValue &* 2 }

    /// The slot of a key's `_ms` form.
    @inline(__always)
    static func millisecondsSlot(_ key: V1Key) -> Int { key.rawValue &* 2 &+ 1 }

    /// Every key's base name and `_ms` form.
    static let table = Table(
        V1Key.allCases.flatMap { key in [(key.name, slot(key)), (key.millisecondsName, millisecondsSlot(key))] })
}
