/// The fast path of `V2RecordDecoder` for the forms nearly every archive holds, read without signature checks: a
/// signed notification `{"signedPayload": "<JWS>"}` and a decoded payload (`{"notificationType": …}`, as teams that
/// decode on receipt keep it, and as `migrate` writes it). The record, the JWS payloads and the nested transaction and
/// renewal info are read from token tapes over their bytes (`TapeV2Object`) into the same models, with no JSON tree;
/// the content digest is written from the tapes as the models would write it (`TapeMemberCopier`), so only the members
/// `members` keeps become values. Anything else, and anything unusual (an escaped JWS, `data` that is not an object,
/// a payload that is not a notification, a bad segment), is declined (nil) and left to the reference path, which also
/// words every reject, so outcomes are the reference's exactly (`V2TapeDecoderTests` checks it on the sample, the
/// corpus, random and damaged records).
extension V2RecordDecoder {
    /// The outcomes of `record` by the fast path, or nil to leave it to the reference path.
    func tapeDecode(_ record: RawRecord) -> [V2ReadOutcome]? {
        guard signatures == nil, record.bytes.first == UInt8(ascii: "{") else { return nil }
        var content = JSONByteSink()
        content.bytes.reserveCapacity(record.bytes.count * 3 / 4 + 256) // a JWS is 4/3 of what it holds
        let members = self.members
        let payload = Self.withObjectTape(record.bytes) { top -> ResponseBodyV2DecodedPayload? in
            if top.member("notificationType") != nil { return Self.notification(top, members, &content) }
            guard let jws = top.member("signedPayload"), top.kind(jws) == .string else { return nil }
            return Self.withJWSPayload(top.rawString(at: jws), { Self.notification($0, members, &content) }) ?? nil
        }
        guard let payload = payload ?? nil else { return nil }
        let digest = SHA1.digest(content.bytes)
        return [
            V2IDCheck.checked(.record(V2Record(payload: payload, location: record.location, contentDigest: digest)))
        ]
    }

    /// Reads the payload segment of the compact JWS `jws` into a tape and gives its top-level object to `read`;
    /// nil when the JWS is not three segments, the payload not base64url or not a JSON object.
    private static func withJWSPayload<T>(_ jws: UnsafeRawBufferPointer, _ read: (TapeV2Object) -> T) -> T? {
        jwsPayloadBytes(jws).flatMap { withObjectTape($0, read) }
    }

    /// The decoded bytes of the payload (middle) segment of the compact JWS `jws`, as the reference's `jwsPayload`
    /// finds them; nil when it is not three segments or the payload is not base64url.
    private static func jwsPayloadBytes(_ jws: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let first = dot(in: jws, from: 0), let second = dot(in: jws, from: first + 1),
            dot(in: jws, from: second + 1) == nil
        else { return nil }
        return Base64.decode(UnsafeRawBufferPointer(rebasing: jws[(first + 1)..<second]))
    }

    /// Gives the top-level object of the JSON `bytes` to `read`, read from a tape; nil when they are no object the
    /// tape accepts.
    private static func withObjectTape<T>(_ bytes: [UInt8], _ read: (TapeV2Object) -> T) -> T? {
        bytes.withUnsafeBufferPointer { buffer -> T? in
            guard let base = buffer.baseAddress else { return nil }
            var tape = JSONTape(base: base, count: buffer.count)
            guard tape.build(), tape.tokens.first?.kind == .object else { return nil }
            return read(TapeV2Object(tape: tape, index: 0))
        }
    }

    /// The notification in a decoded payload (a record's, or a JWS payload's), or nil to decline; its content (without
    /// `migration`) is written to `content` in the model's member order, as `V2Record.contentDigest` hashes it.
    private static func notification(
        _ object: TapeV2Object, _ members: V2MemberSelection, _ content: inout JSONByteSink
    ) -> ResponseBodyV2DecodedPayload? {
        guard let typeToken = object.member("notificationType"),
            object.kind(typeToken) == .string || object.kind(typeToken) == .escapedString
        else { return nil }
        let type = object.text(at: typeToken)
        guard !type.isEmpty else { return nil }
        var migration: MigrationInfo?
        if let token = object.member("migration"), object.kind(token) != .null {
            // `migrate` writes it on the decoded form; the reference reads it on either form, and words its rejects.
            guard object.kind(token) == .object, let info = MigrationInfo(fields: object.object(at: token)) else {
                return nil
            }
            migration = info
        }
        var payload = ResponseBodyV2DecodedPayload(notificationType: type, version: nil, migration: migration)
        content.bytes.append(UInt8(ascii: "{"))
        content.add("notificationType", type)
        TapeMemberCopier.copy(object, keep: members.notification, into: &content) { payload.visitScalars(&$0) }
        content.openObject("data")
        if let dataToken = object.member("data"), object.kind(dataToken) != .null {
            guard object.kind(dataToken) == .object,
                let read = notificationData(object.object(at: dataToken), members, &content)
            else { return nil }
            payload.data = read
        }
        content.closeObject()
        content.bytes.append(UInt8(ascii: "}"))
        return payload
    }

    /// The `data` object with its nested info, or nil to decline; its members are written to `content`.
    private static func notificationData(
        _ object: TapeV2Object, _ members: V2MemberSelection, _ content: inout JSONByteSink
    ) -> NotificationData? {
        var data = NotificationData()
        TapeMemberCopier.copy(object, keep: members.data, into: &content) { data.visitScalars(&$0) }
        guard
            let transaction = nested(
                object, NotificationData.transactionKeys, members.transaction, JWSTransactionDecodedPayload(),
                &content),
            let renewal = nested(
                object, NotificationData.renewalKeys, members.renewal, JWSRenewalInfoDecodedPayload(), &content)
        else { return nil }
        data.transactionInfo = transaction
        data.renewalInfo = renewal
        return data
    }

    /// The nested info under `keys.signed` (a JWS or an object) or `keys.decoded` (an object), as the reference's
    /// `nested` finds it, with the members `keep` selects: `.some(nil)` when absent, nil to decline. Its members are
    /// written to `content` under `keys.decoded`, as the model writes them.
    private static func nested<Model: V2ScalarModel>(
        _ data: TapeV2Object, _ keys: (signed: String, decoded: String), _ keep: UInt64, _ empty: Model,
        _ content: inout JSONByteSink
    ) -> Model?? {
        /// The model read from `object`, its members written to `content`.
        func read(_ object: TapeV2Object) -> Model {
            var model = empty
            content.openObject(keys.decoded)
            TapeMemberCopier.copy(object, keep: keep, into: &content) { model.visitMembers(&$0) }
            content.closeObject()
            return model
        }
        for key in [keys.signed, keys.decoded] {
            guard let value = data.member(key) else { continue }
            switch data.kind(value) {
            case .null: continue
            case .object: return .some(read(data.object(at: value)))
            case .string where key == keys.signed:
                // A JWS whose payload is JSON null means absent; any other payload that is no object is declined.
                guard let bytes = jwsPayloadBytes(data.rawString(at: value)) else { return nil }
                if let model = withObjectTape(bytes, read) { return .some(model) }
                if (try? JSONParser().parse(bytes)) == .null { continue }
                return nil
            default: return nil
            }
        }
        return .some(nil)
    }
}
