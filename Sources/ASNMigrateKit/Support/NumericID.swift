/// The one rule for the IDs Apple documents as numeric strings (`originalTransactionId`, `transactionId`,
/// `webOrderLineItemId`, V1's `original_transaction_id`, `transaction_id`, `web_order_line_item_id`): 1 to 20 ASCII
/// digits, no sign, exponent, fraction or spaces. Every V1 and V2 reader applies it; anything else is a `bad_id` reject.
package enum NumericID {
    /// The most digits an ID may have (a UInt64 has 20).
    package static let maximumDigits = 20

    /// Whether `text` is 1 to `maximumDigits` ASCII digits and nothing else.
    package static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        return !utf8.isEmpty && utf8.count <= maximumDigits && utf8.allSatisfy { $0 &- 0x30 < 10 }
    }

    /// Whether the bytes `p[start..<end]` are 1 to `maximumDigits` ASCII digits (the fast path's form of `isValid`).
    package static func isValid(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let length = end - start
        guard length > 0, length <= maximumDigits else { return false }
        return ByteTables.allDigits(p + start, length)
    }

    /// The `bad_id` reject for `field` (its dotted path in the record) holding `found` (described, such as
    /// `the string "abc"`), at `location`.
    package static func failure(field: String, found: String, at location: SourceLocation) -> ASNError {
        ASNError(
            .badId,
            "'\(field)' should be a numeric ID (1 to \(maximumDigits) digits, no sign, exponent, fraction or spaces) but is \(found); "
                + "Apple's IDs are digit strings: fix or remove the field in the record",
            at: location.with(key: field),
            group: "'\(field)' is not a numeric ID")
    }
}
