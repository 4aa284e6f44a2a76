import Foundation

/// One data file `partition` writes into a partition folder: the partition file's magic then entries, plain or
/// gzip-compressed, written beside its place and moved there only when finished, then measured for the manifest.
final class PartitionDataWriter {
    /// The file's path under the partition folder (`v1/slice-0000-of-0001.asnpart`).
    let name: String
    /// Where the finished file goes.
    let path: String
    /// A plain file being written.
    private var plain: AtomicFile?
    /// A gzip file being written, at `temporaryPath`.
    private var compressed: GzipWriter?
    /// Where the gzip file is written until it is finished.
    private let temporaryPath: String
    /// Entries written.
    private var items = 0

    /// Starts `folder/name`, creating the folders.
    init(folder: String, name: String, gzip: Bool) throws(ASNError) {
        self.name = name
        path = folder + "/" + name
        temporaryPath = FileSystem.hiddenSibling(of: path, tag: "tmp")
        if gzip {
            try FileSystem.createDirectories(FileSystem.parentDirectory(of: path))
            do {
                compressed = try GzipWriter(path: temporaryPath, level: 1)
            } catch {
                throw (error as? ASNError)
                    ?? ASNError(.outputFailed, "cannot create '\(ConsoleText.path(path))': \(error)")
            }
        } else {
            // Up to 1000 of these are open at once: a small buffer each (a gzip stream holds about 256 KiB anyway).
            plain = try AtomicFile(path: path, blockSize: 64 << 10)
        }
        try write(PartitionFile.magic, items: 0)
    }

    /// Appends encoded entries (`items` of them).
    func write(_ bytes: [UInt8], items: Int) throws(ASNError) {
        self.items += items
        if let plain { return try plain.write(bytes) }
        do {
            try compressed?.write(bytes)
        } catch {
            throw (error as? ASNError) ?? ASNError(.outputFailed, "cannot write '\(ConsoleText.path(path))': \(error)")
        }
    }

    /// Finishes the file, moves it into place and describes it for the manifest.
    func finish(side: String) throws(ASNError) -> PartitionManifest.DataFile {
        if let plain {
            try plain.commit()
        } else if let compressed {
            do {
                try compressed.close()
            } catch {
                throw (error as? ASNError)
                    ?? ASNError(.outputFailed, "cannot finish '\(ConsoleText.path(path))': \(error)")
            }
            guard rename(temporaryPath, path) == 0 else {
                throw FileSystem.failure("move the finished file to", path, errno)
            }
        }
        let (size, sha1) = try PartitionFile.measure(path)
        return PartitionManifest.DataFile(side: side, name: name, bytes: size, sha1: sha1, items: items)
    }

    /// Drops the unfinished file; what was at `path` stays.
    func abort() {
        plain?.abort()
        if compressed != nil {
            try? compressed?.close()
            unlink(temporaryPath)
        }
    }
}
