/// An append-only array kept in chunks of at most 65,536 elements.
///
/// A plain `Array` grows by allocating twice its capacity and copying, so near a million records it briefly holds both
/// the old and the new buffer (about 1.5 times the records' size) and ends with up to half its capacity unused. Here
/// no element ever moves. Reading is one shift and one mask more than an `Array`.
struct ChunkedArray<Element>: RandomAccessCollection {
    /// log2 of the chunk size.
    private static var chunkShift: Int { 16 }
    /// Elements per chunk.
    private static var chunkSize: Int { 1 << chunkShift }
    private var chunks: [[Element]] = []

    /// Creates an empty array.
    init() {}

    /// Always 0.
    var startIndex: Int { 0 }
    /// The number of elements.
    private(set) var endIndex = 0

    /// The element at `position`.
    subscript(position: Int) -> Element {
        chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)]
    }

    /// Adds `element` at the end; never moves the elements of full chunks.
    ///
    /// Each chunk is made with room for all its elements, so the last one does not grow by copies either: a large
    /// chunk is mapped, and its pages count in memory only once written.
    mutating func append(_ element: Element) {
        if endIndex & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        endIndex += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
