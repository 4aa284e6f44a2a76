/// Guards `reconcile` against `--v1` and `--v2` given the wrong way round, and `migrate` against V2 data: it looks at
/// the first bytes of each side's first files for the keys only the other side's records carry.
package enum SwappedSidesCheck {
    /// Keys only V1 bodies carry (escaped or not, so an envelope's string payload counts too).
    static let v1Markers = ["notification_type", "unified_receipt"]
    /// Keys only V2 notifications carry.
    static let v2Markers = ["signedPayload", "notificationType"]
    /// How many bytes of a file are looked at.
    static let sampleBytes = 65_536
    /// How many files of a side are looked at.
    static let sampleFiles = 3

    /// What the first records of a side look like.
    package enum Look: Sendable, Equatable {
        /// V1 bodies (`notification_type` / `unified_receipt`, no V2 key).
        case v1
        /// V2 notifications (`signedPayload` / `notificationType`, no V1 key).
        case v2
        /// Neither, both, or nothing read.
        case unknown
    }

    /// What `bytes` (the start of a file) look like.
    package static func look(_ bytes: [UInt8]) -> Look {
        let text = String(decoding: bytes, as: UTF8.self)
        let v1 = v1Markers.contains { text.contains($0) }
        let v2 = v2Markers.contains { text.contains($0) }
        if v1 && !v2 { return .v1 }
        if v2 && !v1 { return .v2 }
        return .unknown
    }

    /// What the first files of a side look like: the first of them that looks like either side (files that cannot be
    /// read, standard input and CSV exports are passed over: reading reports those).
    package static func look(files: [InputFile]) -> Look {
        var looked = 0
        for file in files where !file.isDescriptor && !V2RecordReader.isCSV(file.path) && looked < sampleFiles {
            looked += 1
            let found = look(sample(file))
            if found != .unknown { return found }
        }
        return .unknown
    }

    /// The usage error for swapped sides, or nil when each side looks like its own (or cannot be told).
    package static func problem(v1: Look, v2: Look) -> ASNError? {
        let advice =
            "swap the paths given to --v1 and --v2 (or pass --force if the files really are what they are given as)"
        if v1 == .v2 {
            let also = v2 == .v1 ? ", and the --v2 files hold V1 bodies (notification_type)" : ""
            return ASNError(
                .usage,
                "the --v1 files hold V2 notifications (signedPayload / notificationType), not V1 bodies\(also); \(advice)"
            )
        }
        if v2 == .v1 {
            return ASNError(
                .usage, "the --v2 files hold V1 bodies (notification_type / unified_receipt), not V2 records; \(advice)"
            )
        }
        return nil
    }

    /// The usage error for `migrate` given files that look like V2 notifications (the same look as `reconcile`'s
    /// check of its `--v1` side), or nil when they look like V1 bodies or cannot be told.
    package static func migrateProblem(_ inputs: Look) -> ASNError? {
        guard inputs == .v2 else { return nil }
        return ASNError(
            .usage,
            "the input files hold V2 notifications (signedPayload / notificationType), not V1 bodies: this is V2 data, "
                + "which migrate does not read; give it the V1 archive's paths (to compare V1 with V2, run "
                + "'reconcile --v1 V1_PATH --v2 V2_PATH'), or pass --force if the files really are V1 bodies")
    }

    /// The first bytes of a file's first text stream (decompressed, the first member of an archive) found in its
    /// first `sampleBytes`; empty when it cannot be read. The bytes are looked at through the file's one opening
    /// (`InputFile.firstBytes`), so the reading that follows gets them too: a FIFO is not opened twice.
    private static func sample(_ file: InputFile) -> [UInt8] {
        guard let head = try? file.firstBytes(sampleBytes) else { return [] }
        var out = [UInt8](repeating: 0, count: sampleBytes)
        var filled = 0
        let buffer = SourceBuffer(PlainByteSource(bytes: head, name: file.path), name: file.path)
        // A reading of its own: what a look at the first bytes finds is not the run's to report.
        try? InputMember.walk(buffer, name: file.path, depth: 0, reading: InputReading(file.reading.limits)) { member in
            guard case .stream(_, let source) = member else { return }
            while filled < sampleBytes {
                let count = try out.withUnsafeMutableBytes { buffer in
                    try source.readChunk(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                guard count > 0 else { break }
                filled += count
            }
            throw SampleTaken()
        }
        return Array(out[..<filled])
    }

    /// Ends the walk through a file once the sample is taken.
    private struct SampleTaken: Error {}
}
