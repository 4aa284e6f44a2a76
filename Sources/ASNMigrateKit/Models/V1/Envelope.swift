/// Unwraps an archived record into the V1 body and the envelope's receive time.
///
/// A raw body has `notification_type` at its top. Otherwise the body sits under `body`, `payload`,
/// `notification` or `data`, as an object or a JSON string holding one (log pipelines store it escaped).
package enum Envelope {
    /// Keys under which archives nest the body, tried in this order.
    package static let bodyKeys = ["body", "payload", "notification", "data"]
    /// Keys that carry the time the archive received the notification, tried in this order.
    package static let receiveTimeKeys = ["received_at", "receivedAt", "timestamp", "time"]
    /// Keys never kept from a V1 body: the app's shared secret and receipt blobs.
    package static let secretKeys: Set<String> = ["password", "latest_receipt", "latest_expired_receipt"]

    /// An unwrapped record.
    package struct Unwrapped: Sendable, Equatable {
        /// The V1 body object.
        package var body: JSONObject
        /// The envelope's receive time in epoch ms, if it had one.
        package var receivedAt: Int64?
    }

    /// Unwraps `value`, parsing string-held bodies with `parser`; throws a reject-worthy ASNError.
    package static func unwrap(_ value: JSONValue, parser: JSONParser, location: SourceLocation) throws(ASNError)
        -> Unwrapped
    {
        guard case .object(let top) = value else {
            throw ASNError(
                .notAnObject,
                "record is \(V1FieldReader.describe(value)), not a JSON object; each record must be one V1 notification body or an envelope holding one",
                at: location)
        }
        return try unwrap(top, parser: parser, location: location, depth: 0, receivedAt: nil)
    }

    // MARK: - Private

    private static func unwrap(
        _ object: JSONObject, parser: JSONParser, location: SourceLocation, depth: Int, receivedAt outer: Int64?
    ) throws(ASNError) -> Unwrapped {
        if object[V1Key.notificationType.name] != nil {
            return Unwrapped(body: object, receivedAt: outer)
        }
        var receivedAt = outer
        if receivedAt == nil { receivedAt = try receiveTime(object, location: location) }
        if depth < 3 {
            for key in bodyKeys {
                guard let inner = object[key] else { continue }
                switch inner {
                case .object(let o):
                    return try unwrap(o, parser: parser, location: location, depth: depth + 1, receivedAt: receivedAt)
                case .string(let text):
                    let parsed: JSONValue
                    do {
                        parsed = try parser.parse(Array(text.utf8))
                    } catch {
                        throw ASNError(
                            .malformedJSON, "envelope key '\(key)' holds a string that is not valid JSON",
                            at: location.with(key: key), cause: error.message)
                    }
                    guard case .object(let o) = parsed else {
                        throw ASNError(
                            .notAnObject,
                            "envelope key '\(key)' holds \(V1FieldReader.describe(parsed)), not a JSON object",
                            at: location.with(key: key))
                    }
                    return try unwrap(o, parser: parser, location: location, depth: depth + 1, receivedAt: receivedAt)
                default:
                    continue
                }
            }
        }
        throw ASNError(
            .missingNotificationType,
            "no '\(V1Key.notificationType.name)' at the top of the record nor under \(bodyKeys.map { "'\($0)'" }.joined(separator: ", ")); is this a V1 notification archive?",
            at: location.with(key: V1Key.notificationType.name)
        )
    }

    private static func receiveTime(_ object: JSONObject, location: SourceLocation) throws(ASNError) -> Int64? {
        for key in receiveTimeKeys {
            guard let value = object[key] else { continue }
            switch value {
            case .number(let n):
                if let ms = Timestamp.parseEpoch(n) { return ms }
            case .string(let s):
                if let ms = Timestamp.parseEpoch(s) ?? Timestamp.parseISO8601(s) { return ms }
            case .null:
                continue
            default:
                break
            }
            throw ASNError(
                .wrongFieldType,
                "envelope '\(key)' should be a receive time (ms or seconds since 1970, or ISO 8601) but is \(V1FieldReader.describe(value))",
                at: location.with(key: key))
        }
        return nil
    }
}
