import Foundation

/// A POSIX pipe whose write end is fed from a background thread, standing in for standard input.
struct TestPipe {
    /// The read end; the caller closes it with `closeReadEnd()`.
    let readEnd: Int32

    /// Opens a pipe and writes `bytes` to it on another thread, then closes the write end.
    init(feeding bytes: [UInt8]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CocoaError(.fileReadUnknown) }
        readEnd = fds[0]
        let writeEnd = fds[1]
        let thread = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count, let base = raw.baseAddress {
                    let n = write(writeEnd, base + offset, raw.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        thread.start()
    }

    /// Closes the read end.
    func closeReadEnd() {
        close(readEnd)
    }
}
