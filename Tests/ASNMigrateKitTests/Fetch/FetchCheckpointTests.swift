import Foundation
import Testing

@testable import ASNMigrateKit

/// The journal behind resumable fetches: a torn last entry (a SIGKILL mid-write) is cut off, nothing before it lost.
@Suite struct FetchCheckpointTests {
    @Test(arguments: [1, 10, 30, 45])
    func tornLastEntryIsCutOffOnReopen(cut: Int) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var entry = FetchCheckpoint.Entry(kind: "history", environment: "Production", id: "1000", generation: 0)
        entry.revision = "r1"
        entry.hasMore = true
        do {
            let journal = try FetchCheckpoint(directory: tmp.path)
            try journal.append(entry, body: Array("{\"revision\":\"r1\",\n\"hasMore\":true}".utf8))
            try journal.append(FetchCheckpoint.Entry(kind: "done", environment: "Production", id: "1000"))
        }
        let path = tmp.path + "/" + FetchCheckpoint.fileName
        let complete = try Data(contentsOf: URL(fileURLWithPath: path))
        // A third entry torn after `cut` bytes.
        let torn =
            Array(#"{"kind":"history","environment":"Production","id":"2000","generation":0,"bytes":20}"#.utf8) + [0x0A]
            + Array("{\"revision\":\"x\"}   ".utf8) + [0x0A]
        try (complete + Data(torn.prefix(cut))).write(to: URL(fileURLWithPath: path))
        let reopened = try FetchCheckpoint(directory: tmp.path)
        #expect(reopened.entries.map(\.kind) == ["history", "done"])
        #expect(
            try reopened.body(of: reopened.entries[0]) == Array("{\"revision\":\"r1\", \"hasMore\":true}".utf8),
            "line breaks become spaces")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == complete, "the torn bytes are gone")
    }
}
