import Testing

@testable import ASNMigrateKit

/// The chunked record store behaves as an array across chunk boundaries.
@Suite struct ChunkedArrayTests {
    @Test func keepsEveryElementInOrderAcrossChunks() {
        var chunked = ChunkedArray<Int>()
        #expect(chunked.isEmpty && chunked.count == 0)
        let count = (1 << 16) * 2 + 3
        for value in 0..<count { chunked.append(value &* 7) }
        #expect(chunked.count == count)
        #expect(chunked.indices == 0..<count)
        for position in [0, 1, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, 2 << 16, count - 1] {
            #expect(chunked[position] == position &* 7)
        }
        #expect(Array(chunked) == (0..<count).map { $0 &* 7 })
        #expect(chunked.lazy.filter { $0 % 2 == 1 }.count == count / 2)
    }
}
