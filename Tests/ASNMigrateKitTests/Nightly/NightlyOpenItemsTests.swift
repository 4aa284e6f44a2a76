import Foundation
import Testing

@testable import ASNMigrateKit

/// A night re-pairs only what can have changed (new or changed records, the period's moved edges, pending items);
/// an open difference of a subscription left alone stands as it was, and its `last_seen` is still tonight.
@Suite(.serialized) struct NightlyOpenItemsTests {
    @Test func aQuietNightKeepsEveryOpenDifferenceAndSeesItTonight() throws {
        let w = try NightlyWorkspace.simulated([
            "--subscribers", "60", "--seed", "9", "--months", "2", "--inject", "0.2"
        ])
        defer { w.remove() }
        _ = try w.run("2021-04-01")
        let before = try w.rows("2021-04-01", "open.csv")
        #expect(before.count > 5, "injected faults give open differences (not vacuous): \(before.count)")
        let quiet = try w.run("2021-04-02")
        #expect(quiet.stderr.contains(" 0 subscription(s) re-paired"), "\(quiet.stderr)")
        let after = try w.rows("2021-04-02", "open.csv")
        // The same rows, first seen the first night, last seen tonight.
        #expect(after.map { $0.dropLast(2) } == before.map { $0.dropLast(2) })
        #expect(after.allSatisfy { $0[$0.count - 2] == "2021-04-01" && $0.last == "2021-04-02" }, "\(after.prefix(2))")
    }
}
