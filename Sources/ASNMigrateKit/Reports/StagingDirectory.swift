/// The fresh hidden directory an atomic directory write fills before it is swapped into place.
///
/// Files are flat: names may not contain `/` or be `.`/`..`. Writing a name twice replaces the earlier file.
package final class StagingDirectory {
    /// The hidden temp directory's path.
    package let path: String

    /// Wraps an already created temp directory.
    init(path: String) {
        self.path = path
    }

    /// Writes a whole file into the staging directory.
    package func write(name: String, bytes: [UInt8]) throws(ASNError) {
        let file = try openFile(name: name)
        try file.write(bytes)
        try file.commit()
    }

    /// Opens a streaming file in the staging directory; it is included only if committed before the swap.
    package func openFile(name: String, blockSize: Int = 1 << 20) throws(ASNError) -> AtomicFile {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw ASNError(.outputFailed, "invalid output file name '\(name)'; this is a bug, please report it")
        }
        return try AtomicFile(path: path + "/" + name, blockSize: blockSize)
    }
}
