/// Hands out bytes held in a `HeldBytes`, for an archive member read whole and checked.
final class HeldSource: ByteSource {
    /// The member's name.
    let name: String
    /// The held bytes.
    private let held: HeldBytes

    /// Hands out `held`, reported as `name`.
    init(_ held: HeldBytes, name: String) {
        self.held = held
        self.name = name
    }

    /// The next held bytes.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try held.read(into: base, count: buffer.count)
    }

    /// Lets the held bytes go.
    func close() { held.reset() }
}
