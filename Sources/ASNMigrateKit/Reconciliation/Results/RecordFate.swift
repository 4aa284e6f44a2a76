/// What became of one V1 or V2 record in a reconciliation; `open` until pairing and the period rule decide.
enum RecordFate: UInt8, Sendable {
    /// Not decided yet.
    case open
    /// Not judged: outside the period (or paired with a record that is).
    case outOfPeriod
    /// V1 only: no mapping rule covers it (an `unmapped_v1` row).
    case unmapped
    /// V1 only: a DID_CHANGE_RENEWAL_STATUS beside an INTERACTIVE_RENEWAL or CANCEL that found no partner of its own.
    case companion
    /// Paired with a record of the same type and subtype.
    case matched
    /// Paired with a record of the same subscription but another type (a `type_mismatch` row).
    case typeMismatch
    /// Unpaired, and the other side's data covers where its partner would be (`missing_in_v1` / `missing_in_v2`).
    case missing
    /// Unpaired, but its partner could lie beyond the other side's data (`pending_in_v1` / `pending_in_v2`).
    case pending
    /// V2 only: a record V1 never had a counterpart for, by the mapping table.
    case v2OnlyExpected
}
