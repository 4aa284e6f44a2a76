/// The positional arguments a command takes, such as one or more `PATH`s.
package struct PositionalSpec: Sendable, Equatable {
    /// The placeholder in usage and help, such as `PATH`.
    package var name: String
    /// One line of help.
    package var help: String
    /// Fewest positionals accepted.
    package var minCount: Int
    /// Most positionals accepted; nil for no limit.
    package var maxCount: Int?
    /// Whether `-` (standard input) may be given, at most once.
    package var acceptsStandardInput: Bool
    /// What to tell the user when too few are given, such as `give at least one input file or directory, or '-' for standard input`.
    package var missingHint: String?

    /// Creates a positional spec.
    package init(
        name: String, help: String, minCount: Int = 0, maxCount: Int? = nil, acceptsStandardInput: Bool = false,
        missingHint: String? = nil
    ) {
        self.name = name
        self.help = help
        self.minCount = minCount
        self.maxCount = maxCount
        self.acceptsStandardInput = acceptsStandardInput
        self.missingHint = missingHint
    }

    /// `PATH`, `[PATH]`, `PATH...` or `[PATH...]`, as the usage line shows it.
    package var synopsis: String {
        let many = maxCount.map { $0 > 1 } ?? true
        let text = name + (many ? "..." : "")
        return minCount == 0 ? "[\(text)]" : text
    }
}
