import Foundation

/// Runs the built `asn-migrate` executable in a child process, as a user or a cron job would.
struct BinaryRun {
    /// The exit status.
    let status: Int32
    /// Everything written to standard output.
    let stdout: [UInt8]
    /// Everything written to standard error, as text.
    let stderr: String

    /// Standard output as text.
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The built executable: next to the test bundle (the product directory), else `.build/debug` under the package.
    static let executable: URL? = built("asn-migrate")

    /// The crash tests' host binary (`Tests/TestHost`): `asn-migrate` plus the pause hook.
    static let testHost: URL? = built("asn-migrate-test-host")

    /// The built executable `name`, looked for as `executable` describes.
    private static func built(_ name: String) -> URL? {
        var candidates: [URL] = []
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(PackagePaths.root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: url.path)
            {
                return url
            }
        }
        return nil
    }

    /// Runs `asn-migrate arguments` in `directory` (the package root by default), feeding `stdin` through a pipe when
    /// given, with `environment` added to this process's environment.
    static func run(
        _ arguments: [String], in directory: URL = PackagePaths.root, stdin: [UInt8]? = nil,
        environment: [String: String] = [:]
    ) throws -> BinaryRun {
        guard let executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "asn-migrate binary not found"])
        }
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let outPath = scratch.path + "/stdout"
        let errPath = scratch.path + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        guard let outHandle = FileHandle(forWritingAtPath: outPath),
            let errHandle = FileHandle(forWritingAtPath: errPath)
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = directory
        process.standardOutput = outHandle
        process.standardError = errHandle
        let pipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : pipe
        try process.run()
        if let stdin {
            // Written from another thread so a large input cannot deadlock against a full output.
            let writer = pipe.fileHandleForWriting
            let thread = Thread {
                writer.write(Data(stdin))
                try? writer.close()
            }
            thread.start()
        }
        process.waitUntilExit()
        return BinaryRun(
            status: process.terminationStatus,
            stdout: Array(try Data(contentsOf: URL(fileURLWithPath: outPath))),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        )
    }
}
