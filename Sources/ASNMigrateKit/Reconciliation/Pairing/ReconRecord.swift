/// One V1 or V2 record as `reconcile` keeps it: compact, interned, everything matching and reporting need.
///
/// 216 bytes: the flags follow `uuid` so they fill its padding (a million records each side make every 8 bytes 16 MB).
struct ReconRecord: Sendable {
    /// "Production" / "Sandbox" (token).
    var environment: StringPool.Token = 0
    /// originalTransactionId (token; 0 when the record has none).
    var key: StringPool.Token = 0
    /// V2 notificationType (V1: the expected one).
    var type: StringPool.Token = 0
    /// V2 subtype (V1: the expected one).
    var subtype: StringPool.Token = 0
    /// V1 notification_type (V1 records only).
    var v1Type: StringPool.Token = 0
    /// Mapping rule id (V1 records only).
    var rule: StringPool.Token = 0
    /// Event time (V1) or signedDate (V2), ms; `FieldValues.noDate` when unknown.
    var time: Int64 = FieldValues.noDate
    /// Input file (token).
    var source: StringPool.Token = 0
    /// 1-based line of the record, -1 when unknown.
    var line: Int32 = -1
    /// 0-based index in a top-level array, -1 when unknown.
    var index: Int32 = -1
    /// notificationUUID (token).
    var uuid: PackedUUID = .none
    /// V1: the event time is only inferred.
    var inferred = false
    /// V1: no rule maps the record.
    var unmapped = false
    /// The transaction is FAMILY_SHARED.
    var familyShared = false
    /// The compared values.
    var fields: FieldValues

    /// Whether the record has an event time.
    var hasTime: Bool { time != FieldValues.noDate }

    /// `path:line` (or `path[index]`).
    func sourceText(_ pool: StringPool) -> String {
        let path = pool.string(source)
        if line >= 0 { return "\(path):\(line)" }
        if index >= 0 { return "\(path)[\(index)]" }
        return path
    }
}
