import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server from the machine's own binaries, on a Unix socket in a temporary directory (no TCP),
/// for tests that read from a database; nil when the server binaries are missing or it cannot start.
///
/// As root the server runs as `nobody` (initdb refuses root), through `setpriv` (or `runuser -u postgres` where
/// `setpriv` is missing). With a `password` the cluster asks every client for it (SCRAM), so the tests can check a
/// failed login and that no message shows the password.
final class PostgresServer: @unchecked Sendable {
    // @unchecked: every stored property is a constant set in init; the server is shared by a suite's serialized tests.

    /// The folder holding the cluster and the socket.
    let directory: String
    /// The port number naming the socket file.
    let port: Int
    /// The superuser's password, when the cluster asks for one.
    let password: String?
    /// Where the server binaries are.
    private let bin: String
    /// The command prefix that drops root, or empty when not root.
    private let asServerUser: [String]

    /// Where the newest installed server's binaries are, or nil (the tests then skip, saying so).
    static let binaries: String? = {
        let fm = FileManager.default
        guard let versions = try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql"),
            let newest = versions.compactMap(Int.init).max()
        else { return nil }
        let bin = "/usr/lib/postgresql/\(newest)/bin"
        guard fm.isExecutableFile(atPath: bin + "/initdb"), fm.isExecutableFile(atPath: bin + "/pg_ctl"),
            fm.isExecutableFile(atPath: "/usr/bin/psql")
        else { return nil }
        return bin
    }()

    /// Starts a fresh cluster (asking for `password` when given), or returns nil.
    init?(password: String? = nil) {
        let fm = FileManager.default
        guard let bin = Self.binaries else { return nil }
        self.bin = bin
        self.password = password
        if geteuid() == 0 {
            asServerUser =
                fm.isExecutableFile(atPath: "/usr/bin/setpriv")
                ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
                : ["/usr/sbin/runuser", "-u", "postgres", "--"]
        } else {
            asServerUser = []
        }
        directory = "/tmp/asn-migrate-pg-\(UUID().uuidString.prefix(8))"
        // A port per server, not per process: two suites may each start one at the same time.
        port = Int.random(in: 50_000..<60_000)
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o777)
        } catch {
            return nil
        }
        var initdb = ["-D", directory + "/data", "-U", "postgres", "--no-sync"]
        if let password {
            let file = directory + "/pwfile"
            guard fm.createFile(atPath: file, contents: Data((password + "\n").utf8)) else { return nil }
            chmod(file, 0o644)
            initdb += ["--auth=scram-sha-256", "--pwfile=" + file]
        } else {
            initdb += ["-A", "trust"]
        }
        guard run(server: "initdb", initdb) == 0, start() else {
            stop()
            return nil
        }
    }

    /// Starts the cluster's server (again, after `kill`); whether it came up.
    @discardableResult
    func start() -> Bool {
        run(
            server: "pg_ctl",
            [
                "-D", directory + "/data", "-w", "-l", directory + "/log",
                "-o", "-k \(directory) -p \(port) -c listen_addresses= -c fsync=off -c full_page_writes=off", "start"
            ]) == 0
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`), keeping its files.
    func kill() {
        _ = run(server: "pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"])
    }

    /// Stops the server at once and removes its files.
    func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The `psql` connection options for this server.
    var psqlOptions: String { "-h \(directory) -p \(port) -U postgres -d postgres" }

    /// A connection URI for this server's socket (with the password when `withPassword`).
    func uri(database: String = "postgres", password given: String? = nil, withPassword: Bool = true) -> String {
        let secret = given ?? (withPassword ? password : nil)
        return "postgresql://postgres\(secret.map { ":" + $0 } ?? "")@/\(database)?host=\(directory)&port=\(port)"
    }

    /// Runs `psql` on `database` with `arguments` (a shell fragment) in `folder`, stopping at the first SQL error.
    func psql(_ arguments: String, in folder: String, database: String = "postgres") -> (status: Int32, stderr: String)
    {
        let environment = password.map { "PGPASSWORD='\($0)' " } ?? ""
        return Shell.run(
            "\(environment)psql -h \(directory) -p \(port) -U postgres -d \(database) -q -v ON_ERROR_STOP=1 \(arguments)",
            in: folder)
    }

    /// Runs a server program (as the unprivileged user when we are root); its exit status.
    private func run(server program: String, _ arguments: [String]) -> Int32 {
        let command = asServerUser + [bin + "/" + program] + arguments
        return Shell.spawn(command[0], Array(command.dropFirst()), stderrPath: "/dev/null", in: "/")
    }
}
