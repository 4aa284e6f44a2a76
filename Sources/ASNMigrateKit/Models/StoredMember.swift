/// How the nightly state's one codec (`StateCodec`) keeps one member of a model: its tag, fixed by hand beside the
/// member it tags (never changed or reused; a new member takes its model's next free tag), and the kind of its values.
/// A model's tags are its `storedMembers`, keyed by Apple's key as its `visitMembers` names it.
package struct StoredMember: Sendable, Equatable {
    /// How a member's values are kept.
    package enum Kind: Sendable {
        /// An identifier: its number when a canonical decimal, else its text.
        case id
        /// A text many records repeat, kept once in the state's `texts`.
        case shared
        /// A text of its own (a token, a UUID), kept inline.
        case text
        /// An epoch-millisecond date.
        case date
        /// A number.
        case number
        /// A flag.
        case flag
    }

    /// The tag written before its value; never reused for another member.
    package let tag: UInt64
    /// How its value is kept.
    package let kind: Kind

    /// A member with `tag`, kept as `kind`.
    package init(_ tag: UInt64, _ kind: Kind) {
        self.tag = tag
        self.kind = kind
    }
}
