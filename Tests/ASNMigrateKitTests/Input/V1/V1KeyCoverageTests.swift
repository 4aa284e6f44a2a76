import Foundation
import Testing

@testable import ASNMigrateKit

/// Every `V1Key`, at every level of a body, decoded by the reference (`V1FieldReader`) and by the fast path
/// (`TapeFieldSource`): both give the same body, and every field of every V1 model is filled by some key on the fast
/// path. A field added to a model but read only by one path, or a key the fast path's table does not see, fails here.
@Suite struct V1KeyCoverageTests {
    /// Where a key is placed in the probe body.
    enum Level: CaseIterable {
        /// The body's top level.
        case top
        /// `unified_receipt`.
        case unified
        /// A `latest_receipt_info` entry.
        case transaction
        /// A `pending_renewal_info` entry.
        case pending
    }

    /// A body with `member` spliced into `level` (or nowhere when nil).
    static func probe(_ member: String?, at level: Level) -> String {
        func at(_ l: Level) -> String { member.map { l == level ? ",\($0)" : "" } ?? "" }
        return #"{"notification_type":"DID_RENEW""# + at(.top)
            + #","unified_receipt":{"status":0"# + at(.unified)
            + #","latest_receipt_info":[{"quantity_unused":0"# + at(.transaction) + "}]"
            + #","pending_renewal_info":[{"unused":0"# + at(.pending) + "}]}}"
    }

    /// The reference decoding, or nil when it rejects.
    static func reference(_ text: String) -> ResponseBodyV1? {
        guard let value = try? JSONParser(skippingKeys: Envelope.secretKeys).parse(Array(text.utf8)),
            let unwrapped = try? Envelope.unwrap(
                value, parser: JSONParser(), location: SourceLocation(path: "t", line: 1))
        else { return nil }
        return try? ResponseBodyV1(unwrapped.body, location: SourceLocation(path: "t", line: 1))
    }

    /// The fast path's decoding, or nil when it declines.
    static func fast(_ text: String) -> ResponseBodyV1? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> ResponseBodyV1? in
            guard let base = buffer.baseAddress else { return nil }
            var tape = JSONTape(base: base, count: buffer.count)
            guard tape.build() else { return nil }
            return try? TapeV1Decoder(tape: tape).decode().body
        }
    }

    /// The labels of the non-nil optional fields of a model value, prefixed by `prefix`.
    static func filled(_ value: Any, _ prefix: String) -> Set<String> {
        var labels: Set<String> = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let inner = Mirror(reflecting: child.value)
            if inner.displayStyle == .optional, inner.children.isEmpty { continue }
            if inner.displayStyle == .optional || label == "notificationType" { labels.insert(prefix + label) }
        }
        return labels
    }

    /// Every optional field of the three V1 models, as `filled` names them.
    static func allFields() -> Set<String> {
        func optionals(_ value: Any, _ prefix: String) -> Set<String> {
            Set(
                Mirror(reflecting: value).children.compactMap { child in
                    Mirror(reflecting: child.value).displayStyle == .optional ? child.label.map { prefix + $0 } : nil
                })
        }
        return optionals(ResponseBodyV1(notificationType: "X"), "body.")
            .union(optionals(LatestReceiptInfo(), "transaction."))
            .union(optionals(PendingRenewalInfo(), "pending."))
    }

    /// The fields filled in a decoded body.
    static func fields(of body: ResponseBodyV1) -> Set<String> {
        var labels = filled(body, "body.")
        labels.remove("body.notificationType")
        for t in body.transactions { labels.formUnion(filled(t, "transaction.")) }
        for p in body.pendingRenewalInfo { labels.formUnion(filled(p, "pending.")) }
        return labels
    }

    @Test func bothPathsReadEveryKeyAtEveryLevelAlike() throws {
        let empty = try #require(Self.fast(Self.probe(nil, at: .top)), "the empty probe must take the fast path")
        #expect(empty == Self.reference(Self.probe(nil, at: .top)))
        var seenFast: Set<String> = []
        var fastAnswers = 0
        for key in V1Key.allCases {
            for name in [key.name, key.millisecondsName] {
                for level in Level.allCases {
                    // "1" is readable by every scalar rule (text, identifier, boolean, code, date).
                    let text = Self.probe("\"\(name)\":\"1\"", at: level)
                    let expected = Self.reference(text)
                    let answered = Self.fast(text)
                    if let answered {
                        fastAnswers += 1
                        #expect(
                            answered == expected,
                            "\(name) at \(level): fast \(answered) vs reference \(String(describing: expected))")
                        seenFast.formUnion(Self.fields(of: answered))
                    } else {
                        // Declining is only right where the reference rejects (lists and objects given a string).
                        #expect(
                            expected == nil, "the fast path declined \(name) at \(level), which the reference reads")
                    }
                }
            }
        }
        #expect(fastAnswers > V1Key.allCases.count)
        let missing = Self.allFields().subtracting(seenFast)
        #expect(missing.isEmpty, "fields no V1Key fills on the fast path: \(missing.sorted())")
    }

    @Test func everyKeyNameIsDistinctAndFoundInTheFastTable() {
        let names = V1Key.allCases.flatMap { [$0.name, $0.millisecondsName] }
        #expect(Set(names).count == names.count)
        for key in V1Key.allCases {
            for (name, slot) in [(key.name, V1Keys.slot(key)), (key.millisecondsName, V1Keys.millisecondsSlot(key))] {
                let bytes = Array(name.utf8)
                let found = bytes.withUnsafeBufferPointer { b in
                    b.baseAddress.flatMap { V1Keys.table.lookup($0, b.count) }
                }
                #expect(found == slot, "\(name)")
            }
        }
    }
}
