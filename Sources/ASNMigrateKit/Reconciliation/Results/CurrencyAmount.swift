/// Money as the reports write it: V2's `price` (milliunits: 1,000 are one unit of `currency`) shown with the
/// currency's own decimals, its ISO 4217 minor unit (JPY 0, USD 2, KWD and BHD 3), never losing a milliunit.
package enum CurrencyAmount {
    /// ISO 4217 minor units of the currencies whose minor unit is not 2 (every other code, known or not, has 2).
    static let minorUnits: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0, "UGX": 0,
        "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4
    ]

    /// The decimals `currency` is written with: its ISO 4217 minor unit, 2 when it has no other.
    package static func decimals(_ currency: String) -> Int {
        minorUnits[currency.uppercased()] ?? 2
    }

    /// `1.99` for 1990 milliunits of USD, `120` for 120,000 of JPY, `1.250` for 1250 of KWD; a value finer than the
    /// currency's minor unit keeps its milliunits (`1.995`). `grouped` puts commas between thousands
    /// (`1,234.50`), for people; the CSV files write none.
    package static func text(milliunits: Int64, currency: String, grouped: Bool = false) -> String {
        let sign = milliunits < 0 ? "-" : ""
        let magnitude = milliunits.magnitude
        let units = magnitude / 1000
        let fraction = Int64(magnitude % 1000)
        var digits = decimals(currency)
        // Never lose a milliunit: a value with more decimals than the currency has is written with them.
        while digits < 3 && fraction % power(3 - digits) != 0 { digits += 1 }
        var text = sign + (grouped ? group(units) : String(units))
        guard digits > 0 else { return text }
        let fractionText = String(fraction)
        var decimalsText = String(repeating: "0", count: 3 - fractionText.count) + fractionText
        if digits < 3 {
            decimalsText = String(decimalsText.prefix(digits))
        } else {
            decimalsText += String(repeating: "0", count: digits - 3)
        }
        text += "." + decimalsText
        return text
    }

    /// The milliunits `text` (as `text(milliunits:currency:)` writes it, without grouping) stands for; nil when it
    /// is not such a number or is finer than a milliunit.
    package static func milliunits(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), let units = Int64(whole)
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let decimals = parts[1]
            guard !decimals.isEmpty, decimals.allSatisfy(\.isASCIIDigit) else { return nil }
            let kept = decimals.prefix(3)
            guard decimals.dropFirst(3).allSatisfy({ $0 == "0" }), let value = Int64(kept) else { return nil }
            fraction = value * power(3 - kept.count)
        }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let (sum, overflowSum) = scaled.addingReportingOverflow(fraction)
        guard !overflowSum else { return nil }
        return negative ? -sum : sum
    }

    /// 10 to the power `n` (0 to 3).
    private static func power(_ n: Int) -> Int64 {
        [1, 10, 100, 1000][n]
    }

    /// `1,234,567`.
    private static func group(_ n: UInt64) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}

extension Character {
    /// Whether the character is one of `0`–`9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
