import Testing

@testable import ASNMigrateKit

/// Money is written with the currency's own decimals (ISO 4217 minor units) and reads back to the same milliunits.
@Suite struct CurrencyAmountTests {
    @Test func eachCurrencyHasItsOwnDecimals() {
        #expect(CurrencyAmount.text(milliunits: 1_990, currency: "USD") == "1.99")
        #expect(CurrencyAmount.text(milliunits: 120_000, currency: "JPY") == "120")
        #expect(CurrencyAmount.text(milliunits: 1_250, currency: "KWD") == "1.250")
        #expect(CurrencyAmount.text(milliunits: 1_250, currency: "BHD") == "1.250")
        #expect(CurrencyAmount.text(milliunits: 1_000, currency: "EUR") == "1.00")
        #expect(CurrencyAmount.text(milliunits: 1_995, currency: "USD") == "1.995", "finer than a cent: kept")
        #expect(CurrencyAmount.text(milliunits: 120_500, currency: "JPY") == "120.5", "finer than a yen: kept")
        #expect(CurrencyAmount.text(milliunits: 1_234_567_000, currency: "USD", grouped: true) == "1,234,567.00")
        #expect(CurrencyAmount.decimals("jpy") == 0 && CurrencyAmount.decimals("XYZ") == 2)
    }

    @Test func textReadsBackToTheSameMilliunitsForRandomAmounts() {
        var random = SplitMix64(seed: 41)
        let currencies = ["USD", "JPY", "KWD", "EUR", "CLF", "KRW", "XXX"]
        for _ in 0..<5_000 {
            let milliunits = Int64(random.next() % 10_000_000_000)
            let currency = currencies[Int(random.next() % UInt64(currencies.count))]
            let text = CurrencyAmount.text(milliunits: milliunits, currency: currency)
            #expect(CurrencyAmount.milliunits(text) == milliunits, "\(milliunits) \(currency) → \(text)")
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            #expect(
                decimals >= CurrencyAmount.decimals(currency) && decimals <= max(3, CurrencyAmount.decimals(currency)))
        }
    }

    @Test(arguments: ["", ".", "1.", ".5", "1.2345", "a", "1,00", "--1", "1e3"])
    func otherTextIsNoAmount(text: String) {
        #expect(CurrencyAmount.milliunits(text) == nil)
    }
}
