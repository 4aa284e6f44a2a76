import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tests run in parallel: a program the tests start must not hold another test's descriptors.
@Suite struct ShellTests {
    /// A spawned program that leaves a child running (as `pg_ctl start` leaves `postgres`) does not keep the write end
    /// of a pipe the test process opened without close-on-exec: the reader sees its end of file at once.
    @Test func aProgramLeftRunningHoldsNoPipeOfTheTestProcess() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let status = Shell.spawn(
            "/bin/sh", ["-c", "sleep 3 </dev/null >/dev/null 2>&1 &"], stderrPath: "/dev/null", in: "/tmp")
        #expect(status == 0)
        close(fds[1])
        var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 1_500)
        var byte: UInt8 = 0
        #expect(ready == 1 && read(fds[0], &byte, 1) == 0, "the pipe's write end is still open in the spawned program")
    }
}
