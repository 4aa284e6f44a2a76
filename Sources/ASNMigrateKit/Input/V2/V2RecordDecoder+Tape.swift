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
        tapeDecode(record, scratch: V2DecodeScratch()).map { [$0] }
    }

    /// The one outcome of `record` by the fast path, reading through `scratch`'s buffers, or nil to leave it to the
    /// reference path.
    func tapeDecode(_ record: RawRecord, scratch: V2DecodeScratch) -> V2ReadOutcome? {
        guard signatures == nil, record.bytes.first == UInt8(ascii: "{") else { return nil }
        var content = JSONByteSink()
        swap(&content.bytes, &scratch.content)
        defer { swap(&content.bytes, &scratch.content) }
        content.bytes.removeAll(keepingCapacity: true)
        let members = self.members
        let payload = Self.withObjectTape(record.bytes, &scratch.recordTape) { top -> ResponseBodyV2DecodedPayload? in
            if top.member("notificationType") != nil { return Self.notification(top, members, scratch, &content) }
            guard let jws = top.member("signedPayload"), top.kind(jws) == .string,
                Self.jwsPayloadBytes(top.rawString(at: jws), into: &scratch.payload)
            else { return nil }
            return Self.withObjectTape(scratch.payload, &scratch.payloadTape) {
                Self.notification($0, members, scratch, &content)
            } ?? nil
        }
        guard let payload = payload ?? nil else { return nil }
        let digest = SHA1.digest(content.bytes)
        return V2IDCheck.checked(
            .record(V2Record(payload: payload, location: record.location, contentDigest: digest)))
    }

    /// Walks `record` by the fast path, showing `observer` each object it reaches, and returns the record's content
    /// fingerprint (`SHA1.prefix64` of its content digest); nil to leave the record to the reference path.
    func tapeObserve(_ record: RawRecord, scratch: V2DecodeScratch, observer: any V2TapeObserver) -> UInt64? {
        guard signatures == nil, record.bytes.first == UInt8(ascii: "{") else { return nil }
        var content = JSONByteSink()
        swap(&content.bytes, &scratch.content)
        defer { swap(&content.bytes, &scratch.content) }
        content.bytes.removeAll(keepingCapacity: true)
        let none = V2MemberSelection(notification: 0, data: 0, transaction: 0, renewal: 0)
        let read = Self.withObjectTape(record.bytes, &scratch.recordTape) { top -> Bool in
            if top.member("notificationType") != nil {
                return Self.notification(top, none, scratch, &content, observer) != nil
            }
            guard let jws = top.member("signedPayload"), top.kind(jws) == .string,
                Self.jwsPayloadBytes(top.rawString(at: jws), into: &scratch.payload)
            else { return false }
            return Self.withObjectTape(scratch.payload, &scratch.payloadTape) {
                Self.notification($0, none, scratch, &content, observer) != nil
            } ?? false
        }
        guard read == true else { return nil }
        return content.bytes.withUnsafeBytes { SHA1.prefix64(of: $0) }
    }

    /// Decodes the payload (middle) segment of the compact JWS `jws` into `out`, as the reference's `jwsPayload`
    /// finds it; false when it is not three segments or the payload is not base64url.
    private static func jwsPayloadBytes(_ jws: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        guard let first = dot(in: jws, from: 0), let second = dot(in: jws, from: first + 1),
            dot(in: jws, from: second + 1) == nil
        else { return false }
        return Base64.decode(UnsafeRawBufferPointer(rebasing: jws[(first + 1)..<second]), into: &out)
    }

    /// Gives the top-level object of the JSON `bytes` to `read`, read from a tape in `storage`'s capacity; nil when
    /// they are no object the tape accepts.
    private static func withObjectTape<T>(
        _ bytes: [UInt8], _ storage: inout [JSONTape.Token], _ read: (TapeV2Object) -> T
    ) -> T? {
        bytes.withUnsafeBufferPointer { buffer -> T? in
            guard let base = buffer.baseAddress else { return nil }
            var taken: [JSONTape.Token] = []
            swap(&taken, &storage)
            var tape = JSONTape(base: base, count: buffer.count, storage: consume taken)
            defer { storage = tape.releaseTokens() }
            guard tape.build(), tape.tokens.first?.kind == .object else { return nil }
            return read(TapeV2Object(tape: tape, index: 0))
        }
    }

    /// The notification in a decoded payload (a record's, or a JWS payload's), or nil to decline; its content (without
    /// `migration`) is written to `content` in the model's member order, as `V2Record.contentDigest` hashes it.
    private static func notification(
        _ object: TapeV2Object, _ members: V2MemberSelection, _ scratch: V2DecodeScratch, _ content: inout JSONByteSink,
        _ packer: (any V2TapeObserver)? = nil
    ) -> ResponseBodyV2DecodedPayload? {
        guard let typeToken = object.member("notificationType"),
            object.kind(typeToken) == .string || object.kind(typeToken) == .escapedString
        else { return nil }
        // Packing, the type's text is the packer's; its bytes go to the content as they are.
        let plain = packer != nil && object.kind(typeToken) == .string
        let type = plain ? "" : object.text(at: typeToken)
        guard plain ? !object.rawString(at: typeToken).isEmpty : !type.isEmpty else { return nil }
        var migration: MigrationInfo?
        if let token = object.member("migration"), object.kind(token) != .null {
            // `migrate` writes it on the decoded form; the reference reads it on either form, and words its rejects.
            guard object.kind(token) == .object else { return nil }
            if let packer {
                guard packer.migration(object.object(at: token)) else { return nil }
            } else {
                guard let info = MigrationInfo(fields: object.object(at: token)) else { return nil }
                migration = info
            }
        }
        var payload = ResponseBodyV2DecodedPayload(notificationType: type, version: nil, migration: migration)
        content.bytes.append(UInt8(ascii: "{"))
        if plain {
            content.add("notificationType", utf8: object.rawString(at: typeToken).assumingMemoryBound(to: UInt8.self))
        } else {
            content.add("notificationType", type)
        }
        if packer?.writesContent ?? true {
            TapeMemberCopier.copy(object, keep: members.notification, into: &content) { payload.visitScalars(&$0) }
        }
        if let packer, !packer.notification(object) { return nil }
        content.openObject("data")
        if let dataToken = object.member("data"), object.kind(dataToken) != .null {
            guard object.kind(dataToken) == .object,
                let read = notificationData(object.object(at: dataToken), members, scratch, &content, packer)
            else { return nil }
            payload.data = read
        }
        content.closeObject()
        content.bytes.append(UInt8(ascii: "}"))
        return payload
    }

    /// The `data` object with its nested info, or nil to decline; its members are written to `content`.
    private static func notificationData(
        _ object: TapeV2Object, _ members: V2MemberSelection, _ scratch: V2DecodeScratch, _ content: inout JSONByteSink,
        _ packer: (any V2TapeObserver)?
    ) -> NotificationData? {
        var data = NotificationData()
        if packer?.writesContent ?? true {
            TapeMemberCopier.copy(object, keep: members.data, into: &content) { data.visitScalars(&$0) }
        }
        packer?.data(object)
        guard
            let transaction = nested(
                object, NotificationData.transactionKeys, members.transaction, JWSTransactionDecodedPayload(),
                scratch, &content, packer, true),
            let renewal = nested(
                object, NotificationData.renewalKeys, members.renewal, JWSRenewalInfoDecodedPayload(), scratch,
                &content, packer, false)
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
        _ scratch: V2DecodeScratch, _ content: inout JSONByteSink, _ packer: (any V2TapeObserver)?,
        _ transactionInfo: Bool
    ) -> Model?? {
        /// The model read from `object`, its members written to `content`.
        func read(_ object: TapeV2Object) -> Model {
            var model = empty
            content.openObject(keys.decoded)
            if packer?.writesContent ?? true {
                TapeMemberCopier.copy(object, keep: keep, into: &content) { model.visitMembers(&$0) }
            }
            content.closeObject()
            if let packer { transactionInfo ? packer.transaction(object) : packer.renewal(object) }
            return model
        }
        for pass in 0..<2 {
            let signed = pass == 0
            let key = signed ? keys.signed : keys.decoded
            guard let value = data.member(key) else { continue }
            switch data.kind(value) {
            case .null: continue
            case .object: return .some(read(data.object(at: value)))
            case .string where signed:
                // A JWS whose payload is JSON null means absent; any other payload that is no object is declined.
                guard jwsPayloadBytes(data.rawString(at: value), into: &scratch.nested) else { return nil }
                if let model = withObjectTape(scratch.nested, &scratch.nestedTape, read) { return .some(model) }
                if (try? JSONParser().parse(scratch.nested)) == .null { continue }
                return nil
            default: return nil
            }
        }
        return .some(nil)
    }
}
