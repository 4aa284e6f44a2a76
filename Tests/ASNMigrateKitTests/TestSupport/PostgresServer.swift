import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server from the machine's own binaries, on a Unix socket in a temporary directory (no TCP),
/// for tests of the README's export recipes; nil when the server binaries are missing or it cannot start.
final class PostgresServer {
    /// The folder holding the cluster and the socket.
    let directory: String
    /// The port number naming the socket file.
    let port: Int
    /// Where the server binaries are.
    private let bin: String
    /// Whether commands run as the `postgres` user (the server refuses to run as root).
    private let asPostgres: Bool

    /// Starts a fresh cluster, or returns nil (the test then skips).
    init?() {
        let fm = FileManager.default
        guard let versions = try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql"),
              let newest = versions.compactMap(Int.init).max() else { return nil }
        bin = "/usr/lib/postgresql/\(newest)/bin"
        guard fm.isExecutableFile(atPath: bin + "/initdb"), fm.isExecutableFile(atPath: "/usr/bin/psql") else { return nil }
        asPostgres = geteuid() == 0
        directory = "/tmp/asn-migrate-pg-\(UUID().uuidString.prefix(8))"
        port = 50_000 + Int(getpid() % 10_000)
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o777)
        } catch {
            return nil
        }
        guard run(server: "initdb", ["-D", directory + "/data", "-U", "postgres", "-A", "trust", "--no-sync"]) == 0,
              run(server: "pg_ctl", ["-D", directory + "/data", "-w", "-l", directory + "/log",
                                     "-o", "-k \(directory) -p \(port) -c listen_addresses= -c fsync=off", "start"]) == 0 else {
            stop()
            return nil
        }
    }

    /// Stops the server at once and removes its files.
    func stop() {
        _ = run(server: "pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The `psql` connection options for this server.
    var psqlOptions: String { "-h \(directory) -p \(port) -U postgres -d postgres" }

    /// Runs a server program (as `postgres` when we are root); its exit status.
    private func run(server program: String, _ arguments: [String]) -> Int32 {
        if asPostgres {
            return Self.spawn("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/" + program] + arguments, stderrPath: "/dev/null", in: "/")
        }
        return Self.spawn(bin + "/" + program, arguments, stderrPath: "/dev/null", in: "/")
    }

    /// Runs `command` with `/bin/sh -c` in `directory`; its exit status and standard error.
    static func shell(_ command: String, in directory: String) -> (status: Int32, stderr: String) {
        let errors = directory + "/.stderr-\(UUID().uuidString.prefix(8))"
        let status = spawn("/bin/sh", ["-c", command], stderrPath: errors, in: directory)
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: errors)
        return (status, text)
    }

    /// `posix_spawn` and `waitpid`: Foundation's `Process` can miss the exit of a child whose own child (the server)
    /// lives on, so the tests wait for the pid themselves. Standard output goes to /dev/null unless the command
    /// redirects it; standard error to `stderrPath`.
    private static func spawn(_ path: String, _ arguments: [String], stderrPath: String, in directory: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
}
