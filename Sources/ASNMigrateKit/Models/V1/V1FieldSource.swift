/// Where the V1 models read their fields from, with the decoding rules of `V1FieldReader`: a parsed JSON object (the
/// reference path) or the raw bytes of a token tape (the fast path, which declines what it does not read exactly alike).
///
/// The models decode themselves once, generically over a source, so a field added to a model is read by both paths.
package protocol V1FieldSource {
    /// What a read throws: a reject-worthy `ASNError` on the reference path, a decline on the fast path.
    associatedtype Failure: Error

    /// A required non-empty string (`notification_type`), failing when absent or of another kind.
    func requiredString(_ key: V1Key) throws(Failure) -> String
    /// A text field; numbers and booleans are kept as their literal text.
    func string(_ key: V1Key) throws(Failure) -> String?
    /// An identifier: a string (trimmed) or an integer JSON number, digit for digit.
    func identifier(_ key: V1Key) throws(Failure) -> String?
    /// A boolean in the spellings archives use.
    func bool(_ key: V1Key) throws(Failure) -> Bool?
    /// A small integer code as text, digits only.
    func code(_ key: V1Key) throws(Failure) -> String?
    /// A date in epoch milliseconds: the key's `_ms` form first, else the base key.
    func date(_ key: V1Key) throws(Failure) -> Int64?
    /// A nested object, or nil when absent.
    func nested(_ key: V1Key) throws(Failure) -> Self?
    /// A list of objects (a single object counts as a one-element list).
    func objectList(_ key: V1Key) throws(Failure) -> [Self]
}

extension V1FieldReader: V1FieldSource {
    /// `notification_type` as `ResponseBodyV1` requires it, with the reject messages of a missing or wrong type.
    package func requiredString(_ key: V1Key) throws(ASNError) -> String {
        guard let value = object[key.name] else {
            throw ASNError(
                .missingNotificationType,
                "no '\(path(key.name))': this is not a V1 notification body (or its envelope key is not one of \(Envelope.bodyKeys.joined(separator: ", ")))",
                at: location.with(key: path(key.name))
            )
        }
        guard case .string(let text) = value, !text.isEmpty else {
            throw wrongType(key.name, expected: "a non-empty string", found: value)
        }
        return text
    }

    /// `string(_:)` by key.
    package func string(_ key: V1Key) throws(ASNError) -> String? { try string(key.name) }
    /// `identifier(_:)` by key.
    package func identifier(_ key: V1Key) throws(ASNError) -> String? { try identifier(key.name) }
    /// `bool(_:)` by key.
    package func bool(_ key: V1Key) throws(ASNError) -> Bool? { try bool(key.name) }
    /// `code(_:)` by key.
    package func code(_ key: V1Key) throws(ASNError) -> String? { try code(key.name) }
    /// `date(_:)` by key.
    package func date(_ key: V1Key) throws(ASNError) -> Int64? { try date(key.name) }
    /// `nested(_:)` by key.
    package func nested(_ key: V1Key) throws(ASNError) -> V1FieldReader? { try nested(key.name) }
    /// `objectList(_:)` by key.
    package func objectList(_ key: V1Key) throws(ASNError) -> [V1FieldReader] { try objectList(key.name) }
}
