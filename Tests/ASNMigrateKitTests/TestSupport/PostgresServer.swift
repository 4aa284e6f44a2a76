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
        // A port per server, not per process: two suites may each start one at the same time.
        port = Int.random(in: 50_000..<60_000)
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
            return Shell.spawn("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/" + program] + arguments, stderrPath: "/dev/null", in: "/")
        }
        return Shell.spawn(bin + "/" + program, arguments, stderrPath: "/dev/null", in: "/")
    }
}
