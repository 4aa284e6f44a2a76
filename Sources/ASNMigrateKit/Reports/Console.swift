import Foundation

/// Where a command prints: standard output (bytes) and standard error (text lines).
package struct Console: Sendable {
    /// Writes bytes to standard output.
    package var output: @Sendable ([UInt8]) throws(ASNError) -> Void
    /// Writes one message line to standard error.
    package var diagnostic: @Sendable (String) -> Void
    /// The descriptor behind `output` when it is a real one (1 for `.standard`): written directly, so a failed write
    /// can say exactly how many bytes got out; nil for a console that captures output.
    package var outputDescriptor: Int32?
    /// Takes the run's verdict in a few words with its figures (`7 difference rows and 7 rejects found; see …`), which
    /// the run's last line (`exit 1: …`) states in place of the exit status's general meaning; ignored unless set.
    package var verdict: @Sendable (String) -> Void

    /// Creates a console from two writers.
    package init(
        output: @escaping @Sendable ([UInt8]) throws(ASNError) -> Void,
        diagnostic: @escaping @Sendable (String) -> Void,
        outputDescriptor: Int32? = nil,
        verdict: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.output = output
        self.diagnostic = diagnostic
        self.outputDescriptor = outputDescriptor
        self.verdict = verdict
    }

    /// An output file for `path` (`-` meaning this console's standard output).
    package func outputFile(_ path: String, target: OutputTarget) throws(ASNError) -> OutputFile {
        try OutputFile(
            path: path, target: target, standardOutput: outputDescriptor == nil ? output : nil,
            descriptor: outputDescriptor ?? 1)
    }

    /// The process's real standard output and standard error.
    package static let standard = Console(
        output: { (bytes: [UInt8]) throws(ASNError) in try FileDescriptorSink.standardOutput.write(bytes) },
        // The last line of defence: whatever a message holds, no escape sequence from the input reaches the terminal.
        diagnostic: { line in FileDescriptorSink.writeAll(Array((ConsoleText.lines(line) + "\n").utf8), to: 2) },
        outputDescriptor: 1
    )
}

/// Writes bytes to a file descriptor, whole, retrying on EINTR and short writes.
package final class FileDescriptorSink: ByteSink, Sendable {
    /// Standard output (fd 1).
    package static let standardOutput = FileDescriptorSink(descriptor: 1, name: "standard output")

    /// The descriptor written to.
    package let descriptor: Int32
    /// A name for error messages.
    package let name: String

    /// Creates a sink over an open descriptor (not closed by the sink).
    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Writes all bytes or throws `.outputFailed`.
    package func write(_ bytes: [UInt8]) throws(ASNError) {
        guard FileDescriptorSink.writeAll(bytes, to: descriptor) else {
            throw ASNError(.outputFailed, "cannot write to \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes all bytes to `fd`; false on an error other than EINTR.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            guard var base = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let n = Glibc.write(fd, base, remaining)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= n
                base = base.advanced(by: n)
            }
            return true
        }
    }
}
