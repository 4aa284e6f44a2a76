import ASNMigrateKit

/// The V1 and V2 files of a simulation, one per side and UTC month (`v1/2021-03.jsonl`, or `.jsonl.gz`), written as
/// streams with a running line count so every record's `path:line` is known as it is written.
package final class SimulationFiles {
    /// The directory written into (a staging directory).
    package let root: String
    /// The output directory as the user named it; sources in truth files start with it.
    package let displayRoot: String
    /// Whether files are gzip-compressed.
    package let gzip: Bool
    /// Uncompressed bytes written per side ("v1", "v2").
    package private(set) var bytesWritten: [String: Int] = [:]
    /// Lines written per side.
    package private(set) var linesWritten: [String: Int] = [:]

    private var files: [String: OpenFile] = [:]

    /// Creates the writer; files are opened on first use.
    package init(root: String, displayRoot: String, gzip: Bool) {
        self.root = root
        self.displayRoot = displayRoot
        self.gzip = gzip
    }

    /// Appends one line (the newline is added) to the side's file for `month`; returns the line's `path:line`.
    @discardableResult
    package func append(side: String, month: String, line: [UInt8]) throws(ASNError) -> String {
        let name = "\(side)/\(month).jsonl" + (gzip ? ".gz" : "")
        let file: OpenFile
        if let open = files[name] {
            file = open
        } else {
            file = try OpenFile(path: root + "/" + name, gzip: gzip)
            files[name] = file
        }
        try file.append(line)
        bytesWritten[side, default: 0] += line.count + 1
        linesWritten[side, default: 0] += 1
        return "\(displayRoot)/\(name):\(file.lines)"
    }

    /// The file names written so far, sorted.
    package var fileNames: [String] { files.keys.sorted() }

    /// Flushes and closes every file.
    package func finish() throws(ASNError) {
        for name in files.keys.sorted() {
            try files[name]?.close()
        }
    }
}

/// One open output file: buffered, plain (AtomicFile) or gzip (GzipWriter at level 1, for speed).
private final class OpenFile {
    /// The file's path.
    let path: String
    /// Lines appended so far.
    private(set) var lines = 0
    private var buffer: [UInt8] = []
    private let plain: AtomicFile?
    private let compressed: GzipWriter?

    /// Creates (or truncates) the file.
    init(path: String, gzip: Bool) throws(ASNError) {
        self.path = path
        if gzip {
            try FileSystem.createDirectories(FileSystem.parentDirectory(of: path))
            do {
                compressed = try GzipWriter(path: path, level: 1)
            } catch {
                throw ASNError(.outputFailed, "cannot create '\(path)'", cause: String(describing: error))
            }
            plain = nil
        } else {
            plain = try AtomicFile(path: path, blockSize: 1 << 20)
            compressed = nil
        }
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends one line and its newline.
    func append(_ line: [UInt8]) throws(ASNError) {
        lines += 1
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered and finishes the file.
    func close() throws(ASNError) {
        try flush()
        if let plain { try plain.commit() }
        if let compressed {
            do {
                try compressed.close()
            } catch {
                throw ASNError(.outputFailed, "cannot finish '\(path)'", cause: String(describing: error))
            }
        }
    }

    private func flush() throws(ASNError) {
        guard !buffer.isEmpty else { return }
        if let plain { try plain.write(buffer) }
        if let compressed {
            do {
                try compressed.write(buffer)
            } catch {
                throw ASNError(.outputFailed, "cannot write '\(path)'", cause: String(describing: error))
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
