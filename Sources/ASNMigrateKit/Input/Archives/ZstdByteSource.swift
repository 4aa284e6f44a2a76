/// Reads zstd-compressed bytes (`.zst`, detected by the magic 0x28 0xB5 0x2F 0xFD) through the system's libzstd
/// (`ZstdLibrary`), frame after frame, skippable frames included.
///
/// As for gzip, compressed data is data only once verified: a frame's decompressed bytes are held back (`HeldBytes`)
/// until libzstd reports the frame complete, its content checksum checked when the frame carries one (the `zstd`
/// tool writes one by default), and only then handed out. A damaged or truncated frame hands out nothing and throws
/// `.unreadableInput` naming the offset where it starts. After the last complete frame: the end, all-zero padding
/// (ignored), or trailing data, which is `endProblem` (one reject after the records before it).
final class ZstdByteSource: ByteSource {
    /// The name reported in errors.
    let name: String
    /// Trailing data found after the last complete frame, once reading has ended.
    private(set) var endProblem: ASNError?

    /// Where reading stands.
    private enum Phase {
        case start, frame, replay, betweenFrames, done
    }

    /// The compressed bytes, read ahead.
    private let input: SourceBuffer
    /// The library.
    private let library: ZstdLibrary
    /// The decompression stream, once created.
    private var stream: OpaquePointer?
    /// Where reading stands.
    private var phase = Phase.start
    /// Whether the source is closed.
    private var closed = false
    /// The byte offset where the current frame starts, and how many frames came before it.
    private var frameStart = 0, framesBefore = 0
    /// The current frame's decompressed bytes, held until the frame is complete.
    private let held: HeldBytes
    /// Where libzstd writes decompressed bytes before they are held.
    private let scratch: UnsafeMutableRawPointer
    /// The `ZSTD_inBuffer` and `ZSTD_outBuffer` structs: three words each (pointer, size, position).
    private let inBuffer: UnsafeMutablePointer<Int>, outBuffer: UnsafeMutablePointer<Int>

    /// Frames read so far that carry no content checksum (`UnverifiedFrames`).
    private var unverified = 0
    /// The run reading this input: whether a frame without a checksum is refused, and where unverified frames go.
    private let reading: InputReading

    /// The scratch size.
    private static let scratchSize = 256 * 1024

    /// Decompresses `upstream` for the run `reading`; throws `.unreadableInput` naming the library when libzstd
    /// cannot be loaded.
    init(
        upstream: SourceBuffer, name: String, reading: InputReading,
        holdLimit: Int = GzipByteSource.defaultHoldLimit
    ) throws {
        switch ZstdLibrary.shared {
        case .success(let library): self.library = library
        case .failure(var error):
            error.message = "cannot read input '\(ConsoleText.path(name))': " + error.message
            error.location = SourceLocation(path: name)
            throw error
        }
        self.name = name
        self.reading = reading
        input = upstream
        held = HeldBytes(memoryLimit: holdLimit)
        scratch = UnsafeMutableRawPointer.allocate(byteCount: Self.scratchSize, alignment: 64)
        inBuffer = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        outBuffer = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        inBuffer.initialize(repeating: 0, count: 3)
        outBuffer.initialize(repeating: 0, count: 3)
    }

    deinit {
        close()
        scratch.deallocate()
        inBuffer.deallocate()
        outBuffer.deallocate()
    }

    // MARK: - ByteSource

    /// Decompresses up to `buffer.count` bytes; throws `.unreadableInput` on a damaged or truncated frame.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !closed, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            switch phase {
            case .done:
                return 0
            case .start, .betweenFrames:
                try input.fill(atLeast: 4)
                if input.available == 0 {
                    phase = .done
                } else if startsFrame() {
                    if phase == .betweenFrames { framesBefore += 1 }
                    try beginFrame()
                } else if phase == .start {
                    throw failure("not a zstd frame")
                } else {
                    try endWithTrailingData()
                }
            case .frame:
                try decompressSome()
            case .replay:
                let n = try held.read(into: out, count: buffer.count)
                if n > 0 { return n }
                held.reset()
                phase = .betweenFrames
            }
        }
    }

    /// Frees the stream and closes the upstream; notes the frames read without a checksum.
    func close() {
        reading.unverifiedFrames.note(name, frames: unverified)
        unverified = 0
        if let stream { _ = library.freeDStream(stream) }
        stream = nil
        if !closed { input.close() }
        closed = true
        phase = .done
    }

    // MARK: - Frames

    /// Whether the unread bytes start a zstd frame (0xFD2FB528) or a skippable frame (0x184D2A50…5F), little-endian.
    private func startsFrame() -> Bool {
        guard input.available >= 4 else { return false }
        let b = input.pendingBytes
        if b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD { return true }
        return b[0] & 0xF0 == 0x50 && b[1] == 0x2A && b[2] == 0x4D && b[3] == 0x18
    }

    /// Starts decoding a frame at the current position.
    private func beginFrame() throws {
        frameStart = input.position
        try checkChecksumFlag()
        if stream == nil {
            stream = library.createDStream()
            guard stream != nil else { throw failure("cannot start decompressing (out of memory?)") }
        }
        let code = library.initDStream(stream)
        guard library.isError(code) == 0 else { throw failure(library.errorText(code)) }
        phase = .frame
    }

    /// Counts a zstd frame (not a skippable one) whose Frame_Header_Descriptor (the byte after the magic number)
    /// has its Content_Checksum_flag (bit 2) clear, or refuses it under `--require-checksums`.
    private func checkChecksumFlag() throws {
        try input.fill(atLeast: 5)
        let b = input.pendingBytes
        guard b.count >= 5, b[0] == 0x28, b[1] == 0xB5, b[2] == 0x2F, b[3] == 0xFD, b[4] & 0x04 == 0 else { return }
        guard reading.limits.requireChecksums else {
            unverified += 1
            return
        }
        let which = framesBefore == 0 ? "the zstd stream" : "zstd frame \(framesBefore + 1)"
        throw ASNError(
            .unreadableInput,
            "cannot read input '\(ConsoleText.path(name))': \(which) starting at byte offset \(frameStart) has no content checksum, and --require-checksums is given; none of its data was used"
                + (framesBefore == 0
                    ? ""
                    : " (the records of the \(framesBefore) frame\(framesBefore == 1 ? "" : "s") before it were read)")
                + ". Recompress it with 'zstd' (which writes checksums by default), or drop --require-checksums",
            at: SourceLocation(path: name), group: "a zstd frame without a content checksum (--require-checksums)")
    }

    /// Feeds compressed bytes to libzstd and holds what it produces; at the frame's end, moves to `.replay`.
    private func decompressSome() throws {
        if input.available == 0 {
            try input.fill(atLeast: 1)
            if input.available == 0 { throw failure("unexpected end of file: the frame is truncated") }
        }
        inBuffer[0] = Int(bitPattern: input.pending)
        inBuffer[1] = input.available
        inBuffer[2] = 0
        outBuffer[0] = Int(bitPattern: scratch)
        outBuffer[1] = Self.scratchSize
        outBuffer[2] = 0
        let code = library.decompressStream(
            stream, UnsafeMutableRawPointer(outBuffer), UnsafeMutableRawPointer(inBuffer))
        input.consume(inBuffer[2])
        guard library.isError(code) == 0 else { throw failure(library.errorText(code)) }
        try held.append(UnsafeRawBufferPointer(start: scratch, count: outBuffer[2]), name: name)
        // 0: the frame is decoded, its checksum (if any) checked, and everything flushed.
        if code == 0 { phase = .replay }
    }

    /// After the last complete frame: ignores all-zero padding to the end, or records the trailing data as `endProblem`.
    private func endWithTrailingData() throws {
        let offset = input.position
        var count = 0
        var allZero = true
        while true {
            if input.available == 0 {
                try input.fill(atLeast: 1)
                if input.available == 0 { break }
            }
            if allZero { allZero = !input.pendingBytes.contains { $0 != 0 } }
            count += input.available
            input.consume(input.available)
        }
        phase = .done
        guard !allZero else { return }
        let frames = framesBefore + 1
        endProblem = ByteSourceErrors.trailingData(
            name, count: count, offset: offset, format: "zstd", complete: frames, part: "frame", tool: "zstd -t")
    }

    /// The error for a frame libzstd cannot finish, naming where it starts.
    private func failure(_ zstdMessage: String) -> ASNError {
        let which = framesBefore == 0 ? "the zstd stream" : "zstd frame \(framesBefore + 1)"
        let message =
            "cannot read input '\(ConsoleText.path(name))': \(which) starting at byte offset \(frameStart) is corrupt or truncated"
            + (framesBefore == 0
                ? "" : " (the records of the \(framesBefore) frame\(framesBefore == 1 ? "" : "s") before it were read)")
            + "; none of its data was used (\(held.count) byte\(held.count == 1 ? "" : "s") in \(held.lineFeeds) line\(held.lineFeeds == 1 ? "" : "s") decompressed before the failure, unverified)"
            + "; check the archive (for example with 'zstd -t') and restore a good copy"
        return ASNError(.unreadableInput, message, at: SourceLocation(path: name), cause: "zstd: \(zstdMessage)")
    }
}
