import Foundation
import Testing

@testable import ASNMigrateKit

/// `StringPool` interns by bytes as by `String`, and `FactTexts` carries a worker's texts to it unchanged.
@Suite struct StringPoolTests {
    /// A random text: digits (packed or not), ASCII words, empty, or non-ASCII.
    static func text(_ r: inout SplitMix64) -> String {
        switch r.below(6) {
        case 0: return String(r.next() % 1_000_000_000_000_000_000)
        case 1: return "0" + String(r.below(1000))
        case 2: return ""
        case 3: return "é\(r.below(50))ü"
        case 4: return String(repeating: "9", count: 18 + r.below(4))
        default: return "com.example.product.\(r.below(300))"
        }
    }

    @Test func bytesAndStringsGiveTheSameTokensAndTextsComeBack() {
        var r = SplitMix64(seed: 3)
        var byString = StringPool()
        var byBytes = StringPool()
        var texts = FactTexts()
        var tokens: [String: StringPool.Token] = [:]
        for _ in 0..<20_000 {
            let text = Self.text(&r)
            let a = byString.token(text)
            var copy = text
            let b = copy.withUTF8 { byBytes.token(bytes: UnsafeRawBufferPointer($0)) }
            #expect(a == b, "\(text)")
            #expect(byString.text(a) == text, "\(text)")
            if let earlier = tokens[text] { #expect(earlier == a, "the same text got another token: \(text)") }
            tokens[text] = a
            let fact = texts.add(text)
            #expect(texts.string(fact) == text)
            #expect(byBytes.token(fact, in: texts) == a, "\(text)")
            #expect(texts.withBytes(fact) { $0.map { String(decoding: $0, as: UTF8.self) } } == text)
        }
        // Distinct texts, distinct tokens; numbers are packed, not stored.
        #expect(Set(tokens.values).count == tokens.count)
        #expect(byString.count == byBytes.count && byString.count < tokens.count)
        #expect(byString.token(nil) == 0 && texts.add(nil) == .absent && texts.string(.absent) == nil)
    }

    @Test func textsASpanCannotHoldAreKeptWholeAndInternedAlike() {
        // A store whose spans hold 6 bytes and start within its first 40: longer texts, and every text once the
        // store is past 40 bytes, are kept whole.
        var r = SplitMix64(seed: 5)
        var texts = FactTexts(spanLimit: 6)
        var pool = StringPool()
        var reference = StringPool()
        var long = 0
        for _ in 0..<2_000 {
            let text = Self.text(&r)
            let fact = texts.add(text)
            if fact.isLong { long += 1 }
            #expect(texts.string(fact) == text, "\(text)")
            #expect(texts.withBytes(fact) { $0.map { String(decoding: $0, as: UTF8.self) } } == text)
            #expect(pool.token(fact, in: texts) == reference.token(text), "\(text)")
            #expect(texts.equals(fact, "FAMILY_SHARED") == (text == "FAMILY_SHARED"))
        }
        #expect(long > 500, "only \(long) long texts")
        texts.removeAll()
        let short = texts.add("abc")
        #expect(!short.isLong && texts.string(short) == "abc")
    }

    @Test func equalsComparesTheWholeText() {
        var texts = FactTexts()
        let same = texts.add("FAMILY_SHARED")
        let longer = texts.add("FAMILY_SHARED_")
        let shorter = texts.add("FAMILY")
        let empty = texts.add("")
        #expect(texts.equals(same, "FAMILY_SHARED"))
        #expect(!texts.equals(longer, "FAMILY_SHARED"))
        #expect(!texts.equals(shorter, "FAMILY_SHARED"))
        #expect(texts.equals(empty, ""))
        #expect(!texts.equals(.absent, ""))
    }
}
