@testable import ASNMigrateKit

/// Random JSON values and texts for tests, written independently of `JSONWriter` so they can check it.
enum JSONSamples {
    // MARK: - Values

    /// Pieces random strings are made of: plain text, characters that need escaping, and non-ASCII of every UTF-8 length.
    static let stringPieces = [
        "a", "Z", "0", " ", "abc", "latest_receipt", "product_id", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}",
        "\u{0}",
        "\u{1F}", "\u{7F}", "\u{80}", "é", "e\u{301}", "\u{7FF}", "中文", "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}",
        "1000000000000000123", "MIIT", "=="
    ]
    /// Keys random objects use; small, so duplicates and skipped keys occur.
    static let keys = [
        "a", "b", "", "latest_receipt", "password", "é", "status", "a\"b", "original_transaction_id",
        "original_transaction_ix", "latest_receipt_info"
    ]

    /// A random value nested at most `depth` levels.
    static func value(using random: inout SplitMix64, depth: Int) -> JSONValue {
        let kind = depth > 0 ? random.below(10) : random.below(6)
        switch kind {
        case 0: return .null
        case 1: return .bool(random.oneIn(2))
        case 2, 3: return .number(number(using: &random))
        case 4, 5: return .string(string(using: &random))
        case 6, 7:
            return .array((0..<random.below(5)).map { _ in value(using: &random, depth: depth - 1) })
        default:
            let members = (0..<random.below(5)).map { _ in
                JSONObject.Member(key: random.pick(keys), value: value(using: &random, depth: depth - 1))
            }
            return .object(JSONObject(members))
        }
    }

    /// A random number literal that follows the JSON grammar.
    static func number(using random: inout SplitMix64) -> String {
        var text = random.oneIn(3) ? "-" : ""
        if random.oneIn(4) {
            text += "0"
        } else {
            text += String(1 + random.below(9))
            for _ in 0..<random.pick([0, 1, 3, 9, 15, 18, 19, 25]) { text += String(random.below(10)) }
        }
        if random.oneIn(3) {
            text += "."
            for _ in 0..<(1 + random.below(12)) { text += String(random.below(10)) }
        }
        if random.oneIn(4) {
            text += random.pick(["e", "E"]) + random.pick(["", "+", "-"])
            for _ in 0..<(1 + random.below(3)) { text += String(random.below(10)) }
        }
        return text
    }

    /// A random string of 0–7 pieces.
    static func string(using random: inout SplitMix64) -> String {
        (0..<random.below(8)).map { _ in random.pick(stringPieces) }.joined()
    }

    // MARK: - Texts

    /// `value` written as JSON with random whitespace and a random mix of escaped and raw characters.
    static func text(_ value: JSONValue, using random: inout SplitMix64) -> [UInt8] {
        var out: [UInt8] = []
        write(value, to: &out, using: &random)
        space(&out, using: &random)
        return out
    }

    /// Appends `value` preceded by random whitespace.
    private static func write(_ value: JSONValue, to out: inout [UInt8], using random: inout SplitMix64) {
        space(&out, using: &random)
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): quote(text, to: &out, using: &random)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    space(&out, using: &random)
                    out.append(UInt8(ascii: ","))
                }
                write(element, to: &out, using: &random)
            }
            space(&out, using: &random)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 {
                    space(&out, using: &random)
                    out.append(UInt8(ascii: ","))
                }
                space(&out, using: &random)
                quote(member.key, to: &out, using: &random)
                space(&out, using: &random)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out, using: &random)
            }
            space(&out, using: &random)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends 0–2 random whitespace bytes.
    private static func space(_ out: inout [UInt8], using random: inout SplitMix64) {
        for _ in 0..<random.pick([0, 0, 0, 1, 2]) { out.append(random.pick([0x20, 0x20, 0x0A, 0x09, 0x0D])) }
    }

    /// Appends `text` quoted, each character escaped when it must be and sometimes when it need not be.
    private static func quote(_ text: String, to out: inout [UInt8], using random: inout SplitMix64) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let short: [UInt32: String] = [
                0x22: "\\\"", 0x5C: "\\\\", 0x2F: "\\/", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"
            ]
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || random.oneIn(5) {
                if let escape = short[scalar.value], random.oneIn(2) || scalar.value >= 0x20 {
                    out += Array(escape.utf8)
                } else if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    out += unicodeEscape(0xD800 + (offset >> 10), using: &random)
                    out += unicodeEscape(0xDC00 + (offset & 0x3FF), using: &random)
                } else {
                    out += unicodeEscape(scalar.value, using: &random)
                }
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX` for one UTF-16 code unit, in random hex case.
    private static func unicodeEscape(_ unit: UInt32, using random: inout SplitMix64) -> [UInt8] {
        let hex = String(unit, radix: 16, uppercase: random.oneIn(2))
        return Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
    }
}
