import Foundation
import Testing

@testable import ASNMigrateKit

/// Kills a real `asn-migrate nightly` with SIGKILL at a named step (the binary's test pause hook).
enum NightlyKill {
    /// The steps the pause hook knows, in run order.
    static let steps = NightlyCommand.steps

    /// Starts `nightly` with the test pause hook at `step` and returns once it says it paused there (nil if it never did).
    static func startPaused(_ step: String, _ arguments: [String]) throws -> Process? {
        let executable = try #require(BinaryRun.testHost)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ASN_MIGRATE_TEST_PAUSE_AT"] = step
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        while true {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if seen.contains("test pause at \(step)") { return process }
        }
        process.waitUntilExit()
        Issue.record("the run never reached step \(step): \(seen)")
        return nil
    }

    /// Starts `nightly`, waits until it paused at `step`, and kills it (SIGKILL); true when it died of the signal.
    static func killAt(_ step: String, _ arguments: [String]) throws -> Bool {
        guard let process = try startPaused(step, arguments) else { return false }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }
}
