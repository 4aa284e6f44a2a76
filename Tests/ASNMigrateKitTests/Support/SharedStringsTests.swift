import Testing

@testable import ASNMigrateKit

/// One kept copy per repeated text: equal values, one storage.
@Suite struct SharedStringsTests {
    /// Where a string's bytes live (nil for text stored inside the value).
    private static func storage(_ text: String) -> UnsafeRawPointer? {
        var copy = text
        return copy.withUTF8 { $0.count > 15 ? UnsafeRawPointer($0.baseAddress) : nil }
    }

    /// Equal long texts made apart end up in one storage; short texts pass through; values never change.
    @Test func equalTextsShareOneStorage() {
        var strings = SharedStrings()
        let first = String(decoding: Array("com.example.app.premium.monthly".utf8), as: UTF8.self)
        let second = String(decoding: Array("com.example.app.premium.monthly".utf8), as: UTF8.self)
        #expect(Self.storage(first) != Self.storage(second))
        let a = strings.share(first)
        let b = strings.share(second)
        #expect(a == first && b == second)
        #expect(Self.storage(a) == Self.storage(b))
        #expect(strings.share("PURCHASED") == "PURCHASED")
        #expect(strings.share(nil as String?) == nil)
    }

}
