/// One declared command-line option: `--out FILE`, `-n`, `--ignore-field NAME` (repeatable), …
package struct OptionSpec: Sendable, Equatable {
    /// How often an option may appear and whether it carries a value.
    package enum Kind: Sendable, Equatable {
        /// No value; present or not (may be repeated harmlessly).
        case flag
        /// Exactly one value; giving it twice is an error.
        case single
        /// A value each time; may be given any number of times.
        case repeatable
    }

    /// What a value must look like; checked while parsing, so bad values fail before any work starts.
    package enum ValueKind: Sendable, Equatable {
        /// Any text.
        case text
        /// One of the listed words, exactly.
        case choice([String])
        /// A whole number, optionally within a range.
        case integer(ClosedRange<Int>?)
        /// A duration such as `48h`, `90m`, `3600s`, `2d`, `1h30m` or `500ms`.
        case duration
    }

    /// What an option's value names when the command writes there.
    package enum Output: Sendable, Equatable {
        /// A file the command writes (replaced atomically, or written through when it is a device or FIFO).
        case file
        /// A folder the command fills or replaces.
        case folder
    }

    /// The long name with its dashes, such as `--out`.
    package var long: String
    /// The short name with its dash, such as `-o`, if any.
    package var short: String?
    /// Flag, single value or repeatable value.
    package var kind: Kind
    /// The value's placeholder in help and errors, such as `FILE`.
    package var valueName: String
    /// One line of help.
    package var help: String
    /// The value used when the option is not given, shown in help.
    package var defaultValue: String?
    /// What values are accepted.
    package var valueKind: ValueKind
    /// Set when the value names a file or folder the command writes, so tests enumerate every output option from
    /// the specs (`OutputOptionMatrixTests`); nil for everything the command only reads.
    package var output: Output?

    /// Creates an option spec; prefer `.flag`, `.single` and `.repeatable`.
    package init(
        _ long: String, short: String? = nil, kind: Kind, valueName: String = "VALUE", help: String,
        defaultValue: String? = nil, valueKind: ValueKind = .text, output: Output? = nil
    ) {
        self.output = output
        self.long = long
        self.short = short
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.valueKind = valueKind
    }

    // MARK: - Convenience

    /// A flag such as `--dry-run`.
    package static func flag(_ long: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(long, short: short, kind: .flag, valueName: "", help: help)
    }

    /// An option taking one value, such as `--out FILE`; `output` marks a value naming what the command writes.
    package static func single(
        _ long: String, short: String? = nil, valueName: String, help: String, defaultValue: String? = nil,
        valueKind: ValueKind = .text, output: Output? = nil
    ) -> OptionSpec {
        OptionSpec(
            long, short: short, kind: .single, valueName: valueName, help: help, defaultValue: defaultValue,
            valueKind: valueKind, output: output)
    }

    /// An option that may be given several times, such as `--ignore-field NAME`.
    package static func repeatable(
        _ long: String, short: String? = nil, valueName: String, help: String, valueKind: ValueKind = .text
    ) -> OptionSpec {
        OptionSpec(long, short: short, kind: .repeatable, valueName: valueName, help: help, valueKind: valueKind)
    }

    /// `-o, --out FILE` or `--dry-run`, as help and usage show it.
    package var synopsis: String {
        var text = short.map { "\($0), " } ?? ""
        text += long
        if kind != .flag { text += " \(valueName)" }
        return text
    }
}
