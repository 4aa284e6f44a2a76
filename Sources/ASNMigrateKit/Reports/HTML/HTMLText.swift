/// Text from the input made safe inside `report.html`: escaped for HTML and XML alike, so the file is well-formed
/// XHTML-compatible HTML5 whatever an archive held.
///
/// Values are untrusted (product ids, sources, field values come from the archives): `&`, `<`, `>`, `"` and `'` become
/// entities, control characters are written as text (`\u{1B}`, as on the console: `ConsoleText`), characters XML
/// forbids (U+FFFE, U+FFFF) likewise, and a value longer than `ConsoleText.limit` characters is cut with its length.
enum HTMLText {
    /// `value` escaped for an element's text or an attribute value (quoted with `"`), cut as the console cuts it.
    static func escape(_ value: String) -> String {
        escapeWhole(ConsoleText.value(value))
    }

    /// `value` escaped for an element's text or an attribute value, never cut (the report's own texts).
    static func escapeWhole(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if isAllowedInXML(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
        return out
    }

    /// Whether XML 1.0 allows `scalar` in a document (`Char`): tab, line feed, carriage return, and everything from
    /// U+0020 on except U+FFFE and U+FFFF (Swift strings hold no lone surrogates).
    static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x00...0x1F, 0xFFFE, 0xFFFF: return false
        default: return true
        }
    }

}
