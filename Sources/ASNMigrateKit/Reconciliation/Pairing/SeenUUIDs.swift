/// The notificationUUIDs seen so far, each with a value (a V2 record's content fingerprint): standard UUIDs keyed by
/// their 16 bytes, the others by their pool token. A `PackedUUID` key is 17 bytes, 24 with its padding; kept apart,
/// a million records a side take about 30 MB less at the run's peak.
struct SeenUUIDs<Value>: Sendable where Value: Sendable {
    /// A standard UUID's two halves.
    private struct Bits: Hashable, Sendable {
        /// High 64 bits.
        let hi: UInt64
        /// Low 64 bits.
        let lo: UInt64
    }

    /// Standard UUIDs.
    private var standard: [Bits: Value] = [:]
    /// Other ids, by pool token.
    private var texts: [StringPool.Token: Value] = [:]

    /// An empty table.
    init() {}

    /// The value of `uuid` when it was seen before; else nil, and `uuid` is now seen with `value`.
    mutating func insert(_ uuid: PackedUUID, _ value: Value) -> Value? {
        if uuid.isText {
            if let first = texts[uuid.lo] { return first }
            texts[uuid.lo] = value
        } else {
            let bits = Bits(hi: uuid.hi, lo: uuid.lo)
            if let first = standard[bits] { return first }
            standard[bits] = value
        }
        return nil
    }
}
