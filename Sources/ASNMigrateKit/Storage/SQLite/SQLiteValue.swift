/// A value bound to a statement parameter.
package enum SQLiteValue: Sendable, Equatable {
    /// NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// An optional integer: NULL when nil.
    package static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    /// An optional text: NULL when nil.
    package static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
