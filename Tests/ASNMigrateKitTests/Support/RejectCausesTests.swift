import Testing

@testable import ASNMigrateKit

/// Rejects grouped by cause: one line per distinct cause and side, with its count and first location.
@Suite struct RejectCausesTests {
    private func columnError(_ cell: String, line: Int) -> ASNError {
        ASNError(
            .wrongFieldType,
            "column 'auto_renew' holds '\(cell)', which is not a whole number; add a boolean conversion",
            at: SourceLocation(path: "subscription_events.csv", line: line, key: "auto_renew"),
            group: "column 'auto_renew' is not a whole number; add a boolean conversion")
    }

    @Test func rejectsOfOneCauseAreOneLineWithCountAndFirstLocation() {
        var causes = RejectCauses()
        for line in 2...13_620 { causes.add(side: "v2", columnError(line % 2 == 0 ? "t" : "f", line: line)) }
        causes.add(
            side: "v2",
            ASNError(.malformedJSON, "unexpected end of input", at: SourceLocation(path: "b.jsonl", line: 9)))
        causes.add(side: "v1", columnError("t", line: 5))
        #expect(causes.causes.map(\.count) == [13_619, 1, 1])
        #expect(causes.causes.map(\.side) == ["v2", "v2", "v1"], "first appearance order; sides kept apart")
        #expect(
            causes.causes[0].line
                == "v2 wrong_field_type: column 'auto_renew' holds 't', which is not a whole number: 13,619 rejected, "
                + "first at subscription_events.csv:2; add a boolean conversion")
        #expect(causes.causes[1].line == "v2 malformed_json: unexpected end of input: 1 rejected, first at b.jsonl:9")
        #expect(RejectCauses.consoleLines(causes.causes).count == 4)
        #expect(RejectCauses.consoleLines([]).isEmpty)
    }

    @Test func messagesDifferingOnlyInNumbersAreOneCause() {
        var causes = RejectCauses()
        for (line, byte) in [(3, 586), (9, 1_204), (12, 77)] {
            causes.add(
                side: "v1",
                ASNError(
                    .malformedJSON,
                    "malformed JSON at byte \(byte) (line 1, column \(byte + 1)): unexpected end of input",
                    at: SourceLocation(path: "a.jsonl", line: line)))
        }
        causes.add(
            side: "v1",
            ASNError(
                .malformedJSON, "malformed JSON at byte 5 (line 1, column 6): unexpected '}'",
                at: SourceLocation(path: "a.jsonl", line: 20)))
        #expect(causes.causes.map(\.count) == [3, 1])
        #expect(
            causes.causes[0].key
                == "malformed_json: malformed JSON at byte # (line #, column #): unexpected end of input")
        #expect(
            causes.causes[0].line.contains(
                "at byte 586 (line 1, column 587): unexpected end of input: 3 rejected, first at a.jsonl:3"))
    }

    @Test func digitsInsideAWordAreANameAndStay() {
        let error = ASNError(
            .notAnObject,
            "record is an array at index 12, not a JSON object; each record must be one V1 notification body (ES256, base64)"
        )
        #expect(
            RejectCauses.key(error).hasSuffix(
                "record is an array at index #, not a JSON object; each record must be one V1 notification body (ES256, base64)"
            ))
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (13_619, "13,619"), (1_234_567, "1,234,567")])
    func countsAreGroupedByThousands(n: Int, text: String) {
        #expect(RejectCauses.grouped(n) == text)
    }
}
