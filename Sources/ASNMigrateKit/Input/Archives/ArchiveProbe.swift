import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension InputFile {
    /// Whether this file is a tar or zip archive, plain or inside gzip or zstd, judged from its first bytes alone
    /// (the start of a compressed stream is inflated without being checked: this only chooses a reader, the reading
    /// itself checks everything). False for standard input, other descriptors and FIFOs, which cannot be read twice.
    func holdsArchive() -> Bool {
        guard shape == nil, isRegularFile, let head = try? firstBytes(64 * 1024) else { return false }
        return Self.isArchive(head, depth: 0)
    }

    /// Whether this file starts with gzip, zstd or zip magic bytes, so that its size does not tell how many bytes it
    /// holds (the progress line shows no ETA then); false for descriptors, FIFOs and files that cannot be read.
    package func isCompressed() -> Bool {
        guard isRegularFile, let head = try? firstBytes(4), !head.isEmpty else { return false }
        switch head.withUnsafeBytes({ InputFormat.detect($0) }) {
        case .gzip, .zstd, .zip: return true
        default: return false
        }
    }

    /// Whether this input is a path to a regular file (after symbolic links): only those are opened to be looked at
    /// before reading, since opening a FIFO would wait for a writer and take bytes the reading needs.
    private var isRegularFile: Bool {
        guard descriptor == nil else { return false }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `head` starts an archive, looking through up to three layers of compression.
    private static func isArchive(_ head: [UInt8], depth: Int) -> Bool {
        let format = head.withUnsafeBytes {
            InputFormat.detect(UnsafeRawBufferPointer(rebasing: $0.prefix(InputFormat.sampleSize)))
        }
        switch format {
        case .tar, .zip: return true
        case .gzip where depth < 3: return isArchive(inflateStart(head), depth: depth + 1)
        case .zstd where depth < 3: return isArchive(zstdStart(head), depth: depth + 1)
        default: return false
        }
    }

    /// The first decompressed bytes (up to `InputFormat.sampleSize`) of the gzip stream starting `head`, unchecked.
    private static func inflateStart(_ head: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return []
        }
        defer { inflateEnd(&stream) }
        var input = head
        var output = [UInt8](repeating: 0, count: InputFormat.sampleSize)
        let produced = input.withUnsafeMutableBytes { source in
            output.withUnsafeMutableBytes { target -> Int in
                stream.next_in = source.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(target.count)
                _ = inflate(&stream, Z_SYNC_FLUSH)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    /// The first decompressed bytes (up to `InputFormat.sampleSize`) of the zstd stream starting `head`, unchecked;
    /// empty when libzstd cannot be loaded (reading will say so).
    private static func zstdStart(_ head: [UInt8]) -> [UInt8] {
        guard case .success(let library) = ZstdLibrary.shared, let stream = library.createDStream() else { return [] }
        defer { _ = library.freeDStream(stream) }
        _ = library.initDStream(stream)
        var output = [UInt8](repeating: 0, count: InputFormat.sampleSize)
        let produced = head.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target -> Int in
                var inBuffer = [Int(bitPattern: source.baseAddress), source.count, 0]
                var outBuffer = [Int(bitPattern: target.baseAddress), target.count, 0]
                let code = inBuffer.withUnsafeMutableBytes { i in
                    outBuffer.withUnsafeMutableBytes { o in
                        library.decompressStream(stream, o.baseAddress, i.baseAddress)
                    }
                }
                return library.isError(code) == 0 ? outBuffer[2] : 0
            }
        }
        return Array(output[0..<produced])
    }
}
