/// The buffers the V2 fast path reuses from one record to the next on one decoding thread: a token tape and a decoded
/// JWS payload per nesting level (the record, its payload, the nested transaction or renewal info) and the content
/// written for the digest, so a record costs no allocation for them. A class, so that each level's buffer is borrowed
/// on its own while the next level's is in use; never shared between threads.
package final class V2DecodeScratch {
    /// The record's tape.
    var recordTape: [JSONTape.Token] = []
    /// The notification payload's tape.
    var payloadTape: [JSONTape.Token] = []
    /// The nested info's tape.
    var nestedTape: [JSONTape.Token] = []
    /// The decoded notification payload.
    var payload: [UInt8] = []
    /// The decoded nested info.
    var nested: [UInt8] = []
    /// The content the digest is computed over.
    var content: [UInt8] = []

    /// Empty buffers.
    package init() {}
}
