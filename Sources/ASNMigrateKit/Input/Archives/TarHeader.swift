/// One 512-byte tar header block (POSIX ustar, with GNU's and pax's extensions read by `TarArchive`).
struct TarHeader {
    /// The block's bytes.
    let block: [UInt8]

    /// The block size of tar.
    static let blockSize = 512

    /// Whether `head` starts with a tar header: the `ustar` magic at offset 257 (POSIX `ustar\0` or GNU `ustar `)
    /// and a checksum that matches.
    static func looksLikeHeader(_ head: UnsafeRawBufferPointer) -> Bool {
        guard head.count >= blockSize else { return false }
        let magic: [UInt8] = Array("ustar".utf8)
        for (k, byte) in magic.enumerated() where head[257 + k] != byte { return false }
        return TarHeader(block: Array(head[0..<blockSize])).checksumMatches
    }

    // MARK: - Fields

    /// Whether every byte is zero (the end-of-archive marker is two such blocks).
    var isZero: Bool { !block.contains { $0 != 0 } }

    /// Whether the stored checksum equals the sum of the block's bytes with the checksum field read as spaces
    /// (unsigned, or signed as some old writers computed it).
    var checksumMatches: Bool {
        guard let stored = Self.octal(block[148..<156]) else { return false }
        var unsigned = 0
        var signed = 0
        for (k, byte) in block.enumerated() {
            let value = (148..<156).contains(k) ? 0x20 : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        return stored == unsigned || stored == signed
    }

    /// The type flag: `0` or NUL a regular file, `5` a folder, `L` a GNU long name, `x` / `g` pax headers, ….
    var typeFlag: UInt8 { block[156] }

    /// Whether the member is a regular file (`0`, NUL, or `7`, contiguous file).
    var isRegularFile: Bool { typeFlag == UInt8(ascii: "0") || typeFlag == 0 || typeFlag == UInt8(ascii: "7") }

    /// The member's size in bytes: octal, or base-256 (GNU, for sizes of 8 GiB and more); nil when unreadable.
    var size: Int? {
        let field = block[124..<136]
        if let first = field.first, first & 0x80 != 0 {
            var value = Int(first & 0x3F)
            for byte in field.dropFirst() {
                guard value < Int.max >> 8 else { return nil }
                value = value << 8 | Int(byte)
            }
            return value
        }
        return Self.octal(field)
    }

    /// The path: POSIX ustar joins `prefix/name`; GNU tar uses the prefix bytes for other things.
    var path: String {
        let name = Self.text(block[0..<100])
        let posix = block[257..<263].elementsEqual(Array("ustar\u{0}".utf8))
        let prefix = posix ? Self.text(block[345..<500]) : ""
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    // MARK: - Reading fields

    /// An octal number field (leading spaces or NULs, then digits, ended by a space, a NUL or the field's end).
    static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        var started = false
        for byte in field {
            if byte == 0x20 || byte == 0 {
                if started { break }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7"), value < Int.max >> 3 else { return nil }
            started = true
            value = value << 3 | Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : (field.allSatisfy { $0 == 0 || $0 == 0x20 } ? 0 : nil)
    }

    /// A NUL-terminated text field.
    static func text(_ field: ArraySlice<UInt8>) -> String {
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[field.startIndex..<end], as: UTF8.self)
    }
}
