import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs shell commands and programs for tests with `posix_spawn` and `waitpid`.
enum Shell {
    /// Runs `command` with `/bin/sh -c` in `directory`; its exit status and standard error.
    static func run(_ command: String, in directory: String) -> (status: Int32, stderr: String) {
        let errors = directory + "/.stderr-\(UUID().uuidString.prefix(8))"
        let status = spawn("/bin/sh", ["-c", command], stderrPath: errors, in: directory)
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: errors)
        return (status, text)
    }

    /// `posix_spawn` and `waitpid`: Foundation's `Process` can miss the exit of a child whose own child (the server)
    /// lives on, so the tests wait for the pid themselves. Standard output goes to /dev/null unless the command
    /// redirects it; standard error to `stderrPath`.
    ///
    /// The child gets no other descriptor of the test process: tests run in parallel, and a server started here
    /// (`pg_ctl start` leaves `postgres` running) would otherwise keep the write end of another test's output pipe
    /// open, and that test would wait for its end of file for ever.
    static func spawn(_ path: String, _ arguments: [String], stderrPath: String, in directory: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        closeFromThree(&actions)
        let script = "cd '\(directory)' && exec \"$0\" \"$@\""
        let argv = ["/bin/sh", "-c", script, path] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, nil, &cArguments, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Adds "close every descriptor from 3 up" to `actions`: glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// (glibc 2.34; Swift's Glibc module does not declare it, so it is looked up), else a close of each descriptor the
    /// test process has open now.
    private static func closeFromThree(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
