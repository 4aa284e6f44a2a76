/// A V2 record kept inside a team's envelope, as webhook and API archives often are: `{"received_at": …, "body":
/// {"signedPayload": …}}`, `{"fetchedAt": …, "response": {Get All Subscription Statuses response}}`.
///
/// The body sits under one of `Envelope.bodyKeys` (the V1 reader's list) or `response`, as an object, a JSON string
/// holding one, or a JWS string; envelopes may nest up to `maximumDepth` deep. An envelope's time (`fetchTimeKeys`:
/// epoch seconds or milliseconds, or ISO 8601) is the fetch time of a statuses response that has none of its own.
package enum V2Envelope {
    /// The keys an envelope keeps its body under: the V1 reader's body keys, and `response` for stored API responses.
    package static let bodyKeys = Envelope.bodyKeys + ["response"]
    /// The keys of the time an API response was fetched, on the response itself or on its envelope.
    package static let fetchTimeKeys = ["fetchedAt", "fetched_at"] + Envelope.receiveTimeKeys
    /// How many envelopes may wrap one record.
    package static let maximumDepth = 3

    /// The body of `object` if it is an envelope (a body key holding an object or a string), with the key it sat
    /// under; nil when `object` has no such key.
    package static func body(of object: JSONObject, parser: JSONParser) -> (key: String, value: JSONValue)? {
        for key in bodyKeys {
            switch object[key] {
            case .object(let inner)?:
                return (key, .object(inner))
            case .string(let text)?:
                // An escaped JSON body, or a bare JWS (decoded as one by the caller).
                if let parsed = try? parser.parse(Array(text.utf8)), case .object = parsed { return (key, parsed) }
                return (key, .string(text))
            default:
                continue
            }
        }
        return nil
    }

    /// The fetch time `object` names (epoch seconds or milliseconds, or ISO 8601) and the key it sits under; nil
    /// when it names none or the value is not a time.
    package static func fetchTime(of object: JSONObject) -> (key: String, ms: Int64)? {
        for key in fetchTimeKeys {
            switch object[key] {
            case .number(let text)?:
                if let ms = Timestamp.parseEpoch(text) { return (key, ms) }
            case .string(let text)?:
                if let ms = Timestamp.parseEpoch(text) ?? Timestamp.parseAny(text) { return (key, ms) }
            default:
                continue
            }
        }
        return nil
    }
}
