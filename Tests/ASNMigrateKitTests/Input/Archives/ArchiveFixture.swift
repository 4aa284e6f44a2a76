import Foundation

@testable import ASNMigrateKit

/// Builds tar, zip and zstd archives in memory for tests, without the `tar`, `zip` or `zstd` tools (which a fresh
/// machine may lack): ustar with GNU long names and pax paths, zip stored or deflated (zlib, through `GzipWriter`),
/// with or without data descriptors, zstd through the same libzstd the tool loads.
enum ArchiveFixture {
    /// One file to put in an archive.
    struct Member {
        /// Its path inside the archive.
        var path: String
        /// Its bytes.
        var bytes: [UInt8]
    }

    /// How a tar header names a member whose path is longer than 100 bytes.
    enum LongNames {
        /// GNU: an `L` member holding the name before the header.
        case gnu
        /// pax: an `x` member with a `path` record before the header.
        case pax
    }

    // MARK: - tar

    /// A tar archive of `members` (plus a folder entry, which readers pass over), ended by two zero blocks.
    static func tar(_ members: [Member], longNames: LongNames = .gnu) -> [UInt8] {
        var out: [UInt8] = []
        out += header(name: "data/", size: 0, type: UInt8(ascii: "5"))
        for member in members {
            let name = Array(member.path.utf8)
            if name.count > 100 {
                switch longNames {
                case .gnu:
                    out += header(name: "././@LongLink", size: name.count + 1, type: UInt8(ascii: "L"), gnu: true)
                    out += padded(name + [0])
                case .pax:
                    let record = paxRecord("path", member.path)
                    out += header(name: "PaxHeaders/x", size: record.count, type: UInt8(ascii: "x"))
                    out += padded(record)
                }
            }
            out += header(
                name: String(decoding: name.prefix(100), as: UTF8.self), size: member.bytes.count,
                type: UInt8(ascii: "0"),
                gnu: longNames == .gnu)
            out += padded(member.bytes)
        }
        return out + [UInt8](repeating: 0, count: 1024)
    }

    /// One 512-byte header with a correct checksum.
    static func header(name: String, size: Int, type: UInt8, gnu: Bool = false) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (k, byte) in text.utf8.enumerated() { block[offset + k] = byte }
        }
        put(name, at: 0)
        put("0000644", at: 100)
        put("0001750", at: 108)
        put("0001750", at: 116)
        let octal = String(size, radix: 8)
        put(String(repeating: "0", count: 11 - octal.count) + octal, at: 124)
        put("14530000000", at: 136)
        block[156] = type
        put(gnu ? "ustar  " : "ustar", at: 257)
        if !gnu { put("00", at: 263) }
        for k in 148..<156 { block[k] = 0x20 }
        let sum = block.reduce(0) { $0 + Int($1) }
        let text = String(sum, radix: 8)
        put(String(repeating: "0", count: 6 - text.count) + text, at: 148)
        block[154] = 0
        block[155] = 0x20
        return block
    }

    /// A pax record `LENGTH KEY=VALUE\n`, its length counting itself.
    static func paxRecord(_ key: String, _ value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while String(length).count + body.utf8.count != length { length += 1 }
        return Array("\(length)\(body)".utf8)
    }

    /// `bytes` padded with zeros to a multiple of 512.
    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512)
    }

    // MARK: - zip

    /// How a zip member is written.
    enum ZipMethod {
        /// Stored, sizes in the local header.
        case stored
        /// Deflated, sizes in the local header.
        case deflate
        /// Deflated, sizes and CRC in a data descriptor after the data (as streaming writers do).
        case deflateWithDescriptor
    }

    /// A zip archive of `members`, each written with `method(index)`, with its central directory; with `zip64`,
    /// local headers carry their sizes in a zip64 extra field (0xFFFFFFFF in the header), as `zip -fz` writes them.
    static func zip(_ members: [Member], zip64: Bool = false, method: (Int) -> ZipMethod = { _ in .deflate }) throws
        -> [UInt8]
    {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (index, member) in members.enumerated() {
            let how = method(index)
            let data = how == .stored ? member.bytes : try rawDeflate(member.bytes)
            let crc = member.bytes.withUnsafeBytes { ZipArchive.crc32(0, $0) }
            let descriptor = how == .deflateWithDescriptor
            let name = Array(member.path.utf8)
            let offset = out.count
            out +=
                le32(0x0403_4b50) + le16(20) + le16(descriptor ? 8 : 0) + le16(how == .stored ? 0 : 8) + le16(0)
                + le16(0x5821)
            let extra =
                zip64
                ? le16(1) + le16(16) + le64(descriptor ? 0 : member.bytes.count) + le64(descriptor ? 0 : data.count)
                : []
            let sizes = zip64 ? le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) : le32(data.count) + le32(member.bytes.count)
            out += descriptor ? le32(0) + (zip64 ? sizes : le32(0) + le32(0)) : le32(Int(crc)) + sizes
            out += le16(name.count) + le16(extra.count) + name + extra + data
            if descriptor {
                out += le32(0x0807_4b50) + le32(Int(crc))
                out += zip64 ? le64(data.count) + le64(member.bytes.count) : le32(data.count) + le32(member.bytes.count)
            }
            central +=
                le32(0x0201_4b50) + le16(20) + le16(20) + le16(descriptor ? 8 : 0) + le16(how == .stored ? 0 : 8)
                + le16(0) + le16(0x5821)
            central +=
                le32(Int(crc)) + le32(data.count) + le32(member.bytes.count) + le16(name.count) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let centralOffset = out.count
        out += central
        out +=
            le32(0x0605_4b50) + le16(0) + le16(0) + le16(members.count) + le16(members.count) + le32(central.count)
            + le32(centralOffset) + le16(0)
        return out
    }

    /// `bytes` as raw deflate data: a gzip stream from `GzipWriter` without its 10-byte header and 8-byte trailer.
    static func rawDeflate(_ bytes: [UInt8]) throws -> [UInt8] {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.writeGzip("x.gz", bytes)
        let gzip = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        precondition(gzip.count >= 18 && gzip[3] == 0, "GzipWriter writes a plain 10-byte header")
        return Array(gzip[10..<(gzip.count - 8)])
    }

    /// A little-endian 16-bit field.
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// A little-endian 32-bit field.
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

    /// A little-endian 64-bit field.
    static func le64(_ value: Int) -> [UInt8] { le32(value & 0xFFFF_FFFF) + le32(value >> 32 & 0xFFFF_FFFF) }

    // MARK: - zstd

    /// `bytes` as one zstd frame, through the libzstd the tool loads; nil when it cannot be loaded.
    static func zstd(_ bytes: [UInt8]) throws -> [UInt8]? {
        guard case .success(let library) = ZstdLibrary.shared else { return nil }
        return try library.compressed(bytes)
    }
}
