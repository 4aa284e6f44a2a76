import Foundation

/// Objects kept for reuse across a run's records or batches: a worker takes one, uses it alone, and gives it back, so
/// the buffers it grows are made once a run rather than once a record. Used by the fast paths' migrators and
/// canonical digesters.
final class ReusePool<Item: AnyObject>: @unchecked Sendable {
    // Unchecked: `idle` is only read or changed while `lock` is held, and an item is used by one thread at a time.
    /// Makes a new item when none is idle.
    private let make: @Sendable () -> Item
    /// Readies an item given back for the next taker (trims what one huge record grew).
    private let reset: @Sendable (Item) -> Void
    /// Guards `idle`.
    private let lock = NSLock()
    /// Items not in use.
    private var idle: [Item] = []

    /// An empty pool making items with `make` and readying returned ones with `reset`.
    init(make: @escaping @Sendable () -> Item, reset: @escaping @Sendable (Item) -> Void = { _ in }) {
        self.make = make
        self.reset = reset
    }

    /// An idle item, or a new one.
    func take() -> Item {
        lock.lock()
        let item = idle.popLast()
        lock.unlock()
        return item ?? make()
    }

    /// Gives an item back, readied by `reset`.
    func give(_ item: Item) {
        reset(item)
        lock.lock()
        defer { lock.unlock() }
        idle.append(item)
    }
}
