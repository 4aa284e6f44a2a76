import Foundation

@testable import ASNMigrateKit

/// A `Console` that keeps what a command prints, for running commands in-process.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var out: [UInt8] = []
    private var diagnostics: [String] = []

    /// Everything written to standard output, as text.
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    /// Every line written to standard error, joined with newlines.
    var stderr: String { lock.withLock { diagnostics.joined(separator: "\n") } }

    /// The console to hand to a command.
    var console: Console {
        Console(
            output: { [self] (bytes: [UInt8]) throws(ASNError) in lock.withLock { out.append(contentsOf: bytes) } },
            diagnostic: { [self] line in lock.withLock { diagnostics.append(line) } }
        )
    }
}
