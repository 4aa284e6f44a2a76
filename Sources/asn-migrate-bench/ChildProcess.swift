import Foundation

/// Runs a program as a child process and reports its wall time, exit status and peak memory (from `wait4`).
struct ChildProcess {
    /// What one run measured.
    struct Result {
        /// Wall-clock seconds.
        var seconds: Double
        /// Exit status (or 128 + signal).
        var status: Int32
        /// Peak resident set size in bytes (`ru_maxrss`).
        var maxRSS: Int
        /// CPU seconds used (user + system): unlike wall time, not inflated by other load on the machine.
        var cpuSeconds: Double = 0
    }

    /// Runs `path` with `arguments`, standard output and error to `/dev/null` unless `stdoutPath` is given, with
    /// `environment` added to this process's environment.
    static func run(
        _ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", environment: [String: String] = [:]
    ) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let envp: [UnsafeMutablePointer<CChar>?] =
            variables.keys.sorted().map { strdup("\($0)=\(variables[$0] ?? "")") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let start = DispatchTime.now()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let exited = status & 0x7F == 0
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
                usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Result(
            seconds: seconds, status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            maxRSS: usage.ru_maxrss * 1024, cpuSeconds: cpu)
    }
}

/// A benchmark failure with a message.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
    /// Creates an error.
    init(_ description: String) { self.description = description }
}
