import Foundation

/// Decodes one V2 record, in any form a team may hold it, into zero or more `V2ReadOutcome`s.
///
/// Accepted per record:
/// - a raw V2 body `{"signedPayload": "<JWS>"}`, a bare compact JWS, or a JSON string holding one: the JWS payload
///   is base64url-decoded and read as a decoded payload (below). Signatures are verified only when `signatures` is
///   set (`reconcile --verify-signatures`): then every JWS, top-level and nested, must pass `JWSVerifier` and the
///   app checks of `SignaturePolicy`, or the record is a `.signature` reject naming the failed check.
/// - a decoded `responseBodyV2DecodedPayload` (it has `notificationType`). Its `data` may hold `signedTransactionInfo`
///   / `signedRenewalInfo` as JWS strings or as decoded objects, or `transactionInfo` / `renewalInfo` objects as
///   `asn-migrate migrate` writes them; a `migration` object is kept in `payload.migration`. A nested JWS whose
///   payload is JSON `null` means absent (real sandbox captures have one).
/// - a Get Notification History page `{"notificationHistory": [{"signedPayload": …}, …], …}`: one outcome per entry,
///   located at the page's path and line with `index` the entry's position.
/// - App Store Server API responses (Get Transaction History pages, Get All Subscription Statuses responses) and lone
///   transactions, decoded or as a JWS: `.api` outcomes from `V2APIResponseDecoder`.
/// - any of these inside a team's envelope (`{"received_at": …, "body": …}`, `{"fetchedAt": …, "response": …}`; see
///   `V2Envelope`), whose time becomes a statuses response's fetch time.
///
/// Unknown notification types and subtypes are kept raw. Anything else is rejected with a message that says what is
/// wrong and what to do: `.malformedJSON`, `.notAnObject`, `.malformedJWS` (not three parts, bad base64url, payload
/// not JSON), `.missingNotificationType`, or `.wrongFieldType` (for example `data` that is not an object).
package struct V2RecordDecoder: Sendable {
    /// The parser for record bytes and JWS payloads.
    package let parser: JSONParser
    /// The signature checks to make, or nil to decode without verifying (the default).
    package var signatures: SignaturePolicy?
    /// The members the fast path keeps as values in a record's payload (the others count only in its content digest);
    /// every member by default. A reader that reads only some (`reconcile`) sets the ones it reads, found by
    /// `V2MemberSelection.read(by:)`; the reference path always keeps every member.
    package var members = V2MemberSelection.all

    /// Creates a decoder.
    package init() {
        parser = JSONParser()
    }

    // MARK: - Decoding

    /// Decodes one record's bytes: JSON, or a bare compact JWS (a `.jws` file holds one).
    package func decode(_ record: RawRecord) -> [V2ReadOutcome] {
        var outcomes: [V2ReadOutcome] = []
        decode(record, scratch: V2DecodeScratch(), into: &outcomes)
        return outcomes
    }

    /// Decodes one record's bytes as `decode(_:)` does, appending its outcomes to `outcomes`; `scratch` holds the fast
    /// path's buffers from one record to the next (one per thread).
    package func decode(_ record: RawRecord, scratch: V2DecodeScratch, into outcomes: inout [V2ReadOutcome]) {
        if let fast = tapeDecode(record, scratch: scratch) {
            outcomes.append(fast)
        } else {
            outcomes.append(contentsOf: referenceDecode(record))
        }
    }

    /// Decodes one record's bytes through the parsed JSON tree: every form, every reject's wording.
    package func referenceDecode(_ record: RawRecord) -> [V2ReadOutcome] {
        if let jws = Self.bareJWS(record.bytes) {
            return [V2IDCheck.checked(topLevelJWS(jws, at: record.location))]
        }
        let value: JSONValue
        do {
            value = try parser.parse(record.bytes)
        } catch {
            return [
                .rejected(
                    ASNError(
                        .malformedJSON,
                        error.message
                            + "; each record must be one V2 record in JSON (a notification or an App Store Server API response), or a compact JWS",
                        at: record.location, cause: error.cause))
            ]
        }
        return decode(value, at: record.location)
    }

    /// Decodes one parsed record found at `location`.
    package func decode(_ value: JSONValue, at location: SourceLocation) -> [V2ReadOutcome] {
        decode(value, at: location, envelopes: 0, envelopeTime: nil).map(V2IDCheck.checked)
    }

    /// Decodes one parsed record found inside `envelopes` envelopes (see `V2Envelope`), the nearest of them dated
    /// `envelopeTime` (the fetch time of a statuses response that names none of its own).
    private func decode(_ value: JSONValue, at location: SourceLocation, envelopes: Int, envelopeTime: Int64?)
        -> [V2ReadOutcome]
    {
        switch value {
        case .string(let jws):
            return [topLevelJWS(jws, at: location)]
        case .object(let object):
            if object["notificationType"] != nil {
                return [
                    outcome(at: location, signed: false) { () throws(ASNError) in try payload(object, at: location) }
                ]
            }
            if let signed = object["signedPayload"] {
                return [
                    outcome(at: location, signed: true) { () throws(ASNError) in
                        try signedPayload(signed, key: "signedPayload", at: location)
                    }
                ]
            }
            if let history = object["notificationHistory"] {
                return historyPage(history, at: location)
            }
            // App Store Server API responses and lone transactions: see `V2APIResponseDecoder`.
            let api = V2APIResponseDecoder(decoder: self)
            if V2APIResponseDecoder.isHistoryPage(object) { return api.historyPage(object, at: location) }
            if V2APIResponseDecoder.isStatusesResponse(object) {
                return api.statusesResponse(object, at: location, envelopeTime: envelopeTime)
            }
            if V2APIResponseDecoder.isTransaction(object) { return [api.loneTransaction(object, at: location)] }
            if envelopes < V2Envelope.maximumDepth, let body = V2Envelope.body(of: object, parser: parser) {
                let inner = decode(
                    body.value, at: location, envelopes: envelopes + 1,
                    envelopeTime: V2Envelope.fetchTime(of: object)?.ms ?? envelopeTime)
                // A body that is no V2 record either: the object was not an envelope; say what the object is.
                let notARecord = inner.count == 1 && inner[0].error?.code == .missingNotificationType
                if !notARecord { return inner }
            }
            return [.rejected(Self.notANotification(object, at: location))]
        default:
            return [
                .rejected(
                    ASNError(
                        .notAnObject,
                        "record is \(V1FieldReader.describe(value)), not a JSON object; each record must be "
                            + Self.acceptedForms,
                        at: location))
            ]
        }
    }

    // MARK: - Forms

    /// The entries of a Get Notification History page, each located by its index.
    private func historyPage(_ history: JSONValue, at location: SourceLocation) -> [V2ReadOutcome] {
        guard case .array(let entries) = history else {
            return [
                .rejected(
                    ASNError(
                        .wrongFieldType,
                        "notificationHistory is \(V1FieldReader.describe(history)), not an array; save Get Notification History responses unchanged",
                        at: location.with(key: "notificationHistory")))
            ]
        }
        return entries.enumerated().map { index, entry in
            var at = location
            at.index = index
            return outcome(at: at, signed: true) { () throws(ASNError) in
                guard case .object(let object) = entry, let signed = object["signedPayload"] else {
                    throw ASNError(
                        .malformedJWS,
                        "notificationHistory entry \(index) has no signedPayload; each entry must be {\"signedPayload\": \"<JWS>\", …}",
                        at: at.with(key: "notificationHistory[\(index)].signedPayload"))
                }
                return try signedPayload(signed, key: "notificationHistory[\(index)].signedPayload", at: at)
            }
        }
    }

    /// A record that is a compact JWS: a signed notification, or a signed transaction (`V2APIResponseDecoder`).
    private func topLevelJWS(_ jws: String, at location: SourceLocation) -> V2ReadOutcome {
        do {
            let decoded = try jwsPayload(jws, what: "the record", at: location)
            if case .object(let object) = decoded, V2APIResponseDecoder.isTransaction(object) {
                if let signatures {
                    try signatures.verifier.verify(
                        jws, signedDate: V2FieldReader(object).int64("signedDate"), what: "the record", at: location)
                }
                return V2APIResponseDecoder(decoder: self).loneTransaction(object, at: location)
            }
            return outcome(at: location, signed: true) { () throws(ASNError) in
                try signedPayload(decoded, jws: jws, what: "the record", at: location)
            }
        } catch {
            return .rejected(error)
        }
    }

    /// The payload of a `signedPayload` member, which must be a JWS string.
    private func signedPayload(_ value: JSONValue, key: String, at location: SourceLocation) throws(ASNError)
        -> ResponseBodyV2DecodedPayload
    {
        guard case .string(let jws) = value else {
            throw ASNError(
                .malformedJWS,
                "\(key) is \(V1FieldReader.describe(value)), not a JWS string; store the body exactly as Apple sent it",
                at: location.with(key: key))
        }
        return try signedPayload(jws, what: key, at: location.with(key: key))
    }

    /// The decoded payload of a signed notification `jws`; `what` names it in messages.
    private func signedPayload(_ jws: String, what: String, at location: SourceLocation) throws(ASNError)
        -> ResponseBodyV2DecodedPayload
    {
        try signedPayload(try jwsPayload(jws, what: what, at: location), jws: jws, what: what, at: location)
    }

    /// The notification in the already decoded payload of a signed value; `what` names it in messages.
    private func signedPayload(_ decoded: JSONValue, jws: String, what: String, at location: SourceLocation)
        throws(ASNError) -> ResponseBodyV2DecodedPayload
    {
        guard case .object(let object) = decoded else {
            throw ASNError(
                .notAnObject,
                "the payload of \(what) is \(V1FieldReader.describe(decoded)), not a JSON object; it is not a V2 notification",
                at: location)
        }
        guard object["notificationType"] != nil else { throw Self.notANotification(object, at: location, inside: what) }
        if let signatures {
            try signatures.verifier.verify(
                jws, signedDate: V2FieldReader(object).int64("signedDate"), what: what, at: location)
        }
        return try payload(object, at: location)
    }

    /// A decoded `responseBodyV2DecodedPayload` object.
    private func payload(_ object: JSONObject, at location: SourceLocation) throws(ASNError)
        -> ResponseBodyV2DecodedPayload
    {
        guard case .string(let type)? = object["notificationType"], !type.isEmpty else {
            let found = object["notificationType"].map { V1FieldReader.describe($0) } ?? "missing"
            throw ASNError(
                .missingNotificationType,
                "notificationType is \(found), not a notification type name such as \"DID_RENEW\"; each record must be a V2 notification",
                at: location.with(key: "notificationType"))
        }
        let reader = V2FieldReader(object)
        let signedDate = reader.int64("signedDate")
        var data = NotificationData()
        switch object["data"] {
        case nil, .null?:
            break
        case .object(let dataObject)?:
            try signatures?.checkApp(data: dataObject, at: location)
            data = try notificationData(dataObject, signedDate: signedDate, at: location)
        case let other?:
            throw ASNError(
                .wrongFieldType, "data is \(V1FieldReader.describe(other)), not an object",
                at: location.with(key: "data"))
        }
        var migration: MigrationInfo?
        switch object["migration"] {
        case nil, .null?:
            break
        case .object(let migrationObject)?:
            guard let info = MigrationInfo(migrationObject) else {
                throw ASNError(
                    .wrongFieldType,
                    "migration lacks source, v1NotificationType or rule; it must be the object 'asn-migrate migrate' writes",
                    at: location.with(key: "migration"))
            }
            migration = info
        case let other?:
            throw ASNError(
                .wrongFieldType, "migration is \(V1FieldReader.describe(other)), not an object",
                at: location.with(key: "migration"))
        }
        return ResponseBodyV2DecodedPayload(
            notificationType: type, scalars: reader, data: data, migration: migration)
    }

    /// The `data` object, with its transaction and renewal info decoded from whichever form it holds; `signedDate` is
    /// the notification's, for nested JWS without their own.
    private func notificationData(_ object: JSONObject, signedDate: Int64?, at location: SourceLocation)
        throws(ASNError) -> NotificationData
    {
        var data = NotificationData(scalars: V2FieldReader(object))
        data.transactionInfo = try nested(
            object, signed: NotificationData.transactionKeys.signed, decoded: NotificationData.transactionKeys.decoded,
            signedDate: signedDate,
            environment: data.environment, at: location
        )
        .map(JWSTransactionDecodedPayload.init)
        data.renewalInfo = try nested(
            object, signed: NotificationData.renewalKeys.signed, decoded: NotificationData.renewalKeys.decoded,
            signedDate: signedDate,
            environment: data.environment, at: location
        )
        .map(JWSRenewalInfoDecodedPayload.init)
        return data
    }

    /// The nested object under `data.<signed>` (a JWS string or a decoded object) or `data.<decoded>` (an object);
    /// nil when absent, null, or a JWS whose payload is `null`. With `signatures` set, a JWS is verified (at its own
    /// `signedDate`, else the notification's) and the object's bundle ID and `environment` are checked.
    private func nested(
        _ data: JSONObject, signed: String, decoded: String, signedDate: Int64?, environment: String?,
        at location: SourceLocation
    ) throws(ASNError) -> JSONObject? {
        for key in [signed, decoded] {
            let path = "data." + key
            switch data[key] {
            case nil, .null?:
                continue
            case .object(let object)?:
                try signatures?.checkNested(object, path: path, environment: environment, at: location)
                return object
            case .string(let jws)? where key == signed:
                let decodedPayload = try jwsPayload(jws, what: path, at: location.with(key: path))
                if let signatures {
                    let ownDate = decodedPayload.objectValue.flatMap { V2FieldReader($0).int64("signedDate") }
                    try signatures.verifier.verify(
                        jws, signedDate: ownDate ?? signedDate, what: path, at: location.with(key: path))
                }
                switch decodedPayload {
                case .object(let object):
                    try signatures?.checkNested(object, path: path, environment: environment, at: location)
                    return object
                case .null: continue
                case let other:
                    throw ASNError(
                        .notAnObject, "the payload of \(path) is \(V1FieldReader.describe(other)), not a JSON object",
                        at: location.with(key: path))
                }
            case let other?:
                let expected = key == signed ? "a JWS string or a decoded object" : "a decoded object"
                throw ASNError(
                    .wrongFieldType, "\(path) is \(V1FieldReader.describe(other)), not \(expected)",
                    at: location.with(key: path))
            }
        }
        return nil
    }

    // MARK: - JWS

    /// The parsed JSON of the payload (middle) segment of the compact JWS `jws`; the signature is not checked.
    func jwsPayload(_ jws: String, what: String, at location: SourceLocation) throws(ASNError) -> JSONValue {
        // The dots are found on the contiguous UTF-8 directly: splitting the string cost more than the decoding.
        var text = jws
        let (partCount, decodedPayload) = text.withUTF8 { utf8 -> (Int, [UInt8]?) in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard let first = Self.dot(in: bytes, from: 0), let second = Self.dot(in: bytes, from: first + 1),
                Self.dot(in: bytes, from: second + 1) == nil
            else {
                return (bytes.reduce(1) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) }, nil)
            }
            return (3, Base64.decode(UnsafeRawBufferPointer(rebasing: bytes[(first + 1)..<second])))
        }
        guard partCount == 3 else {
            throw ASNError(
                .malformedJWS,
                "\(what) is not a compact JWS: it has \(partCount) dot-separated part\(partCount == 1 ? "" : "s"), not 3 (header.payload.signature); keep the signed value exactly as Apple sent it, untruncated",
                at: location)
        }
        guard let bytes = decodedPayload else {
            throw ASNError(
                .malformedJWS,
                "the payload segment of \(what) is not base64url; keep the signed value exactly as Apple sent it",
                at: location)
        }
        do {
            return try parser.parse(bytes)
        } catch {
            throw ASNError(
                .malformedJWS,
                "the payload segment of \(what) is not JSON; keep the signed value exactly as Apple sent it",
                at: location, cause: error.message)
        }
    }

    /// The position of the first `.` in `bytes` at or after `start` (memchr: a JWS is kilobytes long).
    static func dot(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The text of `bytes` when they look like a bare compact JWS: base64url characters and at least one dot,
    /// starting with a letter (so JSON numbers and literals never match).
    private static func bareJWS(_ bytes: [UInt8]) -> String? {
        guard let first = bytes.first, isLetter(first), bytes.contains(UInt8(ascii: ".")) else { return nil }
        guard bytes.allSatisfy({ isLetter($0) || isDigit($0) || jwsPunctuation.contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Errors and outcomes

    /// The outcome of `decode`: a record at `location`, or the reject it threw. `signed` says whether the record was
    /// given as a JWS (and so, with `signatures` set, verified); unsigned ones are rejects under `requireSignatures`.
    private func outcome(
        at location: SourceLocation, signed: Bool, _ decode: () throws(ASNError) -> ResponseBodyV2DecodedPayload
    ) -> V2ReadOutcome {
        do throws(ASNError) {
            var record = V2Record(payload: try decode(), location: location)
            if let signatures {
                if !signed && signatures.requireSignatures {
                    throw SignatureCheck.unsigned.failure(
                        "the record is a decoded payload, not a signed JWS, and --require-signatures is on; give the V2 records as Apple sent them ({\"signedPayload\": …})",
                        at: location)
                }
                record.signatureVerified = signed
            }
            return .record(record)
        } catch {
            return .rejected(error)
        }
    }

    /// What a V2 record may be, for reject messages: every form this decoder reads.
    static let acceptedForms =
        "a V2 notification ({\"signedPayload\": …}, a decoded payload with notificationType, a compact JWS, or a notificationHistory page), "
        + "an App Store Server API response (a transaction history page with signedTransactions, a subscription statuses response with data), "
        + "or a transaction (JWS or decoded), optionally inside an envelope such as {\"received_at\": …, \"body\": …}"

    /// The reject for an object that has none of the keys of a V2 notification, with a hint when it is a known non-notification.
    private static func notANotification(_ object: JSONObject, at location: SourceLocation, inside what: String? = nil)
        -> ASNError
    {
        let subject = what.map { "the payload of \($0)" } ?? "record"
        let hint: String
        if object["originalTransactionId"] != nil || object["transactionId"] != nil {
            hint = "it looks like a transaction or renewal info, not a notification"
        } else if object["signedTransactions"] != nil || object["lastTransactions"] != nil
            || (object["data"] != nil && object["bundleId"] != nil)
        {
            hint = "it looks like an App Store Server API response other than Get Notification History"
        } else {
            let keys = object.keys.prefix(6).joined(separator: ", ")
            hint =
                object.keys.isEmpty
                ? "it is an empty object" : "its keys are \(keys)\(object.keys.count > 6 ? ", …" : "")"
        }
        let accepted = what == nil ? "; each record must be " + acceptedForms : ""
        return ASNError(
            .missingNotificationType, "\(subject) has no notificationType (\(hint))\(accepted)",
            at: location.with(key: "notificationType"))
    }
}

// MARK: - Private helpers

/// Whether `byte` is an ASCII letter.
private func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

/// Whether `byte` is an ASCII digit.
private func isDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
}

/// The non-alphanumeric bytes a compact JWS may hold: the separator, both base64 alphabets' extras, and padding.
private let jwsPunctuation: Set<UInt8> = [
    UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")
]
