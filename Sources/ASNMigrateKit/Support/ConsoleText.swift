/// Text from the input made safe for a terminal or a log: control characters escaped, long values cut.
///
/// A value read from an archive (an unknown `notification_type`, a malformed line) may hold escape sequences, line
/// breaks or megabytes; printed raw it could rewrite the terminal, forge log lines or flood the log. The console and
/// logs get it escaped and cut to `limit` characters with its length; the rejects files keep it whole.
package enum ConsoleText {
    /// How many characters of one value the console shows.
    package static let limit = 200

    /// `value` with control characters escaped (`\n`, `\t`, `\r`, `\u{1B}` …) and, when longer than `limit`
    /// characters, cut there with its length: `abc… (8,700,000 characters)`.
    package static func value(_ value: String, limit: Int = limit) -> String {
        var out = ""
        var count = 0
        var cut = false
        for character in value {
            count += 1
            if count > limit {
                cut = true
                continue
            }
            escape(character, into: &out)
        }
        return cut ? out + "… (\(RejectCauses.grouped(count)) characters)" : out
    }

    /// A file name as every console line, log line and report prints it: control characters escaped (`\n`, `\t`,
    /// `\u{1B}` …), never cut, so a name holding a line break cannot forge a line of its own.
    package static func path(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: isControl) else { return path }
        var out = ""
        for character in path { escape(character, into: &out) }
        return out
    }

    /// One console or log line built from messages that may hold input values: every control character escaped
    /// (line breaks included, so one message stays one line), and every run of more than `limit` characters without
    /// a space cut as `value` cuts it; a line still longer than ten times `limit` (a value full of spaces) is cut there too.
    package static func line(_ text: String, limit: Int = limit) -> String {
        var out = ""
        var run = ""
        for character in text {
            if character == " " {
                out += value(run, limit: limit)
                run = ""
                out.append(" ")
            } else {
                run.append(character)
            }
        }
        out += value(run, limit: limit)
        return out.count > 10 * limit ? value(out, limit: 10 * limit) : out
    }

    /// Text for a terminal or log that may span lines: control characters other than the line breaks between its
    /// lines escaped, so no escape sequence from the input reaches the terminal whatever path it took.
    package static func lines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { part in
            var out = ""
            for character in part { escape(character, into: &out) }
            return out
        }.joined(separator: "\n")
    }

    /// Whether `scalar` is a C0 or C1 control, DEL, a line or paragraph separator or a bidirectional override.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Appends `character`, its control scalars escaped.
    private static func escape(_ character: Character, into out: inout String) {
        guard character.unicodeScalars.contains(where: isControl) else {
            out.append(character)
            return
        }
        for scalar in character.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isControl(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u{" + hex + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
