#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One stream of text found in an input: the input itself once decompressed, or one regular-file member of a tar
/// or zip archive (decompressed too), named `archive.tar:member` in every location; or why a part cannot be read.
enum InputMember {
    /// Bytes to split into records, reported under `name`.
    case stream(name: String, source: any ByteSource)
    /// A partition file (`PartitionFile`): items already split, each located in its original input.
    case partition(name: String, source: any ByteSource)
    /// A part that is not read: a format asn-migrate does not read (one reject per file or member, naming the format),
    /// or an archive member that failed its check (CRC-32, a compression method not read); reading goes on after it.
    case rejected(ASNError)

    /// How many layers of compression and archives are opened inside each other (a `.tar.gz` is two) before the
    /// rest is one reject: guards against archives nested without end.
    static let maxDepth = 4

    // MARK: - Walking an input

    /// Calls `body` with every text stream of the bytes in `buffer` (named `name`), in order, by their magic bytes:
    /// gzip and zstd are decompressed and looked at again, tar and zip are opened member by member, text is handed
    /// on, anything else is one `.rejected`. A failure to read (a damaged compressed stream, a damaged archive) is
    /// thrown as `ReadFailure`; what `body` throws passes through unchanged. `reading` is the run's.
    /// `knownText`: the bytes are text whatever they start with (the new part of a grown text file).
    static func walk(
        _ buffer: SourceBuffer, name: String, depth: Int, reading: InputReading, knownText: Bool = false,
        _ body: (InputMember) throws -> Void
    ) throws {
        var format = InputFormat.text
        if !knownText {
            do {
                try buffer.fill(atLeast: InputFormat.sampleSize)
                format = InputFormat.detect(
                    UnsafeRawBufferPointer(start: buffer.pending, count: min(buffer.available, InputFormat.sampleSize)))
            } catch {
                throw ReadFailure(error, name: name)
            }
        }
        if format != .text, format != .partition, depth >= maxDepth {
            return try body(
                .rejected(
                    ASNError(
                        .unreadableInput,
                        "'\(ConsoleText.path(name))' is nested \(depth) archives or compressions deep, more than asn-migrate opens (\(maxDepth)); extract it first",
                        at: SourceLocation(path: name))))
        }
        switch format {
        case .text, .partition:
            let tracked = TrackedSource(buffer)
            do {
                try body(
                    format == .partition
                        ? .partition(name: name, source: tracked) : .stream(name: name, source: tracked))
            } catch {
                // Only the failure the stream itself threw is a read failure; anything else is the caller's.
                if let failure = tracked.failure as? ASNError, let thrown = error as? ASNError, thrown == failure {
                    throw ReadFailure(failure, name: name)
                }
                throw error
            }
        case .gzip:
            try walk(
                SourceBuffer(GzipByteSource(upstream: buffer, name: name), name: name), name: name, depth: depth + 1,
                reading: reading, body)
        case .zstd:
            let source: ZstdByteSource
            do {
                source = try ZstdByteSource(upstream: buffer, name: name, reading: reading)
            } catch {
                throw ReadFailure(error, name: name)
            }
            try walk(SourceBuffer(source, name: name), name: name, depth: depth + 1, reading: reading, body)
        case .tar:
            try TarArchive(buffer, name: name).forEachMember { member, source in
                try walkMember(source, name: member, depth: depth + 1, reading: reading, body)
            } rejected: {
                try body(.rejected($0))
            }
            if let problem = buffer.endProblem { try body(.rejected(problem)) }
        case .zip:
            try ZipArchive(buffer, name: name).forEachMember { member, source in
                try walkMember(source, name: member, depth: depth + 1, reading: reading, body)
            } rejected: {
                try body(.rejected($0))
            }
            if let problem = buffer.endProblem { try body(.rejected(problem)) }
        case .unsupported(let format, let advice):
            try body(
                .rejected(
                    ASNError(
                        .unreadableInput,
                        "'\(ConsoleText.path(name))' is in a format asn-migrate does not read: \(format); \(advice)",
                        at: SourceLocation(path: name), group: "a file in a format asn-migrate does not read: \(format)"
                    )))
        }
    }

    /// Walks one archive member; a failure to read it is one `.rejected` for it, and the archive goes on.
    private static func walkMember(
        _ source: any ByteSource, name: String, depth: Int, reading: InputReading,
        _ body: (InputMember) throws -> Void
    ) throws {
        do {
            try walk(SourceBuffer(source, name: name), name: name, depth: depth, reading: reading, body)
        } catch let failure as ReadFailure {
            try body(.rejected(failure.error))
        }
    }

    // MARK: - Failures

    /// A failure to read an input or member, told apart from what the caller's `body` throws.
    struct ReadFailure: Error {
        /// The failure, located.
        let error: ASNError

        /// Wraps `error` (an `ASNError` as byte sources throw, or anything else, described) located in `name`.
        init(_ error: any Error, name: String) {
            if let failure = error as? ReadFailure {
                self.error = failure.error
            } else if let error = error as? ASNError {
                self.error = error.located(in: name)
            } else {
                self.error = ASNError(
                    .unreadableInput, "cannot read input '\(ConsoleText.path(name))': \(error)",
                    at: SourceLocation(path: name))
            }
        }
    }
}

// MARK: - Opening an input

extension InputFile {
    /// Calls `body` with every text stream of this input, in order (`InputMember.walk`): the input itself, or each
    /// member of an archive, decompressed. Throws `.unreadableInput` when the input cannot be opened or read (a
    /// damaged gzip or zstd stream, a damaged archive), after the streams before the failure.
    func forEachMember(_ body: (InputMember) throws -> Void) throws {
        let raw = try openRawSource()
        defer { raw.close() }
        do {
            try InputMember.walk(
                SourceBuffer(raw, name: path), name: path, depth: 0, reading: reading, knownText: shape != nil, body)
        } catch let failure as InputMember.ReadFailure {
            throw failure.error
        }
    }

    /// The input's bytes as they are on disk, from its one opening: the bytes a look took first, then the rest.
    func openRawSource() throws -> PlainByteSource {
        try opening.take(self)
    }
}
