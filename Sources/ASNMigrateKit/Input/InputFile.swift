/// One input to read: a path as given on the command line (or found in a directory), or an open descriptor such as standard input.
///
/// Copies share one `InputOpening`, so a look at the first bytes (format detection, the swapped-sides check) and the
/// reading that follows use the same descriptor: a FIFO or device is opened once.
package struct InputFile: Sendable, Hashable, CustomStringConvertible {
    /// The path as given or joined, or `stdin` for standard input; used in every `SourceLocation`.
    package var path: String
    /// An already-open descriptor to read instead of opening `path` (standard input is 0); the reader never closes it.
    package var descriptor: Int32?
    /// The one opening of this input, shared by its copies.
    let opening = InputOpening()
    /// The run reading this input: its limits, and where the readers note what the job reports.
    package var reading: InputReading
    /// The shape these bytes are split in, known beforehand: the new part of a grown file, read as text in the shape
    /// its first read decided (nothing is sniffed from the new bytes alone). Nil: decided from the bytes.
    var shape: FileShape?

    // MARK: - Creating

    /// An input file at `path`, read by `reading` (a run of its own by default); the path `-` means standard input,
    /// reported as `stdin`.
    package init(path: String, reading: InputReading = InputReading()) {
        self.path = path == "-" ? Self.standardInputName : path
        self.descriptor = path == "-" ? 0 : nil
        self.reading = reading
    }

    /// An input read from an open descriptor (for example one end of a pipe), reported under `name`, read by
    /// `reading`.
    package init(descriptor: Int32, name: String = standardInputName, reading: InputReading = InputReading()) {
        self.path = name
        self.descriptor = descriptor
        self.reading = reading
    }

    /// How standard input is named in sources (`SourceLocation.standardInputName`).
    package static let standardInputName = SourceLocation.standardInputName

    // MARK: - Record size

    /// The reject for a record longer than `limit` bytes (`bytes` long, when known), read past without being kept.
    static func recordTooLarge(bytes: Int?, limit: Int, at location: SourceLocation) -> ASNError {
        let size =
            bytes.map { "of \(RejectCauses.grouped($0)) bytes" } ?? "longer than \(RejectCauses.grouped(limit)) bytes"
        return ASNError(
            .recordTooLarge,
            "a record \(size), over --max-record-bytes (\(RejectCauses.grouped(limit))), was read past without being kept; raise --max-record-bytes if records this long are expected",
            at: location, group: "a record longer than --max-record-bytes (\(RejectCauses.grouped(limit)) bytes)")
    }

    // MARK: - Comparing

    /// Inputs are the same when they name the same path and descriptor (the opening and reading are not compared).
    package static func == (lhs: InputFile, rhs: InputFile) -> Bool {
        lhs.path == rhs.path && lhs.descriptor == rhs.descriptor
    }

    /// Hashes the path and descriptor.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(descriptor)
    }

    // MARK: - Reading the first bytes

    /// Up to `count` first bytes of this input, kept for the reader (`InputOpening.look`): the descriptor opened
    /// here is the one the reading uses.
    func firstBytes(_ count: Int) throws -> [UInt8] {
        try opening.look(self, count: count)
    }

    /// Where a reader of the stream `name` tells the shape it decided: the run's `InputReading.shapes`, for the
    /// input itself (not an archive's member), when the run keeps them.
    func notesShape(of name: String) -> ((FileShape?) -> Void)? {
        guard let shapes = reading.shapes, shape == nil, name == path else { return nil }
        return { [path] in shapes.note($0, for: path) }
    }

    // MARK: - Describing

    /// Whether this input is an already-open descriptor rather than a path to open.
    package var isDescriptor: Bool { descriptor != nil }

    /// The path as reports print it.
    package var description: String { path }
}
