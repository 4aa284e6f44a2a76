import Foundation

/// The fast path's lookup of raw key bytes, built from `V1Key.allCases` (the one list of V1 keys): each key has two
/// slots, its base name and its `_ms` form, so a key added to `V1Key` is found here without another change.
enum V1Keys {
    /// Key bytes → slot, looked up by length first.
    struct Table: Sendable {
        /// Candidates by key length.
        private var byLength: [[(bytes: [UInt8], slot: Int)]]

        /// A table of `keys` (name, slot).
        init(_ keys: [(String, Int)]) {
            let longest = keys.map { $0.0.utf8.count }.max() ?? 0
            byLength = Array(repeating: [], count: longest + 1)
            for (key, slot) in keys { byLength[key.utf8.count].append((Array(key.utf8), slot)) }
        }

        /// The slot of the `length` key bytes at `start`, if known.
        @inline(__always)
        func lookup(_ start: UnsafePointer<UInt8>, _ length: Int) -> Int? {
            guard length < byLength.count else { return nil }
            for candidate in byLength[length] {
                let same = candidate.bytes.withUnsafeBufferPointer { b in
                    guard let p = b.baseAddress else { return false }
                    return memcmp(p, start, length) == 0
                }
                if same { return candidate.slot }
            }
            return nil
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
    static let table = Table(V1Key.allCases.flatMap { key in [(key.name, slot(key)), (key.millisecondsName, millisecondsSlot(key))] })
}
