import Foundation

/// What makes an input file "the same file" to the nightly ledger: its resolved real path, and its content
/// fingerprint (the bytes read so far: their count and SHA-1), never the spelling of the path it was listed under.
package enum FileIdentity {
    /// Suffixes of names an exporter writes to before renaming into place; such files are left for a later night.
    package static let temporarySuffixes = [".tmp", ".part", ".partial"]

    /// The path with symbolic links, `.` and `..` resolved and made absolute (`realpath`); nil when it cannot be resolved.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether a file name marks a file still being written: a leading `.` or one of `temporarySuffixes`.
    package static func isTemporaryName(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix(".") || temporarySuffixes.contains { name.hasSuffix($0) }
    }

    /// The SHA-1 (hex) of the first `length` bytes of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer, length: Int) -> String {
        SHA1.hex(SHA1.digest(UnsafeRawBufferPointer(rebasing: bytes[0..<Swift.min(length, bytes.count)])))
    }

    /// Whether a file whose first `consumed` bytes were read may be read on from there: JSON Lines (its first
    /// non-blank byte is `{`, so neither a JSON array, a CSV export nor gzip) whose read part ends with a newline.
    package static func isAppendable(_ bytes: UnsafeRawBufferPointer, consumed: Int) -> Bool {
        guard consumed > 0, consumed <= bytes.count, bytes[consumed - 1] == UInt8(ascii: "\n") else { return false }
        for byte in bytes[0..<consumed] where !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
            return byte == UInt8(ascii: "{")
        }
        return false
    }

    /// The end of the last complete line of `bytes` (one past its newline), or 0 when there is none.
    package static func completeLinesEnd(_ bytes: UnsafeRawBufferPointer) -> Int {
        var end = bytes.count
        while end > 0, bytes[end - 1] != UInt8(ascii: "\n") { end -= 1 }
        return end
    }

    /// The number of newlines among the first `length` bytes: a line offset for records read from there on.
    package static func lineCount(_ bytes: UnsafeRawBufferPointer, length: Int) -> Int {
        var count = 0
        for byte in bytes[0..<Swift.min(length, bytes.count)] where byte == UInt8(ascii: "\n") { count += 1 }
        return count
    }

    /// An unlinked temporary file holding `bytes`, open for reading from its start; the caller closes the descriptor.
    package static func detachedCopy(_ bytes: UnsafeRawBufferPointer, of path: String) throws(ASNError) -> Int32 {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((FileSystem.trimmingTrailingSlashes(directory) + "/asn-migrate-tail-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else {
            throw ASNError(
                .unreadableInput,
                "cannot make a temporary file in '\(directory)' to read the new lines of '\(ConsoleText.path(path))': \(FileSystem.errnoText(errno)); set TMPDIR to a writable folder"
            )
        }
        template.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = unlink(base) }
        }
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress?.advanced(by: written), bytes.count - written)
            guard n > 0 else {
                let code = errno
                close(fd)
                throw ASNError(
                    .unreadableInput,
                    "cannot copy the new lines of '\(ConsoleText.path(path))' to a temporary file: \(FileSystem.errnoText(code))"
                )
            }
            written += n
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }
}
