/// A byte source that remembers the error it threw, so that a member's read failure is told apart from what the
/// code reading it throws.
final class TrackedSource: ByteSource {
    /// The source read.
    private let upstream: any ByteSource
    /// The error `readChunk` threw, if it did.
    private(set) var failure: (any Error)?

    /// Tracks `upstream`.
    init(_ upstream: any ByteSource) {
        self.upstream = upstream
    }

    /// The upstream's name.
    var name: String { upstream.name }

    /// Reads from the upstream, remembering a failure.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try upstream.readChunk(into: buffer)
        } catch {
            failure = error
            throw error
        }
    }

    /// Closes the upstream.
    func close() { upstream.close() }

    /// The upstream's trouble at its end.
    var endProblem: ASNError? { upstream.endProblem }
}
