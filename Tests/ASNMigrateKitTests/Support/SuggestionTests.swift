import Testing

@testable import ASNMigrateKit

@Suite struct SuggestionTests {
    static let suggestions: [(String, [String], String?)] = [
        ("--outt", ["--out", "--format"], "--out"),
        ("--ign", ["--ignore-field", "--in"], "--ignore-field"),
        ("--fromat", ["--format"], "--format"),
        ("-x", ["-o", "--out"], nil),
        ("xyz", ["migrate", "reconcile"], nil),
        ("simulat", ["simulate", "migrate"], "simulate")
    ]

    @Test(arguments: suggestions)
    func suggestsClosest(typed: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: typed, among: candidates) == expected)
    }

    @Test func editDistanceCountsSwapsAsOne() {
        #expect(Suggestion.editDistance(Array("form"), Array("from")) == 1)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
