import Foundation

/// Reads a V1 record from a tape exactly as `Envelope.unwrap` and `ResponseBodyV1.init` read the parsed value, for
/// the common shapes only: the body is decoded by `ResponseBodyV1`'s own generic decoding over a `TapeFieldSource`;
/// anything the reference would reject, and anything unusual (escaped strings in fields the mapping reads,
/// string-held bodies, booleans in unusual spellings), throws `FastPathDeclined` so the caller falls back to the
/// reference path, which then gives the exact outcome and message.
struct TapeV1Decoder {
    /// The record found on the tape.
    struct Decoded {
        /// The body, as `ResponseBodyV1.init` would decode it.
        var body: ResponseBodyV1
        /// The tape index of the body object (for the canonical bytes of the notificationUUID).
        var bodyIndex: Int
        /// The envelope's receive time, if any.
        var receivedAt: Int64?
    }

    /// The tape being read.
    let tape: JSONTape

    /// Unwraps the envelope (if any) and decodes the body with `ResponseBodyV1`'s own decoding over a `TapeFieldSource`.
    func decode() throws(FastPathDeclined) -> Decoded {
        let found = try locate()
        let body = try ResponseBodyV1(TapeFieldSource(TapeSlots(tape: tape), object: found.bodyIndex))
        return Decoded(body: body, bodyIndex: found.bodyIndex, receivedAt: found.receivedAt)
    }

    /// Unwraps the envelope (if any) as `Envelope.unwrap` does, without decoding the body: the tape index of the body
    /// object and the envelope's receive time.
    func locate() throws(FastPathDeclined) -> (bodyIndex: Int, receivedAt: Int64?) {
        guard !tape.tokens.isEmpty, tape.tokens[0].kind == .object else { throw FastPathDeclined() }
        var index = 0
        var receivedAt: Int64?
        var depth = 0
        while true {
            if lastValue(in: index, key: Self.notificationTypeKey) != nil {
                return (index, receivedAt)
            }
            if receivedAt == nil { receivedAt = try receiveTime(index) }
            guard depth < 3 else { throw FastPathDeclined() }
            var inner: Int?
            for key in Self.bodyKeys {
                guard let value = lastValue(in: index, key: key) else { continue }
                switch tape.tokens[value].kind {
                case .object: inner = value
                case .string, .escapedString: throw FastPathDeclined()
                default: continue
                }
                break
            }
            guard let inner else { throw FastPathDeclined() }
            index = inner
            depth += 1
        }
    }

    // MARK: - Envelope (keys from `V1Key` and `Envelope`, as bytes)

    /// `notification_type`, whose presence marks the body.
    private static let notificationTypeKey = Array(V1Key.notificationType.name.utf8)
    /// `Envelope.bodyKeys`, in their order.
    private static let bodyKeys = Envelope.bodyKeys.map { Array($0.utf8) }
    /// `Envelope.receiveTimeKeys`, in their order.
    private static let receiveTimeKeys = Envelope.receiveTimeKeys.map { Array($0.utf8) }

    /// The value index of the last member named `key` in the object at `object`.
    private func lastValue(in object: Int, key: [UInt8]) -> Int? {
        let end = tape.tokens[object].end
        var found: Int?
        var k = object + 1
        while k < end {
            if tape.stringEquals(k, key) { found = k + 1 }
            k = tape.next(after: k + 1)
        }
        return found
    }

    /// The receive time of an envelope level, as `Envelope` reads it.
    private func receiveTime(_ object: Int) throws(FastPathDeclined) -> Int64? {
        for key in Self.receiveTimeKeys {
            guard let value = lastValue(in: object, key: key) else { continue }
            let token = tape.tokens[value]
            switch token.kind {
            case .null: continue
            case .number:
                guard let ms = Timestamp.parseEpoch(utf8: bytes(value)) else { throw FastPathDeclined() }
                return ms
            case .string:
                guard let ms = Timestamp.parseEpoch(utf8: bytes(value)) ?? Timestamp.parseISO8601(text(value)) else {
                    throw FastPathDeclined()
                }
                return ms
            default:
                throw FastPathDeclined()
            }
        }
        return nil
    }

    /// The raw bytes of a string or number token.
    private func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        let token = tape.tokens[index]
        return UnsafeRawBufferPointer(start: tape.base + token.start, count: token.end - token.start)
    }

    /// The raw bytes of a string or number token as a String.
    private func text(_ index: Int) -> String {
        let token = tape.tokens[index]
        return String(
            decoding: UnsafeBufferPointer(start: tape.base + token.start, count: token.end - token.start), as: UTF8.self
        )
    }
}
