import Testing

@testable import ASNMigrateKit

@Suite struct CSVFormulaGuardTests {
    @Test(arguments: [
        ("-2+3", "'-2+3"), ("=x", "'=x"), ("@y", "'@y"), ("+1", "'+1"), ("\tz", "'\tz"), ("\rz", "'\rz"),
        ("plain", "plain"), ("'quoted", "'quoted"), ("'=x", "''=x"), ("''@", "'''@"), ("", ""), ("'", "'"),
        ("x=1", "x=1")
    ])
    func guardsExactlyTheFormulaLeaders(value: String, written: String) {
        #expect(CSVFormulaGuard.guarded(value) == written)
        #expect(CSVFormulaGuard.unguarded(written) == value)
    }

    @Test func onlyAGuardIsRemovedOnReading() {
        #expect(CSVFormulaGuard.unguarded("'abc") == "'abc")
        #expect(CSVFormulaGuard.unguarded("'") == "'")
        #expect(CSVFormulaGuard.unguarded("=x") == "=x")
        #expect(CSVFormulaGuard.unguarded("''x") == "''x")
    }

    @Test func everyShortValueSurvivesTheWriterAndTheReader() throws {
        let alphabet = ["'", "=", "+", "-", "@", "\t", "\r", "a", ",", "\"", "\n"]
        var values = [""]
        for _ in 0..<3 { values = values + values.flatMap { v in alphabet.map { v + $0 } } }
        for value in Set(values) {
            let file = CSVWriter.render(header: ["v"], rows: [[value]])
            let records = try CSVReader.read(Array(file.utf8), path: "x.csv").records
            #expect(records.count == 1)
            #expect(
                records.first.map { CSVFormulaGuard.unguarded($0.fields[0]) } == value,
                "\(value.debugDescription) via \(file.debugDescription)")
        }
    }
}
