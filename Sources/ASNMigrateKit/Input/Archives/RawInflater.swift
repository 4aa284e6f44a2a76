import CZlib

/// zlib's raw inflate (no header, as zip stores deflate data), reused from member to member.
final class RawInflater {
    /// The zlib stream, at a fixed address.
    private var stream: UnsafeMutablePointer<z_stream>?
    /// Where inflated bytes go before they are held.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 256 * 1024, alignment: 64)

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        scratch.deallocate()
    }

    /// Inflates one deflate stream from `buffer` (consuming exactly its bytes) into `held`, updating `crc`; returns
    /// zlib's message when the data is damaged or ends too soon, nil when the stream ended well.
    func inflate(from buffer: SourceBuffer, into held: HeldBytes, crc: inout UInt32, name: String) throws -> String? {
        let stream: UnsafeMutablePointer<z_stream>
        if let existing = self.stream {
            inflateReset(existing)
            stream = existing
        } else {
            stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                return "cannot start decompressing (out of memory?)"
            }
            self.stream = stream
        }
        while true {
            if buffer.available == 0 {
                try buffer.fill(atLeast: 1)
                if buffer.available == 0 { return "unexpected end of file" }
            }
            stream.pointee.next_in = buffer.pending.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_in = uInt(min(buffer.available, Int(UInt32.max)))
            stream.pointee.next_out = scratch.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(256 * 1024)
            let before = Int(stream.pointee.avail_in)
            let code = CZlib.inflate(stream, Z_NO_FLUSH)
            buffer.consume(before - Int(stream.pointee.avail_in))
            let produced = UnsafeRawBufferPointer(start: scratch, count: 256 * 1024 - Int(stream.pointee.avail_out))
            crc = ZipArchive.crc32(crc, produced)
            try held.append(produced, name: name)
            switch code {
            case Z_STREAM_END: return nil
            case Z_OK, Z_BUF_ERROR: continue
            default: return stream.pointee.msg.map { String(cString: $0) } ?? "inflate error \(code)"
            }
        }
    }
}
