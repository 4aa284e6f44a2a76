import Foundation
import Testing

@testable import ASNMigrateKit

/// The run lock: exclusive while held, names the holder, released on release/deinit and when the holder is killed.
@Suite struct RunLockTests {
    @Test func secondAcquireFailsAtOnceNamingTheHolderPid() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/.out.lock"
        let first = try RunLock.acquire(path)
        defer { first.release() }
        #expect(String(decoding: try tmp.read(".out.lock"), as: UTF8.self) == "\(getpid())\n")
        do {
            _ = try RunLock.acquire(path)
            Issue.record("a second lock on the same file must fail")
        } catch {
            #expect(error.code == .locked)
            #expect(error.message.contains("process \(getpid())"), "\(error.message)")
            #expect(error.message.contains(path))
        }
    }

    @Test func releaseAndDeinitFreeTheLock() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/sub/.out.lock"
        let first = try RunLock.acquire(path)
        first.release()
        first.release()
        #expect(try tmp.read("sub/.out.lock").isEmpty, "a released lock file holds no pid")
        do {
            // Dropped at the end of this scope without release(): deinit must free it.
            let scoped = try RunLock.acquire(path)
            #expect(scoped.path == path)
        }
        let again = try RunLock.acquire(path)
        again.release()
    }

    @Test(.enabled(if: MachineTools.flock, "needs flock(1)"))
    func aLockHeldByAKilledProcessNeverBlocks() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = tmp.path + "/.out.lock"
        // A real child process locks the file (flock(1) on its fd 9), writes its pid and becomes `sleep`, keeping the
        // lock in the same process; SIGKILL then leaves its pid behind in the file.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exec 9>\"$0\"; flock -x 9; echo $$ >&9; exec sleep 30", path]
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        var held = false
        // Up to 10 s for the child to take the lock: 2 s (200 probes) was not enough on a loaded 2-core machine.
        let deadline = Date().addingTimeInterval(10)
        while !held && Date() < deadline {
            do {
                let probe = try RunLock.acquire(path)
                probe.release()
                usleep(10_000)
            } catch {
                held = error.code == .locked && error.message.contains("process \(child.processIdentifier)")
            }
        }
        #expect(held, "the child holds the lock and the message names its pid")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        // The killed holder's pid is still in the file, but the kernel released its flock.
        #expect(!(try tmp.read(".out.lock")).isEmpty)
        let lock = try RunLock.acquire(path)
        lock.release()
    }

    @Test(arguments: [
        ("out.jsonl", ".out.jsonl.lock"), ("/a/b/report", "/a/b/.report.lock"), ("/a/b/report/", "/a/b/.report.lock"),
        ("./x", "./.x.lock"), ("/top", "/.top.lock")
    ])
    func lockPathIsAHiddenSibling(output: String, expected: String) {
        #expect(RunLock.lockPath(besideOutput: output) == expected)
    }
}
