/// One input to read: a path as given on the command line (or found in a directory), or an open descriptor such as standard input.
package struct InputFile: Sendable, Hashable, CustomStringConvertible {
    /// The path as given or joined, or `stdin` for standard input; used in every `SourceLocation`.
    package var path: String
    /// An already-open descriptor to read instead of opening `path` (standard input is 0); the reader never closes it.
    package var descriptor: Int32?

    // MARK: - Creating

    /// An input file at `path`; the path `-` means standard input, reported as `stdin`.
    package init(path: String) {
        self.path = path == "-" ? Self.standardInputName : path
        self.descriptor = path == "-" ? 0 : nil
    }

    /// An input read from an open descriptor (for example one end of a pipe), reported under `name`.
    package init(descriptor: Int32, name: String = standardInputName) {
        self.path = name
        self.descriptor = descriptor
    }

    /// How standard input is named in sources (`SourceLocation.standardInputName`).
    package static let standardInputName = SourceLocation.standardInputName

    /// Standard input, reported as `stdin`.
    package static let standardInput = InputFile(path: "-")

    // MARK: - Describing

    /// Whether this input is an already-open descriptor rather than a path to open.
    package var isDescriptor: Bool { descriptor != nil }

    /// The path as reports print it.
    package var description: String { path }
}
