/// One merged transaction of a `V1RecordView`, read by key as a `V1FieldSource`: `LatestReceiptInfo`'s one decoding
/// then serves the tape too, so a receipt field is named once (in the model), not once more for each view.
package struct V1ViewEntry<View: V1RecordView>: V1FieldSource {
    /// Reading a view's field never fails.
    package typealias Failure = Never
    /// The view.
    package let view: View
    /// The transaction's index in the view.
    package let entry: Int

    /// The transaction `entry` of `view`.
    package init(view: View, entry: Int) {
        self.view = view
        self.entry = entry
    }

    /// The text of `key`'s field as a `String`.
    private func text(_ key: V1Key) -> String? {
        guard let field = V1EntryField.of(key) else { return nil }
        return view.text(entry, field).map(view.string)
    }

    /// The text (never failing: a view has already read its fields).
    package func requiredString(_ key: V1Key) -> String { text(key) ?? "" }
    /// A text field.
    package func string(_ key: V1Key) -> String? { text(key) }
    /// An identifier, as the view read it.
    package func identifier(_ key: V1Key) -> String? { text(key) }
    /// A flag.
    package func bool(_ key: V1Key) -> Bool? { V1EntryField.of(key).flatMap { view.flag(entry, $0) } }
    /// A code, as the view read it.
    package func code(_ key: V1Key) -> String? { text(key) }
    /// A date in epoch milliseconds.
    package func date(_ key: V1Key) -> Int64? { V1EntryField.of(key).flatMap { view.date(entry, $0) } }
    /// None: a transaction holds no nested objects the model reads.
    package func nested(_ key: V1Key) -> V1ViewEntry? { nil }
    /// None.
    package func objectList(_ key: V1Key) -> [V1ViewEntry] { [] }
}

extension V1EntryField {
    /// The entry field of each `V1Key`, by raw value (nil for keys no entry has).
    private static let byKey: [V1EntryField?] = {
        var fields = [V1EntryField?](repeating: nil, count: V1Key.allCases.count)
        for field in V1EntryField.allCases { fields[field.key.rawValue] = field }
        return fields
    }()

    /// The entry field read under `key`, if a transaction has one.
    package static func of(_ key: V1Key) -> V1EntryField? { byKey[key.rawValue] }
}
