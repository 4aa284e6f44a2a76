import Testing

@testable import ASNMigrateKit

/// The pair form of `UTF8Order.precedes` orders exactly as the list form does on two-element lists, ties, shared
/// prefixes, non-ASCII and empty texts included.
@Suite struct UTF8OrderTests {
    @Test func pairsOrderAsTwoElementLists() {
        let texts = ["", "Production", "Sandbox", "PROD", "1", "10", "2", "é", "e", "Z", "a", "2000000123"]
        var r = SplitMix64(seed: 61)
        for _ in 0..<4_000 {
            let a = (texts[r.below(texts.count)], texts[r.below(texts.count)])
            let b = r.below(4) == 0 ? a : (texts[r.below(texts.count)], texts[r.below(texts.count)])
            #expect(UTF8Order.precedes(a, b) == UTF8Order.precedes([a.0, a.1], [b.0, b.1]), "\(a) and \(b)")
        }
        #expect(UTF8Order.precedes(("Production", "2"), ("Production", "10")) == false, "bytes, not numbers")
        #expect(UTF8Order.precedes(("Production", "9"), ("Sandbox", "1")))
    }
}
