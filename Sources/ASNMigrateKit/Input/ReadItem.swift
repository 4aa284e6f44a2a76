/// What the splitting thread of `OrderedBatchRun` hands to workers: split items, or an error that ends the run there.
enum ReadItem: Sendable {
    /// A record or broken item (the rest of an unreadable file arrives as one broken item).
    case item(InputItem)
    /// A failure to pass on in order.
    case failure(any Error)
}
