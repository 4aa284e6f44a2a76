/// Keeps one copy of each repeated piece of text, so that the many records naming one product, bundle or subscription
/// share a single string's storage instead of holding one each (records kept for a whole run, as the API view's are).
///
/// Text of up to 15 UTF-8 bytes is stored inside the `String` value itself and passes through untouched.
package struct SharedStrings: Sendable {
    private var copies: [String: String] = [:]

    /// An empty set of copies.
    package init() {}

    /// The kept copy of `text` (kept now when it is new).
    package mutating func share(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        if let copy = copies[text] { return copy }
        copies[text] = text
        return text
    }

    /// The kept copy of `text`, nil for nil.
    package mutating func share(_ text: String?) -> String? {
        text.map { share($0) }
    }
}
