/// What the fast V2 decoder (`V2RecordDecoder.tapeObserve`) shows of a notification as it walks its tapes: each
/// object it reaches, in order (the payload's own members and its `migration`, `data`, the transaction info, the
/// renewal info), for a reader that takes its values straight from the bytes (`reconcile`'s `V2FactsPacker`).
/// One observer serves one thread; a class, so the walk passes it without copying.
protocol V2TapeObserver: AnyObject {
    /// Whether the walk writes the record's content for its fingerprint.
    var writesContent: Bool { get }
    /// The payload's own members; false declines the record.
    func notification(_ object: TapeV2Object) -> Bool
    /// The `migration` object; false declines the record.
    func migration(_ object: TapeV2Object) -> Bool
    /// `data`'s members.
    func data(_ object: TapeV2Object)
    /// The transaction info's members.
    func transaction(_ object: TapeV2Object)
    /// The renewal info's members.
    func renewal(_ object: TapeV2Object)
}
