import Testing

@testable import ASNMigrateKit

/// Values from the input reach a terminal or log escaped and cut, never raw.
@Suite struct ConsoleTextTests {
    @Test func controlCharactersAreEscapedAndOrdinaryTextIsKept() {
        #expect(
            ConsoleText.value("EVIL\u{1B}[2J\u{07}\n\r\t\u{0}\u{85}\u{202E}ok")
                == "EVIL\\u{1B}[2J\\u{7}\\n\\r\\t\\u{0}\\u{85}\\u{202E}ok")
        #expect(ConsoleText.value("DID_RENEW, été, 🙂") == "DID_RENEW, été, 🙂")
        #expect(ConsoleText.lines("a\u{1B}[31m\nb") == "a\\u{1B}[31m\nb", "lines keeps the line breaks between lines")
    }

    @Test func aLongValueIsCutWithItsLengthInCharactersOfTheInput() {
        let huge = String(repeating: "A", count: 8_700) + "\u{1B}"
        let shown = ConsoleText.value(huge)
        #expect(shown == String(repeating: "A", count: 200) + "… (8,701 characters)")
        #expect(ConsoleText.value(String(repeating: "B", count: 200)) == String(repeating: "B", count: 200))
    }

    @Test func aMessageLineCutsEachLongRunAndStaysOneLine() {
        let message =
            "unmapped: V1 notification_type '" + String(repeating: "A", count: 1_000) + "\n' has no mapping rule"
        let line = ConsoleText.line(message)
        #expect(!line.contains("\n"))
        #expect(
            line.hasPrefix(
                "unmapped: V1 notification_type '" + String(repeating: "A", count: 199)
                    + "… (1,003 characters) has no mapping rule"))
        let spaced = String(repeating: "word ", count: 2_000)
        #expect(ConsoleText.line(spaced).count < 2_100, "a value full of spaces is cut as a whole")
    }
}
